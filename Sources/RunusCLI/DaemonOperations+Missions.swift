import RunusCore
import Tracking
import TrackFormats
import Missions
import Engine
import Server

/// `missions.evaluate`, `missions.progress` and `missions.score` (docs/protocol.md, records
/// 0321–0323).
extension DaemonOperations {
    /// Most specs one `missions.score` request may carry.
    static let maximumScoredSpecs = 50
    /// Largest |UTC offset| accepted, seconds (UTC−12 to UTC+14, rounded up).
    static let utcOffsetRange: ClosedRange<Double> = -14 * 3600...14 * 3600

    /// Stateless: one spec against one track (the `runs.ingest` wire format). Kinds that need a
    /// history or a race answer `not_applicable`; time-of-day kinds need `utc_offset_s`.
    func missionsEvaluate(_ request: Request) throws -> JSONValue {
        let spec = try Self.spec(request.optional("spec"), op: "missions.evaluate", name: "spec")
        let track = try WireTrack.track(from: request.optional("points"), op: "missions.evaluate")
        let offset = try Self.optionalNumber(request, "utc_offset_s", Self.utcOffsetRange).map { Int(saturating: $0) }
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

    /// A runner's missions of a local day with live progress: against the partial track the
    /// client sends (`points`), else against the runner's stored runs of that day (the best of
    /// them); the runner's earlier runs feed the multi-run kinds either way (record 0323).
    func missionsProgress(_ request: Request) throws -> JSONValue {
        let userID = try request.string("user")
        guard let user = try store.user(id: userID) else { throw Self.unknownUser("missions.progress", userID) }
        let now = clock.now()
        let day = try Self.day(request, "date") ?? missions.localDay(of: user, at: now)
        let live = try request.optional("points").map { MissionRun(track: try WireTrack.track(from: $0, op: "missions.progress")) }
        let open = try store.assignments(user: userID, day: day).filter { $0.status != .expired }
        guard !open.isEmpty else { return ["user": .string(userID), "day": .string(day.description), "missions": []] }
        let specs = open.map { try? MissionSpec(json: try JSONParser.parse($0.specJSON)) }
        let dayStart = day.startInstant(utcOffset: user.utcOffset(at: now, resolver: resolver))
        let kinds = Set(specs.compactMap { $0?.kind })
        // Runs before the day's end: the evaluator ignores runs at or after the one it checks.
        let history = try runnerHistory(user: user, before: dayStart + 86_400,
                                        withTracks: kinds.contains(.personalBest) || kinds.contains(.explorer))
        var todays: [(end: EpochSeconds, run: MissionRun)]?
        /// The day's stored runs that complete missions (rewarded ones, record 0230).
        func runsToday() throws -> [(end: EpochSeconds, run: MissionRun)] {
            if let todays { return todays }
            let runs = try store.runs(user: userID, from: dayStart, to: dayStart + 86_400).filter(\.rewarded).map { record in
                if let bytes = try store.run(user: record.userID, id: record.id)?.track, let track = try? CompactTrackCodec.decode(bytes) {
                    return (record.endTime, MissionRun(track: track))
                }
                return (record.endTime, MissionRun(metrics: RunMetrics(track: Track(points: []))))
            }
            todays = runs
            return runs
        }
        let dayOffers = try store.assignments(user: userID, day: day)
        var out: [JSONValue] = []
        for (a, spec) in zip(open, specs) {
            var entry: [String: JSONValue] = [
                "id": .string(a.id), "kind": .string(a.kind), "status": .string(a.status.rawValue),
                "xp": .number(Double(a.xp)),
            ]
            guard let spec else {
                entry["source"] = "none"; entry["verdict"] = "not_applicable"; entry["progress"] = .number(0)
                entry["evidence"] = .array([.string("the stored spec cannot be read by this version")])
                out.append(.object(entry)); continue
            }
            entry["title"] = .string(MissionTitle.title(for: spec))
            entry["spec"] = spec.json
            var evaluation: MissionEvaluation?
            var source = "none"
            if a.status == .completed {
                source = "stored"
            } else if let live {
                evaluation = evaluate(spec, live, history, user: user)
                source = "track"
            } else {
                for (end, run) in try runsToday() where RunIngestion.mayComplete(a, runEndingAt: end, dayOffers: dayOffers) {
                    let e = evaluate(spec, run, history, user: user)
                    if evaluation == nil || Self.better(e, than: evaluation!) { evaluation = e }
                }
                if evaluation != nil { source = "runs_today" }
            }
            entry["source"] = .string(source)
            if let evaluation, case .object(let verdict) = evaluation.json {
                for (k, v) in verdict { entry[k == "status" ? "verdict" : k] = v }
            } else {
                let completed = a.status == .completed
                entry["verdict"] = completed ? "completed" : "not_started"
                entry["progress"] = .number(completed ? 1 : ((a.progress ?? 0) * 10_000).rounded() / 10_000)
                entry["evidence"] = []
            }
            out.append(.object(entry))
        }
        return ["user": .string(userID), "day": .string(day.description), "missions": .array(out)]
    }

    /// Candidate specs scored for a runner by the served model (record 0322).
    func missionsScore(_ request: Request) throws -> JSONValue {
        let userID = try request.string("user")
        guard let value = request.optional("specs"), let array = value.arrayValue,
              (1...Self.maximumScoredSpecs).contains(array.count) else {
            throw RequestError.badRequest("missions.score: parameter 'specs' must be an array of 1 to \(Self.maximumScoredSpecs) mission specs")
        }
        let specs = try array.enumerated().map { try Self.spec($1, op: "missions.score", name: "specs[\($0)]") }
        let day = try Self.day(request, "date")
        let answer = try Self.engine("missions.score") {
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

    static func spec(_ value: JSONValue?, op: String, name: String) throws -> MissionSpec {
        guard let value else { throw RequestError.badRequest("\(op): parameter '\(name)' is missing, expected a mission spec object") }
        do {
            return try MissionSpec(json: value)
        } catch {
            throw RequestError.badRequest("\(op): \(name): \(error)")
        }
    }

    /// A runner's earlier runs as the multi-run kinds see them, with the cells each covered
    /// (explorer) when tracks were decoded.
    struct RunnerHistory {
        let priors: [PriorRun]
        /// (start, cells) per run with a usable stored track; nil when tracks were not read.
        let cells: [(start: EpochSeconds, cells: Set<GridCell>)]?

        /// The context for a run starting at `start`: only runs that started before it count
        /// (the evaluator drops later prior runs itself; cells are filtered here).
        func context(start: EpochSeconds, utcOffset: Int) -> MissionContext {
            MissionContext(priorRuns: priors,
                           visitedCells: cells.map { $0.filter { $0.start < start }.reduce(into: Set<GridCell>()) { $0.formUnion($1.cells) } },
                           utcOffset: utcOffset)
        }
    }

    /// The runner's runs before `instant` (365 days); with `withTracks`, their best efforts and
    /// covered cells too (decoding every stored track: only for personal best and explorer).
    func runnerHistory(user: UserProfile, before instant: EpochSeconds, withTracks: Bool) throws -> RunnerHistory {
        let records = try store.runs(user: user.id, from: instant - 365 * 86_400, to: instant).filter(\.isEvidence)
        var priors: [PriorRun] = []
        var cells: [(start: EpochSeconds, cells: Set<GridCell>)] = []
        for record in records {
            let offset = user.utcOffset(at: record.startTime, resolver: resolver)
            if withTracks, let bytes = try store.run(user: record.userID, id: record.id)?.track, let track = try? CompactTrackCodec.decode(bytes) {
                let run = MissionRun(track: track)
                if run.metrics.profile.times.count >= 2 {
                    priors.append(PriorRun(metrics: run.metrics, utcOffset: offset))
                    if run.hasPositions { cells.append((run.metrics.startTime, ExplorerGrid.cells(of: run))) }
                    continue
                }
            }
            priors.append(PriorRun(start: record.startTime, utcOffset: offset, distance: record.distance))
        }
        return RunnerHistory(priors: priors, cells: withTracks ? cells : nil)
    }

    /// Checks one run with the runner's UTC offset at its start (a live track without fixes yet
    /// uses the current time).
    func evaluate(_ spec: MissionSpec, _ run: MissionRun, _ history: RunnerHistory, user: UserProfile) -> MissionEvaluation {
        let start = run.metrics.profile.times.isEmpty ? clock.now() : run.metrics.startTime
        let context = history.context(start: start, utcOffset: user.utcOffset(at: start, resolver: resolver))
        return MissionEvaluator.evaluate(spec, run: run, context: context)
    }

    static func better(_ a: MissionEvaluation, than b: MissionEvaluation) -> Bool {
        func rank(_ e: MissionEvaluation) -> Int { e.status == .completed ? 2 : e.status == .failed ? 1 : 0 }
        return (rank(a), a.progress) > (rank(b), b.progress)
    }

    static func r1(_ x: Double) -> JSONValue { .number((x * 10).rounded() / 10) }
}
