import RunusCore

/// The kinds of mission this version understands; raw values are the wire `kind` strings.
public enum MissionKind: String, CaseIterable, Sendable {
    case distance, duration, pace
    case negativeSplit = "negative_split"
    case distanceInTime = "distance_in_time"
    case evenPace = "even_pace"
    case progression, intervals, fartlek, hills
    case longRun = "long_run"
    case earlyBird = "early_bird"
    case nightOwl = "night_owl"
    case explorer, loop, streak
    case weeklyVolume = "weekly_volume"
    case personalBest = "personal_best"
    case recovery
    case raceFinish = "race_finish"
    case podium

    /// Whether a check needs more than the run itself (`MissionContext`): earlier runs, the
    /// covered grid, the runner's UTC offset or a race result.
    public var needsContext: Bool {
        switch self {
        case .longRun, .earlyBird, .nightOwl, .explorer, .streak, .weeklyVolume, .personalBest,
             .raceFinish, .podium:
            return true
        default:
            return false
        }
    }
}

/// A mission: a kind with typed parameters. JSON form, e.g.
/// `{"kind":"pace","max_pace_s_per_km":330,"min_distance_m":5000}` (parameter ranges: records
/// 0200 and 0210; the check's rules and tolerances: 0201 and 0211).
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
    /// Run at least `minDistance` metres with the full km splits' paces within `maxSpread` s/km
    /// of each other (slowest − fastest). `{"kind":"even_pace","min_distance_m":5000,"max_spread_s_per_km":10}`
    case evenPace(minDistance: Meters, maxSpread: SecondsPerKm)
    /// `kilometres` (2…50) consecutive full km splits, each faster than the one before.
    /// `{"kind":"progression","kilometres":4}`
    case progression(kilometres: Int)
    /// `reps` (1…40) stretches of `repDistance` metres at `maxPace` s/km or faster, each rest
    /// between two of them at most `maxRecovery` seconds.
    /// `{"kind":"intervals","reps":5,"rep_distance_m":400,"max_pace_s_per_km":270,"max_recovery_s":120}`
    case intervals(reps: Int, repDistance: Meters, maxPace: SecondsPerKm, maxRecovery: Seconds)
    /// `surges` (1…40) surges of at least `minSurge` seconds well above the run's average speed
    /// (record 0212). `{"kind":"fartlek","surges":6,"min_surge_s":30}`
    case fartlek(surges: Int, minSurge: Seconds)
    /// Climb at least `minAscent` metres. `{"kind":"hills","min_ascent_m":100}`
    case hills(minAscent: Meters)
    /// Run at least `multiple` (1…3) times the longest run of the previous 28 days.
    /// `{"kind":"long_run","multiple":1.1}`
    case longRun(multiple: Double)
    /// Start a run of at least `minDistance` metres before `beforeMinute` minutes after local
    /// midnight (from 03:00 on, record 0213). `{"kind":"early_bird","start_before_min":420,"min_distance_m":3000}`
    case earlyBird(beforeMinute: Int, minDistance: Meters)
    /// Start a run of at least `minDistance` metres at or after `afterMinute` minutes after local
    /// midnight (until 03:00). `{"kind":"night_owl","start_after_min":1260,"min_distance_m":3000}`
    case nightOwl(afterMinute: Int, minDistance: Meters)
    /// Run at least `minDistance` metres with at least `minNewFraction` (0.05…1) of it on grid
    /// cells never covered before (record 0214). `{"kind":"explorer","min_new_fraction":0.3,"min_distance_m":3000}`
    case explorer(minNewFraction: Double, minDistance: Meters)
    /// Run at least `minDistance` metres and finish within `maxGap` metres of the start.
    /// `{"kind":"loop","max_gap_m":100,"min_distance_m":3000}`
    case loop(maxGap: Meters, minDistance: Meters)
    /// Run on `days` (2…60) consecutive local calendar days, ending with this run's day.
    /// `{"kind":"streak","days":3}`
    case streak(days: Int)
    /// Run at least `distance` metres in this run's calendar week (Monday to Sunday, local).
    /// `{"kind":"weekly_volume","distance_m":20000}`
    case weeklyVolume(distance: Meters)
    /// Cover `distance` metres faster than ever before (best effort anywhere in a run).
    /// `{"kind":"personal_best","distance_m":5000}`
    case personalBest(distance: Meters)
    /// Move at least `minDuration` seconds at `minPace` s/km or slower, with the average heart
    /// rate at most `maxHeartRate` bpm when given.
    /// `{"kind":"recovery","min_pace_s_per_km":390,"min_duration_s":1800,"max_hr_bpm":140}`
    case recovery(minPace: SecondsPerKm, minDuration: Seconds, maxHeartRate: Double?)
    /// Finish a multi-mode race of at least `minDistance` metres.
    /// `{"kind":"race_finish","min_distance_m":5000}`
    case raceFinish(minDistance: Meters)
    /// Finish a multi-mode race in place `maxPlace` (1…10) or better.
    /// `{"kind":"podium","max_place":3}`
    case podium(maxPlace: Int)

    public var kind: MissionKind {
        switch self {
        case .distance: return .distance
        case .duration: return .duration
        case .pace: return .pace
        case .negativeSplit: return .negativeSplit
        case .distanceInTime: return .distanceInTime
        case .evenPace: return .evenPace
        case .progression: return .progression
        case .intervals: return .intervals
        case .fartlek: return .fartlek
        case .hills: return .hills
        case .longRun: return .longRun
        case .earlyBird: return .earlyBird
        case .nightOwl: return .nightOwl
        case .explorer: return .explorer
        case .loop: return .loop
        case .streak: return .streak
        case .weeklyVolume: return .weeklyVolume
        case .personalBest: return .personalBest
        case .recovery: return .recovery
        case .raceFinish: return .raceFinish
        case .podium: return .podium
        }
    }

    /// The parameters as (wire name, value) pairs, in `MissionSpec.parameters(of:)` order;
    /// an absent optional parameter is left out.
    public var parameterValues: [(String, Double)] {
        switch self {
        case .distance(let d): return [("distance_m", d)]
        case .duration(let s): return [("duration_s", s)]
        case .pace(let p, let d): return [("max_pace_s_per_km", p), ("min_distance_m", d)]
        case .negativeSplit(let d): return [("min_distance_m", d)]
        case .distanceInTime(let d, let s): return [("distance_m", d), ("max_duration_s", s)]
        case .evenPace(let d, let x): return [("min_distance_m", d), ("max_spread_s_per_km", x)]
        case .progression(let n): return [("kilometres", Double(n))]
        case .intervals(let n, let r, let p, let s):
            return [("reps", Double(n)), ("rep_distance_m", r), ("max_pace_s_per_km", p), ("max_recovery_s", s)]
        case .fartlek(let n, let t): return [("surges", Double(n)), ("min_surge_s", t)]
        case .hills(let g): return [("min_ascent_m", g)]
        case .longRun(let m): return [("multiple", m)]
        case .earlyBird(let m, let d): return [("start_before_min", Double(m)), ("min_distance_m", d)]
        case .nightOwl(let m, let d): return [("start_after_min", Double(m)), ("min_distance_m", d)]
        case .explorer(let f, let d): return [("min_new_fraction", f), ("min_distance_m", d)]
        case .loop(let r, let d): return [("max_gap_m", r), ("min_distance_m", d)]
        case .streak(let n): return [("days", Double(n))]
        case .weeklyVolume(let d): return [("distance_m", d)]
        case .personalBest(let d): return [("distance_m", d)]
        case .recovery(let p, let s, let hr):
            return [("min_pace_s_per_km", p), ("min_duration_s", s)] + (hr.map { [("max_hr_bpm", $0)] } ?? [])
        case .raceFinish(let d): return [("min_distance_m", d)]
        case .podium(let n): return [("max_place", Double(n))]
        }
    }

    /// The spec as a JSON object with snake_case keys and units in the names.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue)]
        for (name, value) in parameterValues { members[name] = .number(value) }
        return .object(members)
    }

    /// `json` written with sorted keys and no white space: equal specs give equal strings.
    public var canonicalJSON: String { JSONWriter.string(json) }

    /// True when every parameter is in the catalog's range (`MissionSpec(json:)` would read the
    /// spec back as it is): a spec built in code, not parsed, may not be.
    public var isWithinCatalog: Bool { (try? MissionSpec(json: json)) == self }
}
