import RunusCore

/// Why a mission spec was refused. Messages name the parameter, the value and what was expected.
public enum MissionSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAnObject(got: String)
    case missingKind
    case unknownKind(String, known: [String])
    case missingParameter(kind: String, parameter: String)
    case wrongType(parameter: String, expected: String, got: String)
    case outOfRange(parameter: String, value: Double, allowed: ClosedRange<Double>)
    case unexpectedParameter(kind: String, parameter: String, allowed: [String])

    public var description: String {
        switch self {
        case .notAnObject(let got):
            return "mission spec: expected a JSON object, got \(got)"
        case .missingKind:
            return "mission spec: missing \"kind\""
        case .unknownKind(let kind, let known):
            return "mission spec: unknown kind \"\(ClientText.quoted(kind))\", expected one of \(known.joined(separator: ", "))"
        case .missingParameter(let kind, let parameter):
            return "mission spec \(kind): missing parameter \"\(parameter)\""
        case .wrongType(let parameter, let expected, let got):
            return "mission spec: \"\(parameter)\" must be a \(expected), got \(got)"
        case .outOfRange(let parameter, let value, let allowed):
            return "mission spec: \"\(parameter)\" = \(value) is outside [\(allowed.lowerBound), \(allowed.upperBound)]"
        case .unexpectedParameter(let kind, let parameter, let allowed):
            return "mission spec \(kind): unexpected parameter \"\(parameter)\", allowed: \(allowed.joined(separator: ", "))"
        }
    }
}

/// One parameter of a mission kind: wire name, allowed range, unit, whether it must be a whole
/// number, whether it may be left out, and what it means. The single description both the
/// validation (`MissionSpec.init(json:)`) and the listing (`runus mission kinds`,
/// `MissionKind.catalogJSON`) read (record 0320).
public struct MissionParameter: Sendable {
    public let name: String
    /// Allowed values, inclusive, in `unit`.
    public let range: ClosedRange<Double>
    /// Unit of the value, e.g. "m", "s", "s/km", "reps", "bpm".
    public let unit: String
    public let integer: Bool
    public let optional: Bool
    public let meaning: String

    init(_ name: String, _ range: ClosedRange<Double>, _ unit: String, integer: Bool = false, optional: Bool = false,
         _ meaning: String) {
        self.name = name
        self.range = range
        self.unit = unit
        self.integer = integer
        self.optional = optional
        self.meaning = meaning
    }

    /// Wire type: "integer" for whole-number parameters, else "number".
    public var type: String { integer ? "integer" : "number" }
}

extension MissionSpec {
    /// Allowed parameter ranges (records 0200 and 0210).
    public enum Limits {
        /// Distance parameters, metres.
        public static let distance: ClosedRange<Double> = 100...100_000
        /// Duration parameters, seconds (1 minute to 10 hours).
        public static let duration: ClosedRange<Double> = 60...36_000
        /// Pace parameters, s/km (2:00/km to 20:00/km).
        public static let pace: ClosedRange<Double> = 120...1200
        /// Spread of split paces, s/km.
        public static let spread: ClosedRange<Double> = 1...120
        /// Counts of kilometres in a progression.
        public static let progressionKilometres: ClosedRange<Double> = 2...50
        /// Counts of reps or surges.
        public static let reps: ClosedRange<Double> = 1...40
        /// Interval recovery, seconds (10 s to 30 min).
        public static let recovery: ClosedRange<Double> = 10...1800
        /// Shortest surge, seconds.
        public static let surge: ClosedRange<Double> = 5...600
        /// Ascent, metres.
        public static let ascent: ClosedRange<Double> = 10...5000
        /// Long-run multiple of the recent longest run.
        public static let multiple: ClosedRange<Double> = 1...3
        /// Minutes after local midnight.
        public static let minuteOfDay: ClosedRange<Double> = 0...1439
        /// Fraction of the distance on new ground.
        public static let newFraction: ClosedRange<Double> = 0.05...1
        /// Loop closure gap, metres.
        public static let gap: ClosedRange<Double> = 10...1000
        /// Streak length, days.
        public static let streakDays: ClosedRange<Double> = 2...60
        /// Weekly volume, metres (1 km to 500 km).
        public static let weeklyDistance: ClosedRange<Double> = 1000...500_000
        /// Heart-rate cap, bpm.
        public static let heartRate: ClosedRange<Double> = 60...220
        /// Race place.
        public static let place: ClosedRange<Double> = 1...10
    }

