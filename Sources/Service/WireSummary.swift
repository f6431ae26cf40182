import RunusCore
import Tracking
import Server

/// The `summary` of `runs.ingest` on the wire (record 0232): an object with `start_time` (Unix
/// seconds), `distance_m`, `duration_s`, and optionally `moving_s`, `kcal` and `avg_hr`. Here
/// each must be a number (or, for the optional ones, null or left out) and no other key may
/// appear; the engine's `PlausibilityRules.check(summary:)` bounds them. Errors name
/// `summary.<key>` in `error.field`.
enum WireSummary {
    static let required = ["start_time", "distance_m", "duration_s"]
    static let optional = ["moving_s", "kcal", "avg_hr"]

    static func summary(from value: JSONValue, op: String) throws -> RunSummary {
        guard case .object(let fields) = value else {
            throw RequestError.badRequest("\(op): parameter 'summary' is \(value.typeName), expected an object {start_time, distance_m, duration_s, …}", field: "summary")
        }
        if let unknown = fields.keys.sorted().first(where: { !required.contains($0) && !optional.contains($0) }) {
            throw RequestError.badRequest("\(op): summary has an unknown key '\(unknown.prefix(40))'; expected \((required + optional).joined(separator: ", "))", field: "summary.\(unknown.prefix(40))")
        }
        func number(_ key: String) throws -> Double? {
            guard let v = fields[key], !v.isNull else { return nil }
            guard let x = v.doubleValue, x.isFinite else {
                throw RequestError.badRequest("\(op): summary.\(key) is \(JSONWriter.string(v).prefix(40)), expected a number", field: "summary.\(key)")
            }
            return x
        }
        func needed(_ key: String) throws -> Double {
            guard let x = try number(key) else {
                throw RequestError.badRequest("\(op): summary.\(key) is missing, expected a number", field: "summary.\(key)")
            }
            return x
        }
        return RunSummary(startTime: try needed("start_time"), distance: try needed("distance_m"), duration: try needed("duration_s"),
                          moving: try number("moving_s"), calories: try number("kcal"), averageHeartRate: try number("avg_hr"))
    }
}
