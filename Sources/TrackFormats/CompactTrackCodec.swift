import RunusCore
import Tracking

/// A small binary form of a track for storage and the wire (record 0105).
///
/// Layout (version 1), all integers LEB128 varints, signed ones zigzag-encoded:
/// ```
/// byte 0      version (1)
/// byte 1      flags: bit 0 elevation column, bit 1 heart-rate column, bit 2 cadence column,
///             bit 3 per-point presence byte follows each point's position (some values missing),
///             bit 4 device distance readings follow the points (record 0116)
/// varint      point count
/// per point   Δtime (ms), Δlatitude (1e-7°), Δlongitude (1e-7°),
///             [presence byte: bit 0 elevation, bit 1 heart rate, bit 2 cadence],
///             Δelevation (dm), Δheart rate (0.1 bpm), Δcadence (0.1 steps/min) for present values
/// [bit 4:]
/// varint      reading count
/// per reading Δtime (ms), Δdistance (cm), presence byte (bit 1 heart rate, bit 2 cadence),
///             Δheart rate (0.1 bpm), Δcadence (0.1 steps/min) for present values
/// ```
/// A track without readings is encoded as before bit 4 existed, byte for byte.
/// Deltas are taken between quantised values (the first from 0; optional columns from the last
/// present value), so rounding never accumulates. Quantisation: time 1 ms, position 1e-7°
/// (≤ 1.1 cm), elevation 0.1 m, heart rate and cadence 0.1 per minute.
public enum CompactTrackCodec {
    /// The version written by `encode`.
    public static let version: UInt8 = 1
    /// Quantum of time in seconds.
    public static let timeQuantum: Seconds = 0.001
    /// Quantum of latitude and longitude in degrees.
    public static let positionQuantum: Double = 1e-7
    /// Quantum of elevation in metres.
    public static let elevationQuantum: Meters = 0.1
    /// Quantum of heart rate (bpm) and cadence (steps/min).
    public static let rateQuantum: Double = 0.1

    static let elevationBit: UInt8 = 1, heartRateBit: UInt8 = 2, cadenceBit: UInt8 = 4, presenceBit: UInt8 = 8
    static let readingsBit: UInt8 = 16
    /// Quantum of a device distance reading in metres (FIT's own: 1 cm).
    public static let distanceQuantum: Meters = 0.01

    /// Encodes a track. Values must be finite (programmer error otherwise) and times within
    /// ±2.9e11 years of the epoch; latitude/longitude in ±360°.
    public static func encode(_ track: Track) -> [UInt8] {
        let points = track.points
        var flags: UInt8 = 0
        var allPresent = true
        for (bit, has) in [(elevationBit, points.map { $0.elevation != nil }),
                           (heartRateBit, points.map { $0.heartRate != nil }),
                           (cadenceBit, points.map { $0.cadence != nil })] {
            if has.contains(true) { flags |= bit; if has.contains(false) { allPresent = false } }
        }
        if !allPresent { flags |= presenceBit }
        if !track.deviceDistances.isEmpty { flags |= readingsBit }

        var out: [UInt8] = [version, flags]
        out.reserveCapacity(16 + points.count * 10)
        Varint.write(UInt64(points.count), into: &out)
        var last = [Int64](repeating: 0, count: 6)   // time, lat, lon, ele, hr, cad
        func delta(_ column: Int, _ value: Double, _ quantum: Double) {
            precondition(value.isFinite, "CompactTrackCodec.encode: non-finite value \(value)")
            let q = Int64((value / quantum).rounded())
            Varint.writeSigned(q &- last[column], into: &out)
            last[column] = q
        }
        for p in points {
            delta(0, p.time, timeQuantum)
            delta(1, p.latitude, positionQuantum)
            delta(2, p.longitude, positionQuantum)
            if flags & presenceBit != 0 {
                out.append((p.elevation != nil ? elevationBit : 0) | (p.heartRate != nil ? heartRateBit : 0)
                           | (p.cadence != nil ? cadenceBit : 0))
            }
            if let e = p.elevation { delta(3, e, elevationQuantum) }
            if let h = p.heartRate { delta(4, h, rateQuantum) }
            if let c = p.cadence { delta(5, c, rateQuantum) }
        }
        if flags & readingsBit != 0 {
            Varint.write(UInt64(track.deviceDistances.count), into: &out)
            last = [Int64](repeating: 0, count: 6)   // time, distance, -, -, hr, cad
            for r in track.deviceDistances {
                delta(0, r.time, timeQuantum)
                delta(1, r.distance, distanceQuantum)
                out.append((r.heartRate != nil ? heartRateBit : 0) | (r.cadence != nil ? cadenceBit : 0))
                if let h = r.heartRate { delta(4, h, rateQuantum) }
                if let c = r.cadence { delta(5, c, rateQuantum) }
            }
        }
        return out
    }

