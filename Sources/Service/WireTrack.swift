import RunusCore
import Tracking
import Server

/// The track of `runs.ingest` on the wire: `points` is an array of
/// `[t, lat, lon]` or `[t, lat, lon, ele, hr, cad]` (trailing values may be omitted or null),
/// with t in Unix seconds, latitude and longitude in degrees, elevation in metres, heart rate in
/// bpm and cadence in steps/min.
enum WireTrack {
    /// Most points one request may carry (a 24-hour run at 1 Hz).
    static let maximumPoints = 86_400

    static func track(from value: JSONValue?, op: String) throws -> Track {
        guard let value else { throw RequestError.badRequest("\(op): parameter 'points' is missing, expected an array of [t, lat, lon, …]", field: "points") }
        guard let array = value.arrayValue else {
            throw RequestError.badRequest("\(op): parameter 'points' is \(value.typeName), expected an array of [t, lat, lon, …]", field: "points")
        }
        guard array.count <= maximumPoints else {
            throw RequestError.badRequest("\(op): 'points' has \(array.count) points, at most \(maximumPoints) are accepted", field: "points")
        }
        var points: [TrackPoint] = []
        points.reserveCapacity(array.count)
        for (i, element) in array.enumerated() {
            guard let fields = element.arrayValue, (3...6).contains(fields.count) else {
                throw RequestError.badRequest("\(op): points[\(i)] is \(JSONWriter.string(element).prefix(60)), expected [t, lat, lon] with up to 3 more numbers", field: "points", index: i)
            }
            func number(_ k: Int, _ name: String, _ range: ClosedRange<Double>) throws -> Double? {
                guard k < fields.count, !fields[k].isNull else { return nil }
                guard let x = fields[k].doubleValue, range.contains(x) else {
                    throw RequestError.badRequest("\(op): points[\(i)][\(k)] (\(name)) is \(JSONWriter.string(fields[k]).prefix(30)), expected a number in [\(range.lowerBound), \(range.upperBound)]", field: "points", index: i)
                }
                return x
            }
            guard let t = try number(0, "t", 0...1e11), let lat = try number(1, "lat", -90...90),
                  let lon = try number(2, "lon", -180...180) else {
                throw RequestError.badRequest("\(op): points[\(i)] needs t, lat and lon", field: "points", index: i)
            }
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon,
                                     elevation: try number(3, "ele", -500...9000),
                                     heartRate: try number(4, "hr", 20...260),
                                     cadence: try number(5, "cad", 0...300)))
        }
        return Track(points: points)
    }

    /// `track` in the same wire form, `[t, lat, lon]` plus the readings it has (trailing absent
    /// ones left out, inner ones null): what `users.export` answers.
    static func json(_ track: Track) -> JSONValue {
        .array(track.points.map { p in
            var fields: [JSONValue] = [.number(p.time), .number(p.latitude), .number(p.longitude)]
            let readings = [p.elevation, p.heartRate, p.cadence]
            if let last = readings.lastIndex(where: { $0 != nil }) {
                fields += readings[...last].map { $0.map { .number($0) } ?? .null }
            }
            return .array(fields)
        })
    }
}
