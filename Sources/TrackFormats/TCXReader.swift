import RunusCore
import Tracking

/// Reads Garmin Training Center XML (TCX v2) in one pass over the bytes (record 0110).
///
/// Each `<Activity>` becomes one activity (sport from its `Sport` attribute); each `<Track>`
/// starts a segment. Trackpoints without a `<Position>` are counted in `recordCount` but carry no
/// fix. Per point: `Time`, `LatitudeDegrees`, `LongitudeDegrees`, `AltitudeMeters`,
/// `HeartRateBpm/Value`, `Cadence` or the extension `RunCadence`, and `DistanceMeters` (the
/// device's cumulative distance, with or without a position: `Track.deviceDistances`, record 0116). Laps give `laps` and the
/// device totals: summed `TotalTimeSeconds` (as timer time), `DistanceMeters`, `Calories`;
/// time-weighted average heart rate; largest maximum heart rate.
public enum TCXReader {
    public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> [Activity] {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(ReadFailure) in try parse(buffer) }
        } catch {
            throw error.named(name, bytes: bytes, text: true)
        }
    }

    private enum Field {
        case none, time, latitude, longitude, altitude, pointHR, cadence, pointDistance
        case lapTime, lapDistance, lapCalories, lapAverageHR, lapMaximumHR, lapCadence
    }
    private enum HRContext { case none, point, lapAverage, lapMaximum }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(ReadFailure) -> [Activity] {
        var xml = XMLScanner(buffer)
        var activities: [Activity] = []
        var current: Activity? = nil
        var points: [TrackPoint] = []
        var samples: [DistanceSample] = []
        var pointDistance: Double? = nil
        var lap = DeviceTotals()
        var lapDepth = -1
        var inPoint = false, hasLatitude = false, hasLongitude = false
        var point = TrackPoint(time: .nan, latitude: 0, longitude: 0)
        var field = Field.none, hr = HRContext.none
        var sawRoot = false

        func finishActivity() {
            guard var a = current else { return }
            a.track = Track(points: points, deviceDistances: samples)
            a.deviceTotals = totals(of: a.laps)
            activities.append(a)
            current = nil
            points = []
            samples = []
        }

        while true {
            switch try xml.next() {
            case .start:
                if !sawRoot {
                    guard xml.nameIs("TrainingCenterDatabase") else {
                        throw ReadFailure(.unsupported, at: xml.eventOffset, "expected the root element <TrainingCenterDatabase>, found <\(xml.string(xml.nameStart, xml.nameEnd))>")
                    }
                    sawRoot = true
                    continue
                }
                field = .none
                if xml.nameIs("Activity") {
                    finishActivity()
                    var a = Activity()
                    if let s = xml.attribute("Sport") { a.sport = xml.string(s.start, s.end).lowercased() }
                    current = a
                } else if current == nil {
                    continue
                } else if inPoint {
                    if xml.nameIs("Time") { field = .time }
                    else if xml.nameIs("LatitudeDegrees") { field = .latitude }
                    else if xml.nameIs("LongitudeDegrees") { field = .longitude }
                    else if xml.nameIs("AltitudeMeters") { field = .altitude }
                    else if xml.nameIs("HeartRateBpm") { hr = .point }
                    else if xml.nameIs("Value") && hr == .point { field = .pointHR }
                    else if xml.nameIs("Cadence") || xml.nameIs("RunCadence") { field = .cadence }
                    else if xml.nameIs("DistanceMeters") { field = .pointDistance }
                } else if xml.nameIs("Trackpoint") {
                    inPoint = true; hasLatitude = false; hasLongitude = false; pointDistance = nil
                    point = TrackPoint(time: .nan, latitude: 0, longitude: 0)
                } else if xml.nameIs("Track") {
                    current?.segmentStarts.append(points.count)
                } else if xml.nameIs("Lap") {
                    lap = DeviceTotals()
                    if let s = xml.attribute("StartTime") { lap.startTime = ByteNumbers.isoInstant(buffer, s.start, s.end) }
                    lapDepth = xml.depth
                } else if lapDepth > 0 {
                    if xml.depth == lapDepth + 1 {
                        if xml.nameIs("TotalTimeSeconds") { field = .lapTime }
                        else if xml.nameIs("DistanceMeters") { field = .lapDistance }
                        else if xml.nameIs("Calories") { field = .lapCalories }
                        else if xml.nameIs("AverageHeartRateBpm") { hr = .lapAverage }
                        else if xml.nameIs("MaximumHeartRateBpm") { hr = .lapMaximum }
                        else if xml.nameIs("Cadence") { field = .lapCadence }
                    } else if xml.nameIs("Value") && xml.depth == lapDepth + 2 {
                        field = hr == .lapAverage ? .lapAverageHR : hr == .lapMaximum ? .lapMaximumHR : .none
                    }
                }
            case .text:
                guard field != .none else { continue }
                let s = xml.textStart, e = xml.textEnd
                if field == .time {
                    guard let t = ByteNumbers.isoInstant(buffer, s, e) else {
                        throw ReadFailure(.malformed, at: s, "<Time> holds \"\(xml.string(s, e))\", expected an ISO 8601 instant")
                    }
                    point.time = t
                    continue
                }
                guard let v = ByteNumbers.double(buffer, s, e), v.isFinite else {
                    throw ReadFailure(.malformed, at: s, "\"\(xml.string(s, e))\" is not a number")
                }
                switch field {
                case .latitude:
                    guard (-90...90).contains(v) else { throw ReadFailure(.malformed, at: s, "latitude \(v) is outside [-90, 90]") }
                    point.latitude = v; hasLatitude = true
                case .longitude: point.longitude = v; hasLongitude = true
                case .altitude: point.elevation = v
                case .pointHR: point.heartRate = v
                case .cadence: point.cadence = v
                case .pointDistance: pointDistance = v
                case .lapTime: lap.timerTime = v
                case .lapDistance: lap.distance = v
                case .lapCalories: lap.calories = v
                case .lapAverageHR: lap.averageHeartRate = v
                case .lapMaximumHR: lap.maximumHeartRate = v
                case .lapCadence: lap.averageCadence = v
                case .none, .time: break
                }
            case .end:
                field = .none
                if xml.nameIs("HeartRateBpm") || xml.nameIs("AverageHeartRateBpm") || xml.nameIs("MaximumHeartRateBpm") { hr = .none }
                if inPoint && xml.nameIs("Trackpoint") {
                    inPoint = false
                    current?.recordCount += 1
                    if hasLatitude && hasLongitude { points.append(point) }
                    if let d = pointDistance, point.time.isFinite {
                        samples.append(DistanceSample(time: point.time, distance: d, heartRate: point.heartRate, cadence: point.cadence))
                    }
                } else if xml.nameIs("Lap") && lapDepth == xml.depth + 1 {
                    current?.laps.append(lap)
                    lapDepth = -1
                } else if xml.nameIs("Activity") {
                    finishActivity()
                }
            case .eof:
                guard sawRoot else { throw ReadFailure(.truncated, at: xml.eventOffset, "no <TrainingCenterDatabase> element") }
                finishActivity()
                return activities
            }
        }
    }

    /// Sums of lap totals; average heart rate weighted by lap time.
    static func totals(of laps: [DeviceTotals]) -> DeviceTotals {
        var t = DeviceTotals()
        guard !laps.isEmpty else { return t }
        t.startTime = laps.first?.startTime
        var hrSum = 0.0, hrTime = 0.0
        for lap in laps {
            if let v = lap.timerTime { t.timerTime = (t.timerTime ?? 0) + v }
            if let v = lap.distance { t.distance = (t.distance ?? 0) + v }
            if let v = lap.calories { t.calories = (t.calories ?? 0) + v }
            if let v = lap.maximumHeartRate { t.maximumHeartRate = max(t.maximumHeartRate ?? 0, v) }
            if let v = lap.averageHeartRate, let d = lap.timerTime, d > 0 { hrSum += v * d; hrTime += d }
        }
        if hrTime > 0 { t.averageHeartRate = hrSum / hrTime }
        return t
    }
}
