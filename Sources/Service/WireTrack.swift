import RunusCore
import Tracking
import Server

/// The track of `runs.ingest` on the wire: `points` is an array of
/// `[t, lat, lon]` or `[t, lat, lon, ele, hr, cad, device_distance_m]` (trailing values may be
/// omitted or null), with t in Unix seconds, latitude and longitude in degrees, elevation in
/// metres, heart rate in bpm, cadence in steps/min and the device's own cumulative distance in
/// metres (record 0116). `lat` and `lon` may both be null in a point that has a device
/// distance: a reading without a position (a treadmill run is nothing else).
enum WireTrack {
    /// Most points one request may carry (a 24-hour run at 1 Hz).
    static let maximumPoints = 86_400

    /// The track of `points`; `allowReadings` false (race positions, which measure fixes only)
    /// accepts no seventh value, so no point without a position.
    static func track(from value: JSONValue?, op: String, allowReadings: Bool = true) throws -> Track {
        try recording(from: value, op: op, allowReadings: allowReadings).track
    }

    /// The fixes and the device's readings of `points`, and the time of every point in the
    /// order sent (for the engine's order, gap and clock checks, whose refusals index `points`).
    /// A device distance below an earlier one by more than `DeviceDistance.decreaseTolerance`
    /// is refused here, naming the point.
    static func recording(from value: JSONValue?, op: String, allowReadings: Bool = true) throws -> (track: Track, recordTimes: [EpochSeconds]) {
        guard let value else { throw RequestError.badRequest("\(op): parameter 'points' is missing, expected an array of [t, lat, lon, …] (or a 'summary')", field: "points") }
        guard let array = value.arrayValue else {
            throw RequestError.badRequest("\(op): parameter 'points' is \(value.typeName), expected an array of [t, lat, lon, …]", field: "points")
        }
        guard array.count <= maximumPoints else {
            throw RequestError.badRequest("\(op): 'points' has \(array.count) points, at most \(maximumPoints) are accepted", field: "points")
        }
        var points: [TrackPoint] = [], readings: [DistanceSample] = [], readingPoint: [Int] = [], times: [EpochSeconds] = []
        points.reserveCapacity(array.count)
        times.reserveCapacity(array.count)
        for (i, element) in array.enumerated() {
            guard let fields = element.arrayValue, (3...(allowReadings ? 7 : 6)).contains(fields.count) else {
                throw RequestError.badRequest("\(op): points[\(i)] is \(JSONWriter.string(element).prefix(60)), expected [t, lat, lon] with up to \(allowReadings ? 4 : 3) more numbers", field: "points", index: i)
            }
            func number(_ k: Int, _ name: String, _ range: ClosedRange<Double>) throws -> Double? {
                guard k < fields.count, !fields[k].isNull else { return nil }
                guard let x = fields[k].doubleValue, range.contains(x) else {
                    throw RequestError.badRequest("\(op): points[\(i)][\(k)] (\(name)) is \(JSONWriter.string(fields[k]).prefix(30)), expected a number in [\(range.lowerBound), \(range.upperBound)]", field: "points", index: i)
                }
                return x
            }
            let t = try number(0, "t", 0...1e11), lat = try number(1, "lat", -90...90), lon = try number(2, "lon", -180...180)
            let distance = try number(6, "device_distance_m", 0...RunRecord.maximumStoredDistance)
            guard let t, (lat == nil) == (lon == nil), lat != nil || distance != nil else {
                throw RequestError.badRequest("\(op): points[\(i)] needs t, and lat and lon (both may be null only with a device_distance_m)", field: "points", index: i)
            }
            let ele = try number(3, "ele", -500...9000), hr = try number(4, "hr", 20...260), cad = try number(5, "cad", 0...300)
            times.append(t)
            if let lat, let lon {
                points.append(TrackPoint(time: t, latitude: lat, longitude: lon, elevation: ele, heartRate: hr, cadence: cad))
            }
            if let distance {
                readings.append(DistanceSample(time: t, distance: distance, heartRate: hr, cadence: cad))
                readingPoint.append(i)
            }
        }
        do { _ = try DeviceDistance.usable(readings) } catch {
            let index = error.index.map { readingPoint[$0] }
            throw RequestError.badRequest("\(op): points[\(index ?? 0)]: \(error)", field: "points", index: index)
        }
        return (Track(points: points, deviceDistances: readings), times)
    }

    /// `track` in the same wire form, `[t, lat, lon]` plus the readings it has (trailing absent
    /// ones left out, inner ones null): what `users.export` answers. A device reading at a fix's
    /// time is that point's seventh value; one without a fix is `[t, null, null, null, hr, cad,
    /// device_distance_m]`. Both lists are in recording order; they are merged by time.
    static func json(_ track: Track) -> JSONValue {
        var out: [JSONValue] = []
        out.reserveCapacity(track.points.count + track.deviceDistances.count)
        forEachEntry(of: track) { out.append($0) }
        return .array(out)
    }

    /// `JSONWriter.write(json(track), into: &out)` without the whole tree: one entry at a
    /// time, so a day-long track costs its bytes, not a JSON tree several times their size
    /// (`users.export`, record 0555).
    static func write(_ track: Track, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        var first = true
        forEachEntry(of: track) { entry in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.write(entry, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// The entries of `json(track)` in order.
    private static func forEachEntry(of track: Track, _ body: (JSONValue) -> Void) {
        func entry(_ time: Double, _ position: [JSONValue], _ readings: [Double?]) -> JSONValue {
            var fields: [JSONValue] = [.number(time)] + position
            if let last = readings.lastIndex(where: { $0 != nil }) {
                fields += readings[...last].map { $0.map { .number($0) } ?? .null }
            }
            return .array(fields)
        }
        let points = track.points, readings = track.deviceDistances
        var i = 0, j = 0
        while i < points.count || j < readings.count {
            // Each branch takes one entry, so this ends whatever the times (NaN included).
            if i < points.count, j >= readings.count || points[i].time < readings[j].time {
                let p = points[i]
                body(entry(p.time, [.number(p.latitude), .number(p.longitude)], [p.elevation, p.heartRate, p.cadence]))
                i += 1
            } else if i < points.count, points[i].time == readings[j].time {
                let p = points[i]
                body(entry(p.time, [.number(p.latitude), .number(p.longitude)],
                           [p.elevation, p.heartRate, p.cadence, readings[j].distance]))
                i += 1; j += 1
            } else {
                let r = readings[j]
                body(entry(r.time, [.null, .null], [nil, r.heartRate, r.cadence, r.distance]))
                j += 1
            }
        }
    }
}
