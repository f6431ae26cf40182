import Testing
import RunusCore
import Tracking
@testable import TrackFormats

/// The device's distance readings in the readers and the codec (record 0116), and files with
/// no positions (records 0116, 0232).
@Suite("device distance readings in files and the codec")
struct DeviceReadingsTests {
    typealias Field = FITBuilder.Field

    /// A FIT treadmill file: `count` records at 1 Hz with distance (cm), heart rate, no position;
    /// `withDistance` false leaves the distance out (then only the session's totals remain).
    static func treadmill(start: Double = 1_700_000_000, count: Int = 600, withDistance: Bool = true) -> [UInt8] {
        var b = FITBuilder()
        b.define(local: 0, global: 0, fields: [Field(number: 0, size: 1, baseType: FITBuilder.enumType), Field(number: 4, size: 4, baseType: FITBuilder.uint32)])
        b.message(local: 0, [4, FITBuilder.fitTime(start)])
        var fields = [Field(number: 253, size: 4, baseType: FITBuilder.uint32), Field(number: 3, size: 1, baseType: FITBuilder.uint8)]
        if withDistance { fields.append(Field(number: 5, size: 4, baseType: FITBuilder.uint32)) }
        b.define(local: 1, global: 20, fields: fields)
        for i in 0..<count { b.message(local: 1, [FITBuilder.fitTime(start + Double(i)), 150, Int64(i) * 280]) }
        let end = start + Double(count - 1)
        b.define(local: 4, global: 18, fields: [Field(number: 253, size: 4, baseType: FITBuilder.uint32), Field(number: 2, size: 4, baseType: FITBuilder.uint32),
                                                 Field(number: 7, size: 4, baseType: FITBuilder.uint32), Field(number: 8, size: 4, baseType: FITBuilder.uint32),
                                                 Field(number: 9, size: 4, baseType: FITBuilder.uint32), Field(number: 11, size: 2, baseType: FITBuilder.uint16),
                                                 Field(number: 5, size: 1, baseType: FITBuilder.enumType), Field(number: 16, size: 1, baseType: FITBuilder.uint8)])
        b.message(local: 4, [FITBuilder.fitTime(end), FITBuilder.fitTime(start), Int64(count - 1) * 1000, Int64(count - 1) * 1000,
                             Int64(count - 1) * 280, 120, 1, 150])
        return b.file()
    }

    @Test("a FIT treadmill file: readings without positions give the record, with the heart rate")
    func fitTreadmill() throws {
        let a = try #require(try FITReader.read(Self.treadmill(), name: "treadmill.fit").first)
        #expect(a.track.points.isEmpty && a.track.deviceDistances.count == 600 && a.recordCount == 600)
        #expect(a.track.deviceDistances[10] == DistanceSample(time: 1_700_000_010, distance: 28, heartRate: 150))
        let m = a.runMetrics()
        #expect(m.distanceSource == .device && abs(m.distance - 599 * 2.8) < 1e-9 && m.elapsed == 599)
        #expect(m.averageHeartRate == 150 && !m.hasPositions)
    }

    @Test("a FIT file with neither positions nor distances falls back to its session's totals")
    func fitTotalsOnly() throws {
        let a = try #require(try FITReader.read(Self.treadmill(withDistance: false), name: "t.fit").first)
        #expect(a.track.deviceDistances.isEmpty)
        let m = a.runMetrics(weightKg: 70)
        #expect(m.distanceSource == .summary && abs(m.distance - 599 * 2.8) < 1e-9 && m.elapsed == 599 && m.moving == 599)
        #expect(m.startTime == 1_700_000_000 && m.calories == 120 && m.averageHeartRate == 150 && m.splits.isEmpty)
    }

    @Test("FIT records with a position and a distance give both a fix and a reading")
    func fitRecordsCarryDistance() throws {
        var b = FITBuilder()
        b.define(local: 1, global: 20, fields: [Field(number: 253, size: 4, baseType: FITBuilder.uint32), Field(number: 0, size: 4, baseType: FITBuilder.sint32),
                                                 Field(number: 1, size: 4, baseType: FITBuilder.sint32), Field(number: 5, size: 4, baseType: FITBuilder.uint32)])
        for i in 0..<20 {
            b.message(local: 1, [FITBuilder.fitTime(1_700_000_000 + Double(5 * i)), FITBuilder.semicircles(47 + Double(i) * 1.35e-4),
                                 FITBuilder.semicircles(8.5), Int64(i) * 1550])
        }
        let a = try #require(try FITReader.read(b.file(), name: "sparse.fit").first)
        #expect(a.track.points.count == 20 && a.track.deviceDistances.count == 20)
        #expect(a.track.deviceDistances.map(\.time) == a.track.points.map(\.time) && a.track.deviceDistances[19].distance == 294.5)
    }

