import RunusCore
import Missions
import Engine
import Server

/// The daemon's parameter checks beyond `Request`'s own (string, int, double): each throws
/// `bad_request` naming the operation, the parameter, the bad value and what was expected.
extension Request {
    /// An optional local day `YYYY-MM-DD`.
    func day(_ key: String) throws -> CivilDate? {
        guard let value = optional(key) else { return nil }
        guard let text = value.stringValue, let day = CivilDate(iso: text) else {
            throw RequestError.badRequest("\(op): parameter '\(key)' is \(JSONWriter.string(value).prefix(40)), expected \"YYYY-MM-DD\"", field: key)
        }
        return day
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = optional(key) else { return nil }
        guard let b = value.boolValue else {
            throw RequestError.badRequest("\(op): parameter '\(key)' is \(value.typeName), expected true or false", field: key)
        }
        return b
    }

    /// A profile field of a merge-update: left out keeps it, `null` clears it, a value sets it.
    /// `parse` returns nil for a value of the wrong kind (then `bad_request` names it).
    func update<T: Sendable & Equatable>(_ key: String, _ parse: (JSONValue) throws -> T?) throws -> FieldUpdate<T> {
        guard let value = params[key] else { return .keep }
        if value.isNull { return .clear }
        guard let parsed = try parse(value) else {
            throw RequestError.badRequest("\(op): parameter '\(key)' is \(JSONWriter.string(value).prefix(40)), not an accepted value (send null to clear it)", field: key)
        }
        return .set(parsed)
    }

    /// The required `run_id`: the client's id for a run, 1 to `maximumRunIDBytes` bytes, unique
    /// per runner (record 0405).
    func runID() throws -> String {
        let id = try string("run_id")
        guard !id.isEmpty, id.utf8.count <= Self.maximumRunIDBytes else {
            throw RequestError.badRequest("\(op): parameter 'run_id' must be 1 to \(Self.maximumRunIDBytes) bytes, got \(id.utf8.count)", field: "run_id")
        }
        return id
    }

    static let maximumRunIDBytes = 128

    /// An optional number inside `range` (finite by construction: the parser refuses others).
    func optionalNumber(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
        guard let value = optional(key) else { return nil }
        guard let x = value.doubleValue, range.contains(x) else {
            throw RequestError.badRequest("\(op): parameter '\(key)' is \(JSONWriter.string(value).prefix(40)), expected a number in [\(range.lowerBound), \(range.upperBound)]", field: key)
        }
        return x
    }

    /// A mission spec object: parameter `field`, or its element `index` when it is a list.
    static func spec(_ value: JSONValue?, op: String, field: String, index: Int? = nil) throws -> MissionSpec {
        let name = index.map { "\(field)[\($0)]" } ?? field
        guard let value else {
            throw RequestError.badRequest("\(op): parameter '\(name)' is missing, expected a mission spec object", field: field, index: index)
        }
        do {
            return try MissionSpec(json: value)
        } catch {
            throw RequestError.badRequest("\(op): \(name): \(error)", field: field, index: index)
        }
    }
}
