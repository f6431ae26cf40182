import RunusCore
import Engine
import Server

/// `missions.today`, answered from `MissionsTodayCache` when it can be (decision 0520), and the
/// invalidation that keeps the cache exact.
extension DaemonOperations {
    /// A `missions.today` request's parameters, checked.
    struct TodayParameters {
        let user: UserID
        /// The asked local day; nil: the runner's local day now.
        let day: CivilDate?
        /// Daily missions wanted, in `missionCountRange`.
        let count: Int
        let refresh: Bool

        init(_ request: Request) throws {
            user = try request.string("user")
            guard !user.isEmpty else { throw RequestError.badRequest("missions.today: parameter 'user' is empty", field: "user") }
            day = try request.day("date")
            var count = DaemonOperations.defaultMissionCount
            if request.optional("k") != nil {
                count = try request.int("k")
                guard DaemonOperations.missionCountRange.contains(count) else {
                    throw RequestError.badRequest("missions.today: parameter 'k' is \(count), expected \(DaemonOperations.missionCountRange.lowerBound)...\(DaemonOperations.missionCountRange.upperBound)", field: "k")
                }
            }
            self.count = count
            refresh = try request.optionalBool("refresh") ?? false
        }
    }

    /// `missions.today` without the answer cache (the oracle the cached answers are tested
    /// against; the runner-state cache is still used).
    func missionsToday(_ request: Request) throws -> JSONValue {
        let parameters = try TodayParameters(request)
        let moment = try WireErrors.engine("missions.today") { try missions.moment(user: parameters.user, at: clock.now()) }
        return try todayAnswer(parameters, moment)
    }

    /// `missions.today` as served: a kept answer when the user's missions, runs and profile have
    /// not changed since it was computed; the computed one otherwise (then kept).
    func cachedMissionsToday(_ request: Request) throws -> EncodedJSON {
        let parameters = try TodayParameters(request)
        guard let profile = try todayCache.profile(parameters.user, store: store) else {
            throw WireErrors.unknownUser("missions.today", parameters.user)
        }
        // The offset and day, derived once: the key and the computed answer agree on them.
        let moment = RunnerMoment(profile: profile, at: clock.now(), resolver: resolver)
        if parameters.refresh {
            defer { todayCache.invalidate(user: parameters.user) }
            return EncodedJSON(try todayAnswer(parameters, moment))
        }
        let key = MissionsTodayCache.Key.answer(day: parameters.day ?? moment.day, utcOffset: moment.utcOffset,
                                                count: parameters.count, modelVersion: missions.modelVersion)
        let (value, ticket) = todayCache.entries.lookup(ExactText(parameters.user), key)
        if case .answer(let answer)? = value { return answer }
        let answer = EncodedJSON(try todayAnswer(parameters, moment))
        todayCache.entries.store(ExactText(parameters.user), key, .answer(answer), ticket: ticket)
        return answer
    }

    func todayAnswer(_ parameters: TodayParameters, _ moment: RunnerMoment) throws -> JSONValue {
        // Every mission of the day, the stretch one and the runner's own flagged (record 0536).
        let answer = try WireErrors.engine("missions.today") {
            try missions.today(moment, day: parameters.day, count: parameters.count, refresh: parameters.refresh)
        }
        return [
            "user": .string(parameters.user),
            "day": .string(answer.day.description),
            "model_version": .string(missions.modelVersion),
            "missions": .array(answer.missions.map(Self.todayMissionJSON)),
        ]
    }

    /// A mission of the day as `missions.today` and `missions.custom` answer it.
    static func todayMissionJSON(_ m: TodayMission) -> JSONValue {
        [
            "id": .string(m.assignmentID),
            "kind": .string(m.spec.kind.rawValue),
            "title": .string(m.title),
            "spec": m.spec.json,
            "p_complete": m.pComplete.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null,
            "xp": .number(Double(m.xp)),
            "why": .string(m.why),
            "status": .string(m.status.rawValue),
            "stretch": .bool(m.isStretch),
            "custom": .bool(m.isCustom),
            "race": .bool(m.isRace),
            "first_day": .string(m.firstDay.description),
            "last_day": .string(m.lastDay.description),
        ]
    }

    /// Runs `operation` (a write to the request's `user`), then forgets what the cache kept for
    /// that user, also when the operation failed (it may have failed after its commit). A
    /// `runs.ingest` answer's `run.start_time` spares the states as of instants up to it.
    func invalidatingToday(_ request: Request, _ operation: (Request) throws -> JSONValue) throws -> JSONValue {
        guard let user = request.optional("user")?.stringValue else { return try operation(request) }
        do {
            let result = try operation(request)
            todayCache.invalidate(user: user, runStart: result["run"]?["start_time"]?.doubleValue)
            return result
        } catch {
            todayCache.invalidate(user: user, runStart: nil)
            throw error
        }
    }
}
