import RunusCore
import Tracking
import TrackFormats
import Missions
import Engine
import Server

/// `missions.evaluate`, `missions.progress` and `missions.score` (docs/protocol.md, records
/// 0321–0323, 0535).
extension DaemonOperations {
    /// Most specs one `missions.score` request may carry.
    static let maximumScoredSpecs = 50
    /// Largest |UTC offset| accepted, seconds (UTC−12 to UTC+14, rounded up).
    static let utcOffsetRange: ClosedRange<Double> = -14 * 3600...14 * 3600

    /// Stateless: one spec against one track (the `runs.ingest` wire format). Kinds that need a
    /// history or a race answer `not_applicable`; time-of-day kinds need `utc_offset_s`.
    func missionsEvaluate(_ request: Request) throws -> JSONValue {
        let spec = try Request.spec(request.optional("spec"), op: "missions.evaluate", field: "spec")
        let track = try WireTrack.track(from: request.optional("points"), op: "missions.evaluate")
        let offset = try request.optionalNumber("utc_offset_s", Self.utcOffsetRange).map { Int(saturating: $0) }
        let run = MissionRun(track: track)
        let evaluation = MissionEvaluator.evaluate(spec, run: run, context: MissionContext(utcOffset: offset))
        var result: [String: JSONValue] = [
            "kind": .string(spec.kind.rawValue), "title": .string(MissionTitle.title(for: spec)), "spec": spec.json,
            "run": ["distance_m": Self.r1(run.metrics.distance), "moving_s": Self.r1(run.metrics.moving),
                    "elapsed_s": Self.r1(run.metrics.elapsed)],
        ]
        if case .object(let verdict) = evaluation.json { result.merge(verdict) { a, _ in a } }
        return .object(result)
    }

    /// A runner's missions of a local day with live progress (`MissionProgressService`, record 0323).
    func missionsProgress(_ request: Request) throws -> JSONValue {
        let userID = try request.string("user")
        let day = try request.day("date")
        let live = try request.optional("points").map { try WireTrack.track(from: $0, op: "missions.progress") }
        let answer = try WireErrors.engine("missions.progress") {
            try MissionProgressService(store: store, resolver: resolver).progress(user: userID, day: day, live: live, now: clock.now())
        }
        return ["user": .string(userID), "day": .string(answer.day.description), "missions": .array(answer.missions.map(Self.progressJSON))]
    }

    static func progressJSON(_ m: MissionProgressEntry) -> JSONValue {
        let a = m.assignment
        var entry: [String: JSONValue] = [
            "id": .string(a.id), "kind": .string(a.kind), "status": .string(a.status.rawValue),
            "xp": .number(Double(a.xp)), "source": .string(m.source.rawValue),
            "stretch": .bool(a.role == .stretch), "custom": .bool(a.role == .custom), "race": .bool(a.role == .race),
            "first_day": .string(a.day.description), "last_day": .string(MissionWindow.lastDay(of: a).description),
            "pace_needed": m.paceNeeded.map(Self.paceNeededJSON) ?? .null,
        ]
        guard let spec = m.spec else {
            entry["verdict"] = "not_applicable"; entry["progress"] = .number(0)
            entry["evidence"] = .array([.string("the stored spec cannot be read by this version")])
            return .object(entry)
        }
        entry["title"] = .string(MissionTitle.title(for: spec))
        entry["spec"] = spec.json
        if let evaluation = m.evaluation, case .object(let verdict) = evaluation.json {
            for (k, v) in verdict { entry[k == "status" ? "verdict" : k] = v }
        } else {
            let completed = a.status == .completed
            entry["verdict"] = completed ? "completed" : "not_started"
            entry["progress"] = .number(completed ? 1 : ((a.progress ?? 0) * 10_000).rounded() / 10_000)
            entry["evidence"] = []
        }
        return .object(entry)
    }

    /// {`remaining_m`, and `moving_pace_s_per_km` or `elapsed_pace_s_per_km` (null once the
    /// target's time is used up)}: the key names the time the pace divides (record 0533).
    static func paceNeededJSON(_ p: PaceNeeded) -> JSONValue {
        let key = p.time == .moving ? "moving_pace_s_per_km" : "elapsed_pace_s_per_km"
        return ["remaining_m": r1(p.remaining), key: p.pace.map(r1) ?? .null]
    }

    /// Candidate specs scored for a runner by the served model (record 0322).
    func missionsScore(_ request: Request) throws -> JSONValue {
        let userID = try request.string("user")
        guard let value = request.optional("specs"), let array = value.arrayValue,
              (1...Self.maximumScoredSpecs).contains(array.count) else {
            throw RequestError.badRequest("missions.score: parameter 'specs' must be an array of 1 to \(Self.maximumScoredSpecs) mission specs", field: "specs")
        }
        let specs = try array.enumerated().map { try Request.spec($1, op: "missions.score", field: "specs", index: $0) }
        let day = try request.day("date")
        let answer = try WireErrors.engine("missions.score") {
            try missions.score(user: userID, specs: specs, day: day, now: clock.now())
        }
        return [
            "user": .string(userID), "day": .string(answer.day.description),
            "model_version": .string(missions.modelVersion),
            "missions": .array(answer.missions.map { m in
                [
                    "kind": .string(m.spec.kind.rawValue), "title": .string(MissionTitle.title(for: m.spec)),
                    "spec": m.spec.json,
                    "p_complete": m.pComplete.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null,
                    "xp": m.xp.map { .number(Double($0)) } ?? .null,
                    "reason": m.reason.map { .string($0) } ?? .null,
                ]
            }),
        ]
    }

    // MARK: helpers

    static func r1(_ x: Double) -> JSONValue { .number((x * 10).rounded() / 10) }
}
