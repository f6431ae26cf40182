import RunusCore
import Tracking
import TrackFormats
import Missions

/// Where a mission's live progress comes from (`missions.progress`, record 0323).
public enum MissionProgressSource: String, Sendable {
    /// Not checked: no run yet, or the stored spec cannot be read.
    case none
    /// Completed earlier: the stored outcome.
    case stored
    /// The partial track the client sent.
    case track
    /// The best of the day's stored runs that may complete it.
    case runsToday = "runs_today"
}

/// One open mission of the day with its live progress.
public struct MissionProgressEntry: Sendable {
    public let assignment: MissionAssignment
    /// Nil when this version cannot read the stored spec.
    public let spec: MissionSpec?
    public let source: MissionProgressSource
    /// Nil when nothing was checked (`source` none or stored).
    public let evaluation: MissionEvaluation?
    /// The pace to keep over the rest of the target (`MissionSpec.paceNeeded`): of the run the
    /// track is (`source` track), else of a run not started; nil for a mission that is not open
    /// or a kind without a distance in a time.
    public let paceNeeded: PaceNeeded?
}

/// A runner's missions of a local day with live progress: against a partial track the client
/// sends, else against the runner's stored runs of that day that may complete each mission
/// (rewarded runs, and not a set a refresh offered after the run: `RunIngestion.mayComplete`);
/// the runner's earlier runs (`HistoryWindow`) feed the multi-run kinds either way. Nothing is
/// stored (record 0323).
public struct MissionProgressService: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    public func progress(user userID: UserID, day requestedDay: CivilDate?, live: Track?, now: EpochSeconds) throws
        -> (day: CivilDate, missions: [MissionProgressEntry]) {
        guard let user = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        let moment = RunnerMoment(profile: user, at: now, resolver: resolver)
        let day = requestedDay ?? moment.day
        let recent = try store.assignments(user: userID, from: day.adding(days: 1 - MissionWindow.maximumDays), to: day)
        let dayOffers = recent.filter { $0.day == day }
        // The day's missions, then the offers of earlier days still open on it (a streak, record 0650).
        let carried = try MissionService.carried(recent, into: day, user: user, store: store, resolver: resolver)
        let open = dayOffers.filter(\.isCurrent) + carried
        guard !open.isEmpty else { return (day, []) }
        let specs = open.map { try? MissionSpec(json: try JSONParser.parse($0.specJSON)) }
        let dayStart = day.startInstant(utcOffset: moment.utcOffset)
        let kinds = Set(specs.compactMap { $0?.kind })
        // Runs before the day's end: the evaluator ignores runs at or after the one it checks.
        let history = try priorRuns(of: user, before: dayStart + 86_400,
                                    withTracks: kinds.contains(.personalBest) || kinds.contains(.explorer))
        let liveRun = live.map { MissionRun(track: $0) }
        var todays: [(end: EpochSeconds, run: MissionRun)]?
        func runsToday() throws -> [(end: EpochSeconds, run: MissionRun)] {
            if let todays { return todays }
            let runs = try store.runs(user: userID, from: dayStart, to: dayStart + 86_400).filter(\.rewarded).map { record in
                (record.endTime, try missionRun(record) ?? Self.summaryRun(record))
            }
            todays = runs
            return runs
        }
        var out: [MissionProgressEntry] = []
        for (a, spec) in zip(open, specs) {
            guard let spec else {
                out.append(MissionProgressEntry(assignment: a, spec: nil, source: .none, evaluation: nil, paceNeeded: nil)); continue
            }
            let fresh = a.status == .offered ? spec.paceNeeded(distance: 0, moving: 0, elapsed: 0) : nil
            if a.status == .completed {
                out.append(MissionProgressEntry(assignment: a, spec: spec, source: .stored, evaluation: nil, paceNeeded: nil))
            } else if let liveRun {
                let e = evaluate(spec, liveRun, history, user: user, now: now)
                let m = liveRun.metrics
                let needed = a.status == .offered && e.status != .completed
                    ? spec.paceNeeded(distance: m.distance, moving: m.moving, elapsed: m.elapsed) : nil
                out.append(MissionProgressEntry(assignment: a, spec: spec, source: .track, evaluation: e, paceNeeded: needed))
            } else {
                var best: MissionEvaluation?
                for (end, run) in try runsToday() where RunIngestion.mayComplete(a, runEndingAt: end, dayOffers: dayOffers) {
                    let e = evaluate(spec, run, history, user: user, now: now)
                    if let b = best, !Self.better(e, than: b) { continue }
                    best = e
                }
                // A run finished without completing it: the next one starts from nothing.
                out.append(MissionProgressEntry(assignment: a, spec: spec, source: best == nil ? .none : .runsToday, evaluation: best,
                                                paceNeeded: best?.status == .completed ? nil : fresh))
            }
        }
        return (day, out)
    }

    /// A run stored without a usable track, as its totals (record 0232): what a summary's
    /// missions were checked on at ingest, but its average heart rate, which is not stored.
    static func summaryRun(_ record: RunRecord) -> MissionRun {
        guard record.track == nil else { return MissionRun(metrics: RunMetrics(track: Track(points: []))) }
        return MissionRun(metrics: RunMetrics(summary: RunSummary(startTime: record.startTime, distance: record.distance,
                                                                  duration: record.elapsed, moving: record.moving,
                                                                  calories: record.calories)))
    }

    /// A stored run's track as the evaluator reads it; nil for a summary-only run or a track
    /// this version cannot decode.
    func missionRun(_ record: RunRecord) throws -> MissionRun? {
        guard let bytes = try store.run(user: record.userID, id: record.id)?.track,
              let track = try? CompactTrackCodec.decode(bytes) else { return nil }
        return MissionRun(track: track)
    }

    /// A runner's earlier runs as the multi-run kinds see them, with the cells each covered
    /// (explorer) when tracks were decoded.
    struct PriorRuns {
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

    /// The runner's runs of the history window before `instant`; with `withTracks`, their best
    /// efforts and covered cells too (decoding every stored track: only for personal best and explorer).
    func priorRuns(of user: UserProfile, before instant: EpochSeconds, withTracks: Bool) throws -> PriorRuns {
        var priors: [PriorRun] = []
        var cells: [(start: EpochSeconds, cells: Set<GridCell>)] = []
        for record in try HistoryWindow.runs(of: user.id, before: instant, store: store) {
            let offset = user.utcOffset(at: record.startTime, resolver: resolver)
            if withTracks, let run = try missionRun(record), run.metrics.profile.times.count >= 2 {
                priors.append(PriorRun(metrics: run.metrics, utcOffset: offset))
                if run.hasPositions { cells.append((run.metrics.startTime, ExplorerGrid.cells(of: run))) }
                continue
            }
            priors.append(PriorRun(start: record.startTime, utcOffset: offset, distance: record.distance))
        }
        return PriorRuns(priors: priors, cells: withTracks ? cells : nil)
    }

    /// Checks one run with the runner's UTC offset at its start (a live track without fixes yet
    /// uses `now`).
    func evaluate(_ spec: MissionSpec, _ run: MissionRun, _ history: PriorRuns, user: UserProfile, now: EpochSeconds) -> MissionEvaluation {
        let start = run.metrics.profile.times.isEmpty ? now : run.metrics.startTime
        let context = history.context(start: start, utcOffset: user.utcOffset(at: start, resolver: resolver))
        return MissionEvaluator.evaluate(spec, run: run, context: context)
    }

    /// Completed beats failed beats in progress; then more progress.
    static func better(_ a: MissionEvaluation, than b: MissionEvaluation) -> Bool {
        func rank(_ e: MissionEvaluation) -> Int { e.status == .completed ? 2 : e.status == .failed ? 1 : 0 }
        return (rank(a), a.progress) > (rank(b), b.progress)
    }
}
