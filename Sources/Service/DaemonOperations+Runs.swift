import RunusCore
import Engine
import Server

/// `runs.ingest`, `history`, `progress` and `goals.recommend` (docs/protocol.md).
extension DaemonOperations {
    func runsIngest(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        let runID = try request.runID()
        let input: RunInput
        switch (request.optional("points"), request.optional("summary")) {
        case (.some, .some):
            throw RequestError.badRequest("runs.ingest: send either 'points' or 'summary', not both", field: "summary")
        case (_, .some(let summary)):
            input = .summary(try WireSummary.summary(from: summary, op: "runs.ingest"))
        case (let points, nil):
            let recording = try WireTrack.recording(from: points, op: "runs.ingest")
            input = .track(recording.track, recordTimes: recording.recordTimes)
        }
        return try WireErrors.engine("runs.ingest") {
            try RunIngestion(store: store, resolver: resolver, rules: plausibility)
                .ingest(user: user, clientRunID: runID, input: input, now: clock.now())
        }
    }

    func history(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        guard let from = try request.day("from"), let to = try request.day("to") else {
            throw RequestError.badRequest("history: parameters 'from' and 'to' (YYYY-MM-DD, local days) are required", field: request.optional("from") == nil ? "from" : "to")
        }
        guard from <= to, to.daysSinceEpoch - from.daysSinceEpoch < HistoryService.maximumDays else {
            throw RequestError.badRequest("history: range \(from)…\(to) must be ordered and at most \(HistoryService.maximumDays) days", field: "to")
        }
        var size = HistoryBucketSize.day
        if let value = request.optional("bucket") {
            guard let text = value.stringValue, let parsed = HistoryBucketSize(rawValue: text) else {
                throw RequestError.badRequest("history: parameter 'bucket' is \(JSONWriter.string(value).prefix(20)), expected \"day\", \"week\" or \"month\"", field: "bucket")
            }
            size = parsed
        }
        let answer = try WireErrors.engine("history") {
            try HistoryService(store: store, resolver: resolver).history(user: user, from: from, to: to, size: size)
        }
        func r(_ x: Double) -> JSONValue { .number((x * 10).rounded() / 10) }
        return [
            "user": .string(user), "bucket": .string(size.rawValue),
            "from": .string(from.description), "to": .string(to.description),
            "buckets": .array(answer.buckets.map { b in
                ["start": .string(b.start.description), "runs": .number(Double(b.runs)), "distance_m": r(b.distance),
                 "moving_s": r(b.moving), "calories_kcal": r(b.calories),
                 "moving_pace_s_per_km": b.averagePace.map(r) ?? .null]
            }),
            "runs": .array(answer.runs.map { e in
                ["id": .string(e.run.id), "local_day": .string(e.localDay.description), "start_time": .number(e.run.startTime),
                 "distance_m": r(e.run.distance), "moving_s": r(e.run.moving), "elapsed_s": r(e.run.elapsed),
                 "moving_pace_s_per_km": e.run.movingPace.map(r) ?? .null, "source": .string(e.run.source),
                 "calories_kcal": e.run.calories.map(r) ?? .null,
                 "rewarded": .bool(e.run.rewarded), "unrewarded_reason": e.run.unrewardedReason.map { .string($0) } ?? .null]
            }),
        ]
    }

    func progress(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        let answer = try WireErrors.engine("progress") { try ProgressService(store: store).progress(user: user) }
        return [
            "user": .string(user),
            "xp": .number(Double(answer.level.xp)), "level": .number(Double(answer.level.level)),
            "xp_to_next_level": .number(Double(answer.level.xpToNextLevel)),
            "level_start_xp": .number(Double(answer.level.levelStartXP)),
            "next_level_xp": .number(Double(answer.level.nextLevelXP)),
            "badges": .array(answer.badges.map { badge, award in
                ["id": .string(badge.id), "name": .string(badge.name), "description": .string(badge.description),
                 "icon": .string(badge.icon), "awarded_at": .number(award.awardedAt),
                 "run_id": award.runID.map { .string($0) } ?? .null]
            }),
        ]
    }
}

extension DaemonOperations {
    func goalsRecommend(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        let goals = try WireErrors.engine("goals.recommend") { try GoalService(store: store).recommend(user: user, now: clock.now()) }
        return [
            "user": .string(user),
            // A run to do (moving time) and race finish times (elapsed), named as record 0533 says.
            "suggested_run": ["distance_m": .number(goals.distance), "moving_s": .number(goals.duration),
                              "moving_pace_s_per_km": .number(goals.pace)],
            "race_predictions": .array(goals.predictions.map {
                ["name": .string($0.name), "distance_m": .number($0.distance), "finish_time_s": .number($0.time),
                 "elapsed_pace_s_per_km": .number(($0.time / ($0.distance / 1000) * 10).rounded() / 10)]
            }),
        ]
    }
}
