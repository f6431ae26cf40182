import RunusCore

/// The kinds of mission this version understands; raw values are the wire `kind` strings.
public enum MissionKind: String, CaseIterable, Sendable {
    case distance, duration, pace
    case negativeSplit = "negative_split"
    case distanceInTime = "distance_in_time"
}

/// A mission: a kind with typed parameters. JSON form, e.g.
/// `{"kind":"pace","max_pace_s_per_km":330,"min_distance_m":5000}` (parameter ranges: record 0200).
public enum MissionSpec: Sendable, Hashable {
    /// Run at least `minDistance` metres. `{"kind":"distance","distance_m":5000}`
    case distance(minDistance: Meters)
    /// Move for at least `minDuration` seconds. `{"kind":"duration","duration_s":1800}`
    case duration(minDuration: Seconds)
    /// Cover `minDistance` metres at `maxPace` s/km or faster.
    /// `{"kind":"pace","max_pace_s_per_km":330,"min_distance_m":5000}`
    case pace(maxPace: SecondsPerKm, minDistance: Meters)
    /// Run at least `minDistance` metres with the second half (by distance) faster, in moving time.
    /// `{"kind":"negative_split","min_distance_m":5000}`
    case negativeSplit(minDistance: Meters)
    /// Cover `distance` metres within `maxDuration` seconds somewhere in the run.
    /// `{"kind":"distance_in_time","distance_m":5000,"max_duration_s":1650}`
    case distanceInTime(distance: Meters, maxDuration: Seconds)

    public var kind: MissionKind {
        switch self {
        case .distance: return .distance
        case .duration: return .duration
        case .pace: return .pace
        case .negativeSplit: return .negativeSplit
        case .distanceInTime: return .distanceInTime
        }
    }

    /// The spec as a JSON object with snake_case keys and units in the names.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue)]
        switch self {
        case .distance(let d): members["distance_m"] = .number(d)
        case .duration(let s): members["duration_s"] = .number(s)
        case .pace(let p, let d): members["max_pace_s_per_km"] = .number(p); members["min_distance_m"] = .number(d)
        case .negativeSplit(let d): members["min_distance_m"] = .number(d)
        case .distanceInTime(let d, let s): members["distance_m"] = .number(d); members["max_duration_s"] = .number(s)
        }
        return .object(members)
    }

    /// `json` written with sorted keys and no white space: equal specs give equal strings.
    public var canonicalJSON: String { JSONWriter.string(json) }
}
