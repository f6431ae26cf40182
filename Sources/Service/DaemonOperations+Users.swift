import RunusCore
import Engine
import Server

/// `users.upsert`, `users.get`, `users.delete` and `users.export` (docs/protocol.md): the profile
/// the backend sends (accounts are its business), and the runner's data for privacy requests.
extension DaemonOperations {
    /// Longest display name, characters.
    static let maximumDisplayName = 64

    func usersUpsert(_ request: Request) throws -> JSONValue {
        let id = try Self.userID(request)
        var update = ProfileUpdate()
        if let value = request.params["time_zone"] {
            guard let zone = value.stringValue else {
                throw RequestError.badRequest("users.upsert: parameter 'time_zone' is \(value.typeName), expected an IANA time zone (it cannot be cleared)", field: "time_zone")
            }
            guard SystemTimeZones.isKnown(zone) else {
                throw RequestError.badRequest("users.upsert: time_zone '\(zone.prefix(60))' is not an IANA time zone (e.g. \"Europe/Paris\")", field: "time_zone")
            }
            update.timeZone = (zone, resolver.offset(timeZone: zone, at: clock.now()) ?? 0)
        }
        update.birthYear = try request.update("birth_year") { value in
            try Self.number(value, "birth_year", 1900...2100, op: request.op).map { Int(saturating: $0) }
        }
        update.sex = try request.update("sex") { value in
            guard let text = value.stringValue, ["f", "m", "x"].contains(text) else { return nil }
            return text
        }
        update.heightCm = try request.update("height_cm") { try Self.number($0, "height_cm", 50...260, op: request.op) }
        update.weightKg = try request.update("weight_kg") { try Self.number($0, "weight_kg", 20...350, op: request.op) }
        update.displayName = try request.update("display_name") { value in
            guard let text = value.stringValue, (1...Self.maximumDisplayName).contains(text.count) else { return nil }
            return text
        }
        let (profile, created) = try WireErrors.engine("users.upsert") { try RunnerProfiles(store: store).upsert(id, update) }
        return ["user": .string(id), "created": .bool(created), "profile": Self.profileJSON(profile)]
    }

    func usersGet(_ request: Request) throws -> JSONValue {
        let id = try request.string("user")
        let profile = try WireErrors.engine("users.get") { try RunnerProfiles(store: store).profile(id) }
        return ["user": .string(id), "profile": Self.profileJSON(profile)]
    }

    func usersDelete(_ request: Request) throws -> JSONValue {
        let id = try request.string("user")
        try WireErrors.engine("users.delete") { try RunnerProfiles(store: store).delete(id) }
        // Their races' rooms still hold them in memory: rebuilt from the log, where they no
        // longer are (record 0553).
        userDeleted(id)
        return ["user": .string(id), "deleted": true]
    }

    /// Everything kept about the runner; `tracks: true` adds every run's fixes. Written in
    /// parts, a run at a time (`UsersExportStream`, record 0555).
    func usersExport(_ request: Request) throws -> any ResultStream {
        let id = try request.string("user")
        let withTracks = try request.optionalBool("tracks") ?? false
        return try UsersExportStream(user: id, withTracks: withTracks, store: store)
    }

    /// The `user` of a write: 1 to 128 bytes.
    static func userID(_ request: Request) throws -> UserID {
        let id = try request.string("user")
        guard !id.isEmpty, id.utf8.count <= 128 else {
            throw RequestError.badRequest("\(request.op): parameter 'user' must be 1 to 128 bytes, got \(id.utf8.count)", field: "user")
        }
        return id
    }

    /// `value` as a number in `range`, or a `bad_request` naming the parameter.
    static func number(_ value: JSONValue, _ name: String, _ range: ClosedRange<Double>, op: String) throws -> Double? {
        guard let x = value.doubleValue, range.contains(x) else {
            throw RequestError.badRequest("\(op): parameter '\(name)' is \(JSONWriter.string(value).prefix(40)), expected a number in [\(range.lowerBound), \(range.upperBound)] or null", field: name)
        }
        return x
    }

    static func profileJSON(_ p: UserProfile) -> JSONValue {
        ["birth_year": p.birthYear.map { .number(Double($0)) } ?? .null, "sex": p.sex.map { .string($0) } ?? .null,
         "height_cm": p.heightCm.map { .number($0) } ?? .null, "weight_kg": p.weightKg.map { .number($0) } ?? .null,
         "time_zone": .string(p.timeZone), "display_name": p.displayName.map { .string($0) } ?? .null]
    }
}
