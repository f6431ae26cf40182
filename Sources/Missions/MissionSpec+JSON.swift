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
            return "mission spec: unknown kind \"\(kind)\", expected one of \(known.joined(separator: ", "))"
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

extension MissionSpec {
    /// Allowed parameter ranges (record 0200).
    public enum Limits {
        /// Distance parameters, metres.
        public static let distance: ClosedRange<Double> = 100...100_000
        /// Duration parameters, seconds (1 minute to 10 hours).
        public static let duration: ClosedRange<Double> = 60...36_000
        /// Pace parameters, s/km (2:00/km to 20:00/km).
        public static let pace: ClosedRange<Double> = 120...1200
    }

    /// Parses a spec object. Unknown kinds, missing, mistyped, out-of-range and unexpected
    /// parameters are refused with a `MissionSpecError` naming the parameter.
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
        func number(_ name: String) throws -> Double {
            guard let value = members[name] else { throw MissionSpecError.missingParameter(kind: kindName, parameter: name) }
            guard let n = value.doubleValue else {
                throw MissionSpecError.wrongType(parameter: name, expected: "number", got: value.typeName)
            }
            let range = parameters.first { $0.name == name }!.range
            guard range.contains(n) else { throw MissionSpecError.outOfRange(parameter: name, value: n, allowed: range) }
            return n
        }
        switch kind {
        case .distance: self = .distance(minDistance: try number("distance_m"))
        case .duration: self = .duration(minDuration: try number("duration_s"))
        case .pace: self = .pace(maxPace: try number("max_pace_s_per_km"), minDistance: try number("min_distance_m"))
        case .negativeSplit: self = .negativeSplit(minDistance: try number("min_distance_m"))
        case .distanceInTime:
            self = .distanceInTime(distance: try number("distance_m"), maxDuration: try number("max_duration_s"))
        }
    }

    /// Parameter names and ranges of each kind, in wire order.
    static func parameters(of kind: MissionKind) -> [(name: String, range: ClosedRange<Double>)] {
        switch kind {
        case .distance: return [("distance_m", Limits.distance)]
        case .duration: return [("duration_s", Limits.duration)]
        case .pace: return [("max_pace_s_per_km", Limits.pace), ("min_distance_m", Limits.distance)]
        case .negativeSplit: return [("min_distance_m", Limits.distance)]
        case .distanceInTime: return [("distance_m", Limits.distance), ("max_duration_s", Limits.duration)]
        }
    }
}
