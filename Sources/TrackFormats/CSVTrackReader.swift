import RunusCore
import Tracking

/// Reads CSV tracks with a header naming the columns `t,lat,lon,ele,hr,cad` (any order; other
/// columns ignored; `time`, `latitude`, `longitude`, `elevation` accepted as synonyms) (record
/// 0113). `t` is Unix seconds or an ISO 8601 instant. Rows with empty `lat`/`lon` count as
/// records without a fix; other empty cells are absent values. Quoted cells are not used by
/// track exports and are rejected.
public enum CSVTrackReader {
    public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> Activity {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(ReadFailure) in try parse(buffer) }
        } catch {
            throw error.named(name, bytes: bytes, text: true)
        }
    }

    private enum Column { case time, latitude, longitude, elevation, heartRate, cadence, other }

    static func parse(_ b: UnsafeBufferPointer<UInt8>) throws(ReadFailure) -> Activity {
        var i = 0
        let n = b.count
        if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        // Header.
        var columns: [Column] = []
        var cellStart = i
        while i <= n {
            if i == n || b[i] == UInt8(ascii: ",") || b[i] == 10 || b[i] == 13 {
                var name = String(decoding: UnsafeBufferPointer(rebasing: b[cellStart..<i]), as: UTF8.self).lowercased()
                name = name.trimmingSpaces()
                switch name {
                case "t", "time", "timestamp": columns.append(.time)
                case "lat", "latitude": columns.append(.latitude)
                case "lon", "lng", "longitude": columns.append(.longitude)
                case "ele", "elevation", "alt", "altitude": columns.append(.elevation)
                case "hr", "heart_rate": columns.append(.heartRate)
                case "cad", "cadence": columns.append(.cadence)
                default: columns.append(.other)
                }
                if i == n || b[i] != UInt8(ascii: ",") { break }
                cellStart = i + 1
            }
            i += 1
        }
        guard columns.contains(.time), columns.contains(.latitude), columns.contains(.longitude) else {
            throw ReadFailure(.unsupported, at: 0, "CSV header must name the columns t, lat and lon")
        }
        var points: [TrackPoint] = []
        var records = 0
        while i < n {
            while i < n, b[i] == 10 || b[i] == 13 { i += 1 }
            guard i < n else { break }
            var point = TrackPoint(time: .nan, latitude: .nan, longitude: .nan)
            var column = 0
            var start = i
            while true {
                let atEnd = i == n || b[i] == 10 || b[i] == 13
                if atEnd || b[i] == UInt8(ascii: ",") {
                    if column < columns.count, i > start {
                        let kind = columns[column]
                        if kind == .time {
                            guard let t = ByteNumbers.double(b, start, i) ?? ByteNumbers.isoInstant(b, start, i) else {
                                throw ReadFailure(.malformed, at: start, "column t holds \"\(text(b, start, i))\", expected Unix seconds or an ISO 8601 instant")
                            }
                            point.time = t
                        } else if kind != .other {
                            guard let v = ByteNumbers.double(b, start, i), v.isFinite else {
                                throw ReadFailure(.malformed, at: start, "\"\(text(b, start, i))\" is not a number")
                            }
                            switch kind {
                            case .latitude:
                                guard (-90...90).contains(v) else { throw ReadFailure(.malformed, at: start, "latitude \(v) is outside [-90, 90]") }
                                point.latitude = v
                            case .longitude: point.longitude = v
                            case .elevation: point.elevation = v
                            case .heartRate: point.heartRate = v
                            case .cadence: point.cadence = v
                            case .time, .other: break
                            }
                        }
                    }
                    column += 1
                    start = i + 1
                    if atEnd { break }
                } else if b[i] == UInt8(ascii: "\"") {
                    throw ReadFailure(.malformed, at: i, "quoted CSV cells are not supported in track files")
                }
                i += 1
            }
            records += 1
            if !point.latitude.isNaN && !point.longitude.isNaN { points.append(point) }
        }
        return Activity(track: Track(points: points), segmentStarts: points.isEmpty ? [] : [0], recordCount: records)
    }

    private static func text(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[s..<min(e, s + 40)]), as: UTF8.self)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and double quotes.
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\"" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\"" { s.removeLast() }
        return String(s)
    }
}
