import Testing
import RunusCore
import Tracking
@testable import TrackFormats

@Suite("Compact track codec")
struct CompactTrackCodecTests {
    /// A 1 Hz run with GPS-like steps; `gaps` makes optional values go missing now and then.
    static func randomTrack(_ rng: inout SeededGenerator, count: Int, gaps: Bool) -> Track {
        var t = 1_780_000_000 + rng.uniform(0, 1e6), lat = rng.uniform(-80, 80), lon = rng.uniform(-180, 180)
        var ele = rng.uniform(-50, 3000), hr = 140.0, cad = 170.0
        var points: [TrackPoint] = []
        for _ in 0..<count {
            t += rng.uniform(0.5, 5); lat += rng.uniform(-5e-5, 5e-5); lon += rng.uniform(-5e-5, 5e-5)
            ele += rng.uniform(-0.5, 0.5); hr += rng.uniform(-2, 2); cad += rng.uniform(-1, 1)
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon,
                                     elevation: gaps && rng.bernoulli(0.1) ? nil : ele,
                                     heartRate: gaps && rng.bernoulli(0.2) ? nil : hr,
                                     cadence: gaps && rng.bernoulli(0.3) ? nil : cad))
        }
        return Track(points: points)
    }

    /// Half a quantum, plus a little for the division by the quantum in binary floating point.
    static func halfQuantum(_ q: Double) -> Double { q / 2 * (1 + 1e-6) }

    @Test("round trip stays within half a quantum", arguments: [(1, false), (2, true), (3, true)])
    func roundTrip(seed: UInt64, gaps: Bool) throws {
        var rng = SeededGenerator(seed: seed)
        let track = Self.randomTrack(&rng, count: 2000, gaps: gaps)
        let decoded = try CompactTrackCodec.decode(CompactTrackCodec.encode(track))
        #expect(decoded.points.count == track.points.count)
        for (a, b) in zip(track.points, decoded.points) {
            // Times near 1.78e9 s carry ~2.4e-7 s of Double rounding on top of the 0.5 ms.
            #expect(abs(a.time - b.time) <= Self.halfQuantum(CompactTrackCodec.timeQuantum) + 1e-6)
            #expect(abs(a.latitude - b.latitude) <= Self.halfQuantum(CompactTrackCodec.positionQuantum))
            #expect(abs(a.longitude - b.longitude) <= Self.halfQuantum(CompactTrackCodec.positionQuantum))
            #expect((a.elevation == nil) == (b.elevation == nil) && (a.heartRate == nil) == (b.heartRate == nil)
                    && (a.cadence == nil) == (b.cadence == nil))
            if let x = a.elevation, let y = b.elevation { #expect(abs(x - y) <= Self.halfQuantum(CompactTrackCodec.elevationQuantum)) }
            if let x = a.heartRate, let y = b.heartRate { #expect(abs(x - y) <= Self.halfQuantum(CompactTrackCodec.rateQuantum)) }
            if let x = a.cadence, let y = b.cadence { #expect(abs(x - y) <= Self.halfQuantum(CompactTrackCodec.rateQuantum)) }
        }
        // Quantised values are fixed points: encoding the decoded track gives the same bytes.
        #expect(CompactTrackCodec.encode(decoded) == CompactTrackCodec.encode(track))
    }

    @Test("size per point: ≤ 7 bytes position+time only, ≤ 11 with elevation, heart rate and cadence")
    func sizePerPoint() {
        var rng = SeededGenerator(seed: 4)
        let full = Self.randomTrack(&rng, count: 3600, gaps: false)
        let bare = Track(points: full.points.map { TrackPoint(time: $0.time, latitude: $0.latitude, longitude: $0.longitude) })
        let fullSize = Double(CompactTrackCodec.encode(full).count) / 3600
        let bareSize = Double(CompactTrackCodec.encode(bare).count) / 3600
        // Measured (seed 4): see record 0105. Steps up to ±5.5 m and ±0.5 m keep deltas in 2–3 bytes.
        #expect(bareSize <= 7, "bare \(bareSize) B/pt")
        #expect(fullSize <= 11, "full \(fullSize) B/pt")
        print("compact track size: \(bareSize) B/point (time+position), \(fullSize) B/point (all columns)")
    }

    @Test("every truncation of a valid blob throws instead of crashing")
    func truncations() throws {
        var rng = SeededGenerator(seed: 5)
        let blob = CompactTrackCodec.encode(Self.randomTrack(&rng, count: 60, gaps: true))
        for cut in 0..<blob.count {
            #expect(throws: TrackFormatError.self, "cut at \(cut)") { try CompactTrackCodec.decode(Array(blob[..<cut])) }
        }
        _ = try CompactTrackCodec.decode(blob)
    }

    @Test("corrupt input names the offending byte")
    func corrupt() throws {
        #expect(throws: TrackFormatError.unsupportedVersion(offset: 0, version: 9, supported: [1])) {
            try CompactTrackCodec.decode([9, 0, 0])
        }
        #expect(throws: TrackFormatError.corrupt(offset: 1, message: "unknown flag bits in 0x20")) {
            try CompactTrackCodec.decode([1, 0x20, 0])
        }
        var blob = CompactTrackCodec.encode(Track(points: [TrackPoint(time: 1, latitude: 1, longitude: 1)]))
        blob.append(0)
        #expect(throws: TrackFormatError.corrupt(offset: blob.count - 1, message: "1 trailing bytes after 1 points")) {
            try CompactTrackCodec.decode(blob)
        }
        // A huge point count with few bytes must not allocate: it is refused at the count.
        #expect(throws: TrackFormatError.self) { try CompactTrackCodec.decode([1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1, 2, 3]) }
        // Latitude 91°: zigzag(910000000) as a varint.
        var bad: [UInt8] = [1, 0, 1, 0]
        var v = UInt64(910_000_000) << 1
        while v >= 0x80 { bad.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bad.append(UInt8(v)); bad.append(0)
        #expect(throws: TrackFormatError.corrupt(offset: 4, message: "point 0 latitude 91.0 is outside [-90, 90]")) {
            try CompactTrackCodec.decode(bad)
        }
        // Random garbage never crashes.
        var rng = SeededGenerator(seed: 6)
        for _ in 0..<2000 {
            var junk = (0..<rng.int(in: 0...40)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !junk.isEmpty { junk[0] = 1 }
            _ = try? CompactTrackCodec.decode(junk)
        }
        #expect(try CompactTrackCodec.decode(CompactTrackCodec.encode(Track(points: []))) == Track(points: []))
    }
}
