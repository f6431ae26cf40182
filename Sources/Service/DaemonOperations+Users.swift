import RunusCore
import Engine
import Server
import TrackFormats

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
        return ["user": .string(id), "deleted": true]
    }

    /// Everything kept about the runner; `tracks: true` adds every run's fixes.
    func usersExport(_ request: Request) throws -> JSONValue {
        let id = try request.string("user")
        let withTracks = try request.optionalBool("tracks") ?? false
        let data = try WireErrors.engine("users.export") { try RunnerProfiles(store: store).export(id) }
        return [
            "user": .string(id),
            "profile": Self.profileJSON(data.profile),
            "runs": .array(data.runs.map { run in
                var object: [String: JSONValue] = [
                    "id": .string(run.id), "start_time": .number(run.startTime), "distance_m": .number(run.distance),
                    "elapsed_s": .number(run.elapsed), "moving_s": .number(run.moving),
                    "elevation_gain_m": .number(run.elevationGain), "calories_kcal": run.calories.map { .number($0) } ?? .null,
                    "source": .string(run.source), "rewarded": .bool(run.rewarded),
                    "unrewarded_reason": run.unrewardedReason.map { .string($0) } ?? .null,
                    "has_track": .bool(run.track != nil),
                ]
                if withTracks, let bytes = run.track, let track = try? CompactTrackCodec.decode(bytes) {
                    object["points"] = WireTrack.json(track)
                }
                return .object(object)
            }),
            "missions": .array(data.assignments.map { a in
                ["id": .string(a.id), "day": .string(a.day.description), "kind": .string(a.kind),
                 "spec": (try? JSONParser.parse(a.specJSON)) ?? .null, "model_version": .string(a.modelVersion),
                 "p_complete": a.shownPComplete.map { .number($0) } ?? .null, "xp": .number(Double(a.xp)), "status": .string(a.status.rawValue),
                 "run_id": a.runID.map { .string($0) } ?? .null, "progress": a.progress.map { .number($0) } ?? .null,
                 "offered_at": .number(a.offeredAt)]
            }),
            "rewards": .array(data.rewards.map { r in
                ["time": .number(r.time), "xp": .number(Double(r.xp)), "reason": .string(r.reason),
                 "ref_id": r.refID.map { .string($0) } ?? .null]
            }),
            "badges": .array(data.badges.map { b in
                ["id": .string(b.badgeID), "awarded_at": .number(b.awardedAt), "run_id": b.runID.map { .string($0) } ?? .null]
            }),
            "races": .array(data.races.map { race, result in
                ["race_id": .string(race.id), "name": .string(race.name), "distance_m": .number(race.distance),
                 "start_time": .number(race.startTime), "host": .bool(ExactText.same(race.createdBy, id)),
                 "cancelled": .bool(race.cancelledAt != nil),
                 "result": result.map { r in
                     ["rank": .number(Double(r.rank)), "status": .string(r.status), "distance_m": .number(r.distance),
                      "finish_time_s": r.finishTime.map { .number($0) } ?? .null, "xp": .number(Double(r.xp)),
                      "badges": .array(r.badges.map { .string($0) })] as JSONValue
                 } ?? .null]
            }),
        ]
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