    /// Decodes a blob written by `encode`. Throws `TrackFormatError` naming the byte offset for
    /// truncated, corrupt or trailing input, an unknown version or flag, or a latitude outside
    /// [-90, 90].
    public static func decode(_ bytes: [UInt8]) throws -> Track {
        var reader = ByteReader(bytes: bytes)
        let v = try reader.byte("version byte")
        guard v == version else { throw TrackFormatError.unsupportedVersion(offset: 0, version: v, supported: [version]) }
        let flags = try reader.byte("flags byte")
        guard flags & ~0x1F == 0 else {
            throw TrackFormatError.corrupt(offset: 1, message: "unknown flag bits in 0x\(String(flags, radix: 16))")
        }
        let countOffset = reader.offset
        let count = try reader.varint("point count")
        // Each point takes at least 3 bytes: refuse counts the input cannot hold before allocating.
        guard count <= UInt64(bytes.count - reader.offset) / 3 else {
            throw TrackFormatError.corrupt(offset: countOffset,
                message: "point count \(count) needs at least 3 bytes per point, \(bytes.count - reader.offset) remain")
        }
        var points: [TrackPoint] = []
        points.reserveCapacity(Int(count))
        var last = [Int64](repeating: 0, count: 6)
        func next(_ column: Int, _ what: String) throws -> Int64 {
            let at = reader.offset
            let d = try reader.signedVarint(what)
            let (sum, overflow) = last[column].addingReportingOverflow(d)
            if overflow { throw TrackFormatError.corrupt(offset: at, message: "\(what) overflows 64 bits") }
            last[column] = sum
            return sum
        }
        for i in 0..<Int(count) {
            let time = Double(try next(0, "time delta of point \(i)")) * timeQuantum
            let latOffset = reader.offset
            let lat = Double(try next(1, "latitude delta of point \(i)")) * positionQuantum
            guard abs(lat) <= 90 else {
                throw TrackFormatError.corrupt(offset: latOffset, message: "point \(i) latitude \(lat) is outside [-90, 90]")
            }
            let lon = Double(try next(2, "longitude delta of point \(i)")) * positionQuantum
            var present = flags & 0x07
            if flags & presenceBit != 0 {
                let at = reader.offset
                present = try reader.byte("presence byte of point \(i)")
                guard present & ~flags & 0x07 == 0 && present & ~0x07 == 0 else {
                    throw TrackFormatError.corrupt(offset: at,
                        message: "point \(i) presence 0x\(String(present, radix: 16)) names a column the header lacks")
                }
            }
            var p = TrackPoint(time: time, latitude: lat, longitude: lon)
            if present & elevationBit != 0 { p.elevation = Double(try next(3, "elevation delta of point \(i)")) * elevationQuantum }
            if present & heartRateBit != 0 { p.heartRate = Double(try next(4, "heart-rate delta of point \(i)")) * rateQuantum }
            if present & cadenceBit != 0 { p.cadence = Double(try next(5, "cadence delta of point \(i)")) * rateQuantum }
            points.append(p)
        }
        var readings: [DistanceSample] = []
        if flags & readingsBit != 0 {
            let countOffset = reader.offset
            let count = try reader.varint("reading count")
            // Each reading takes at least 3 bytes (time, distance, presence).
            guard count <= UInt64(bytes.count - reader.offset) / 3 else {
                throw TrackFormatError.corrupt(offset: countOffset,
                    message: "reading count \(count) needs at least 3 bytes per reading, \(bytes.count - reader.offset) remain")
            }
            readings.reserveCapacity(Int(count))
            last = [Int64](repeating: 0, count: 6)
            for i in 0..<Int(count) {
                let time = Double(try next(0, "time delta of reading \(i)")) * timeQuantum
                let distance = Double(try next(1, "distance delta of reading \(i)")) * distanceQuantum
                let at = reader.offset
                let present = try reader.byte("presence byte of reading \(i)")
                guard present & ~(heartRateBit | cadenceBit) == 0 else {
                    throw TrackFormatError.corrupt(offset: at, message: "reading \(i) presence 0x\(String(present, radix: 16)) has unknown bits")
                }
                var r = DistanceSample(time: time, distance: distance)
                if present & heartRateBit != 0 { r.heartRate = Double(try next(4, "heart-rate delta of reading \(i)")) * rateQuantum }
                if present & cadenceBit != 0 { r.cadence = Double(try next(5, "cadence delta of reading \(i)")) * rateQuantum }
                readings.append(r)
            }
        }
        guard reader.offset == bytes.count else {
            throw TrackFormatError.corrupt(offset: reader.offset,
                message: "\(bytes.count - reader.offset) trailing bytes after \(count) points")
        }
        return Track(points: points, deviceDistances: readings)
    }
}
