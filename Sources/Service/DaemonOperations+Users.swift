import RunusCore
import Engine
import Server

/// `users.upsert` (docs/protocol.md): the profile the backend sends; accounts are its business.
extension DaemonOperations {
    func usersUpsert(_ request: Request) throws -> JSONValue {
        let id = try request.string("user")
        guard !id.isEmpty, id.utf8.count <= 128 else {
            throw RequestError.badRequest("users.upsert: parameter 'user' must be 1 to 128 bytes, got \(id.utf8.count)")
        }
        let timeZone = try request.string("time_zone")
        guard SystemTimeZones.isKnown(timeZone) else {
            throw RequestError.badRequest("users.upsert: time_zone '\(timeZone.prefix(60))' is not an IANA time zone (e.g. \"Europe/Paris\")")
        }
        var sex: String?
        if let value = request.optional("sex") {
            guard let text = value.stringValue, ["f", "m", "x"].contains(text) else {
                throw RequestError.badRequest("users.upsert: parameter 'sex' is \(JSONWriter.string(value).prefix(20)), expected \"f\", \"m\" or \"x\"")
            }
            sex = text
        }
        let now = clock.now()
        let birthYear = try request.optionalNumber("birth_year", 1900...2100).map { Int(saturating: $0) }
        let profile = UserProfile(
            id: id, birthYear: birthYear, sex: sex,
            heightCm: try request.optionalNumber("height_cm", 50...260),
            weightKg: try request.optionalNumber("weight_kg", 20...350),
            timeZone: timeZone, utcOffsetSeconds: resolver.offset(timeZone: timeZone, at: now) ?? 0)
        let existed = try store.user(id: id) != nil
        try store.upsertUser(profile)
        return ["user": .string(id), "created": .bool(!existed)]
    }
}