    /// Parses a spec object. Unknown kinds, missing, mistyped, out-of-range, fractional counts
    /// and unexpected parameters are refused with a `MissionSpecError` naming the parameter.
    public init(json: JSONValue) throws {
        guard let members = json.objectValue else { throw MissionSpecError.notAnObject(got: json.typeName) }
        guard let kindValue = members["kind"] else { throw MissionSpecError.missingKind }
        guard let kindName = kindValue.stringValue else {
            throw MissionSpecError.wrongType(parameter: "kind", expected: "string", got: kindValue.typeName)
        }
        guard let kind = MissionKind(rawValue: kindName) else {
            throw MissionSpecError.unknownKind(kindName, known: MissionKind.allCases.map(\.rawValue))
        }
        let parameters = Self.parameters(of: kind)
        for key in members.keys.sorted() where key != "kind" && !parameters.contains(where: { $0.name == key }) {
            throw MissionSpecError.unexpectedParameter(kind: kindName, parameter: key, allowed: parameters.map(\.name))
        }
        func optionalNumber(_ name: String) throws -> Double? {
            let parameter = parameters.first { $0.name == name }!
            guard let value = members[name] else {
                if parameter.optional { return nil }
                throw MissionSpecError.missingParameter(kind: kindName, parameter: name)
            }
            guard let n = value.doubleValue else {
                throw MissionSpecError.wrongType(parameter: name, expected: parameter.integer ? "whole number" : "number",
                                                 got: value.typeName)
            }
            if parameter.integer && n.rounded() != n {
                throw MissionSpecError.wrongType(parameter: name, expected: "whole number", got: "\(n)")
            }
            guard parameter.range.contains(n) else {
                throw MissionSpecError.outOfRange(parameter: name, value: n, allowed: parameter.range)
            }
            return n
        }
        func number(_ name: String) throws -> Double { try optionalNumber(name)! }
        func count(_ name: String) throws -> Int { Int(try number(name)) }
        switch kind {
        case .distance: self = .distance(minDistance: try number("distance_m"))
        case .duration: self = .duration(minDuration: try number("duration_s"))
        case .pace: self = .pace(maxPace: try number("max_pace_s_per_km"), minDistance: try number("min_distance_m"))
        case .negativeSplit: self = .negativeSplit(minDistance: try number("min_distance_m"))
        case .distanceInTime:
            self = .distanceInTime(distance: try number("distance_m"), maxDuration: try number("max_duration_s"))
        case .evenPace:
            self = .evenPace(minDistance: try number("min_distance_m"), maxSpread: try number("max_spread_s_per_km"))
        case .progression: self = .progression(kilometres: try count("kilometres"))
        case .intervals:
            self = .intervals(reps: try count("reps"), repDistance: try number("rep_distance_m"),
                              maxPace: try number("max_pace_s_per_km"), maxRecovery: try number("max_recovery_s"))
        case .fartlek: self = .fartlek(surges: try count("surges"), minSurge: try number("min_surge_s"))
        case .hills: self = .hills(minAscent: try number("min_ascent_m"))
        case .longRun: self = .longRun(multiple: try number("multiple"))
        case .earlyBird: self = .earlyBird(beforeMinute: try count("start_before_min"), minDistance: try number("min_distance_m"))
        case .nightOwl: self = .nightOwl(afterMinute: try count("start_after_min"), minDistance: try number("min_distance_m"))
        case .explorer:
            self = .explorer(minNewFraction: try number("min_new_fraction"), minDistance: try number("min_distance_m"))
        case .loop: self = .loop(maxGap: try number("max_gap_m"), minDistance: try number("min_distance_m"))
        case .streak: self = .streak(days: try count("days"))
        case .weeklyVolume: self = .weeklyVolume(distance: try number("distance_m"))
        case .personalBest: self = .personalBest(distance: try number("distance_m"))
        case .recovery:
            self = .recovery(minPace: try number("min_pace_s_per_km"), minDuration: try number("min_duration_s"),
                             maxHeartRate: try optionalNumber("max_hr_bpm"))
        case .raceFinish: self = .raceFinish(minDistance: try number("min_distance_m"))
        case .podium: self = .podium(maxPlace: try count("max_place"))
        }
    }