    @Test("TCX trackpoints with DistanceMeters and no Position are readings, not fixes")
    func tcxReadings() throws {
        var xml = "<?xml version=\"1.0\"?><TrainingCenterDatabase><Activities><Activity Sport=\"Running\"><Lap StartTime=\"2026-01-05T07:00:00Z\">"
        xml += "<TotalTimeSeconds>120</TotalTimeSeconds><DistanceMeters>360</DistanceMeters><Track>"
        for s in 0...120 {
            let time = "2026-01-05T07:\(s / 60 < 10 ? "0" : "")\(s / 60):\(s % 60 < 10 ? "0" : "")\(s % 60)Z"
            xml += "<Trackpoint><Time>\(time)</Time><DistanceMeters>\(3 * s)</DistanceMeters><HeartRateBpm><Value>140</Value></HeartRateBpm></Trackpoint>"
        }
        xml += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let a = try #require(try TCXReader.read(Array(xml.utf8), name: "indoor.tcx").first)
        #expect(a.track.points.isEmpty && a.track.deviceDistances.count == 121 && a.recordCount == 121)
        #expect(a.track.deviceDistances[120].distance == 360 && a.track.deviceDistances[120].heartRate == 140)
        #expect(a.deviceTotals.distance == 360, "the lap's own DistanceMeters stays a lap total")
        let m = a.runMetrics()
        #expect(m.distanceSource == .device && m.distance == 360 && m.elapsed == 120)
    }

    @Test("the codec keeps readings within half a quantum and writes a track without them as before (seed 7)")
    func codecRoundTrip() throws {
        var rng = SeededGenerator(seed: 7)
        var track = CompactTrackCodec.randomTrackForReadings(&rng)
        let withoutBytes = CompactTrackCodec.encode(Track(points: track.points))
        #expect(withoutBytes[1] & 0x10 == 0, "no readings, no flag")
        track.deviceDistances = (0..<500).map { i in
            DistanceSample(time: 1_780_000_000 + Double(i) * 1.5, distance: Double(i) * 4.321,
                           heartRate: rng.bernoulli(0.2) ? nil : 150 + rng.uniform(-5, 5), cadence: rng.bernoulli(0.5) ? nil : 170)
        }
        let blob = CompactTrackCodec.encode(track)
        #expect(Array(blob.prefix(withoutBytes.count))[2...] == withoutBytes[2...], "the points' bytes are unchanged")
        let back = try CompactTrackCodec.decode(blob)
        #expect(back.points.count == track.points.count && back.deviceDistances.count == 500)
        for (a, b) in zip(track.deviceDistances, back.deviceDistances) {
            #expect(abs(a.time - b.time) <= 0.0005 * (1 + 1e-6) + 1e-6)
            #expect(abs(a.distance - b.distance) <= CompactTrackCodec.distanceQuantum / 2 * (1 + 1e-6))
            #expect((a.heartRate == nil) == (b.heartRate == nil) && (a.cadence == nil) == (b.cadence == nil))
        }
        #expect(CompactTrackCodec.encode(back) == blob)
        for cut in 0..<blob.count where cut % 7 == 0 || cut > blob.count - 20 {
            #expect(throws: TrackFormatError.self, "cut at \(cut)") { try CompactTrackCodec.decode(Array(blob[..<cut])) }
        }
        // Readings only (a treadmill), and a presence byte with an unknown bit.
        let indoor = Track(points: [], deviceDistances: [DistanceSample(time: 10, distance: 0), DistanceSample(time: 11, distance: 3)])
        #expect(try CompactTrackCodec.decode(CompactTrackCodec.encode(indoor)) == indoor)
        var bad = CompactTrackCodec.encode(indoor)
        bad[bad.count - 1] = 0x08
        #expect(throws: TrackFormatError.corrupt(offset: bad.count - 1, message: "reading 1 presence 0x8 has unknown bits")) {
            try CompactTrackCodec.decode(bad)
        }
    }
}

extension CompactTrackCodec {
    /// 300 fixes of a 2 s run near Vienna with elevation (a test helper).
    static func randomTrackForReadings(_ rng: inout SeededGenerator) -> Track {
        Track(points: (0..<300).map { i in
            TrackPoint(time: 1_780_000_000 + Double(i) * 2, latitude: 48.2 + Double(i) * 5e-5 + rng.uniform(-1e-6, 1e-6),
                       longitude: 16.37, elevation: 180 + rng.uniform(-1, 1))
        })
    }
}