    /// Parameters of each kind, in wire order.
    public static func parameters(of kind: MissionKind) -> [MissionParameter] {
        typealias P = MissionParameter
        let minDistance = P("min_distance_m", Limits.distance, "m", "shortest accepted run, metres")
        switch kind {
        case .distance: return [P("distance_m", Limits.distance, "m", "distance to run, metres")]
        case .duration: return [P("duration_s", Limits.duration, "s", "moving time, seconds")]
        case .pace: return [P("max_pace_s_per_km", Limits.pace, "s/km", "slowest accepted pace, s/km"), minDistance]
        case .negativeSplit: return [minDistance]
        case .distanceInTime:
            return [P("distance_m", Limits.distance, "m", "distance to cover, metres"),
                    P("max_duration_s", Limits.duration, "s", "time limit, seconds")]
        case .evenPace:
            return [minDistance, P("max_spread_s_per_km", Limits.spread, "s/km", "slowest minus fastest full km split, s/km")]
        case .progression:
            return [P("kilometres", Limits.progressionKilometres, "km", integer: true, "consecutive km splits, each faster")]
        case .intervals:
            return [P("reps", Limits.reps, "reps", integer: true, "number of reps"),
                    P("rep_distance_m", Limits.distance, "m", "length of each rep, metres"),
                    P("max_pace_s_per_km", Limits.pace, "s/km", "slowest accepted rep pace, s/km"),
                    P("max_recovery_s", Limits.recovery, "s", "longest rest between reps, seconds")]
        case .fartlek:
            return [P("surges", Limits.reps, "surges", integer: true, "number of surges"),
                    P("min_surge_s", Limits.surge, "s", "shortest surge, seconds")]
        case .hills: return [P("min_ascent_m", Limits.ascent, "m", "total climb, metres")]
        case .longRun: return [P("multiple", Limits.multiple, "×", "multiple of the longest run of the last 28 days")]
        case .earlyBird:
            return [P("start_before_min", Limits.minuteOfDay, "min", integer: true, "latest local start, minutes after midnight"),
                    minDistance]
        case .nightOwl:
            return [P("start_after_min", Limits.minuteOfDay, "min", integer: true, "earliest local start, minutes after midnight"),
                    minDistance]
        case .explorer:
            return [P("min_new_fraction", Limits.newFraction, "fraction", "share of the distance on never-covered cells"), minDistance]
        case .loop: return [P("max_gap_m", Limits.gap, "m", "largest finish-to-start distance, metres"), minDistance]
        case .streak: return [P("days", Limits.streakDays, "days", integer: true, "consecutive local days with a run")]
        case .weeklyVolume: return [P("distance_m", Limits.weeklyDistance, "m", "distance in the calendar week, metres")]
        case .personalBest: return [P("distance_m", Limits.distance, "m", "effort distance to beat, metres")]
        case .recovery:
            return [P("min_pace_s_per_km", Limits.pace, "s/km", "fastest accepted moving pace, s/km"),
                    P("min_duration_s", Limits.duration, "s", "moving time, seconds"),
                    P("max_hr_bpm", Limits.heartRate, "bpm", optional: true, "highest accepted average heart rate, bpm")]
        case .raceFinish: return [P("min_distance_m", Limits.distance, "m", "shortest accepted race, metres")]
        case .podium: return [P("max_place", Limits.place, "place", integer: true, "worst accepted place")]
        }
    }
}
