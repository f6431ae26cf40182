import RunusCore
import Tracking
import Missions
import Features

/// Labels from history itself (issue 6 item 3; what they mean: record 0600). Before each run of
/// a runner, the candidate missions the runner could have been given from the runner's past
/// alone (`CandidateGenerator` on the state as of the run's start), each checked against that
/// run: completed → 1, failed → 0, not applicable → no label.
///
/// Pure: the caller reads the runs (and decodes the one track it labels) from storage. Labels
/// of different runs are independent, so callers may compute them in parallel.
public enum HistoryLabels {
    /// Kinds a summary-only run (distance, moving and elapsed time; no track) decides: their
    /// check reads nothing but the distance or the moving time (record 0600). Every other kind
    /// needs a track (splits, fastest windows, positions), or a full check would have to guess.
    public static let summaryKinds: Set<MissionKind> = [.distance, .duration]

    /// Kinds never labelled from history: their check needs what run records do not keep (a
    /// race result). Explorer and personal best read the earlier runs' tracks (`digests`,
    /// records 0645 and 0646): a caller without them gets no labels of those kinds.
    public static let excludedKinds: Set<MissionKind> = [.raceFinish, .podium]
    /// Kinds whose check needs the digests of earlier tracks.
    public static let digestKinds: Set<MissionKind> = [.personalBest, .explorer]

    /// Runs with fewer earlier runs than this get no labels: with no past there is no runner's
    /// state to generate candidates from, only the beginner defaults (record 0600).
    public static let minimumPriorRuns = 1

    /// One history label: the candidate mission, the run it was checked against and the
    /// training example (features as of the run's start, label 1 completed / 0 failed).
    public struct Label: Sendable {
        public let spec: MissionSpec
        /// The stored id of the run the candidate was checked against.
        public let runID: String
        public let example: LabelledExample
    }

    /// The id of the label of candidate `index` before run `runID`: stable as long as the runs
    /// and the candidate generator are.
    public static func labelID(runID: String, candidate index: Int) -> String { "history:\(runID):\(index)" }

    /// A run's candidates and their verdicts, before the features are read: the first of the two
    /// steps of labelling. The verdicts never depend on past outcomes (the candidates do not read
    /// them), the features do (record 0663), so a runner's verdicts can be found in parallel and
    /// the features read afterwards, in time order.
    public struct Verdicts: Sendable {
        /// The stored id and start of the labelled run, and its runner.
        public let runID: String
        public let start: EpochSeconds
        public let user: UserID
        /// The runner's state as of the run's start, with no outcomes.
        public let state: RunnerState
        /// Each checked candidate: its index in the generator's list, the mission, and whether
        /// the run completed it (true) or failed it (false); not-applicable candidates are absent.
        public let checked: [(index: Int, spec: MissionSpec, completed: Bool)]
    }

    /// The verdicts before `history[index]`; nil when the run has too few earlier runs.
    ///
    /// - Parameters:
    ///   - history: all of one runner's runs, sorted by (start time, id); runs at or after the
    ///     labelled run's start never enter its features (the state is computed as of its start).
    ///   - run: the labelled run as the evaluator sees it (from its track), or nil when it is a
    ///     summary-only run: then only `summaryKinds` are labelled, from its distance and moving
    ///     time with the same tolerance.
    ///   - utcOffset: local time − UTC in seconds, in [-14 h, +14 h], for kinds that read the
    ///     clock or the calendar (early bird, streak, weekly volume).
    ///   - tolerance: the GPS tolerance of the checks (records 0201, 0211).
    ///   - digests: what the tracks of the runner's runs say (`RunDigest`, any order, matched to
    ///     `history` by start time); only those before the labelled run are read. Empty: no
    ///     explorer or personal-best labels (their checks need the earlier tracks).
    public static func verdicts(history: [RunRecord], at index: Int, run: MissionRun?, utcOffset: Int = 0,
                                tolerance: MissionTolerance = .default, digests: [RunDigest] = []) -> Verdicts? {
        precondition(history.indices.contains(index), "HistoryLabels: index \(index) outside 0..<\(history.count)")
        let target = history[index]
        // Runs strictly before the start: equal starts (duplicates) are not "the past".
        var lo = index
        while lo > 0 && history[lo - 1].startTime >= target.startTime { lo -= 1 }
        guard lo >= minimumPriorRuns else { return nil }
        let past = Array(history[..<lo])
        let earlier = digests.filter { $0.start < target.startTime }
        let state = RunnerState(history: past, asOf: target.startTime, utcOffset: utcOffset, digests: earlier)
        var efforts: [EpochSeconds: [Meters: Seconds]] = [:]
        for d in earlier { efforts[d.start] = d.bestEfforts }
        var context: MissionContext?
        var checked: [(index: Int, spec: MissionSpec, completed: Bool)] = []
        // Weekly volumes as the model learnt them: one run against the week's target (the daily
        // policy's week-long offer is forecast, not modelled, record 0655).
        for (k, spec) in CandidateGenerator.candidates(for: state, weeklyVolume: .day).enumerated() {
            let kind = spec.kind
            guard MissionFeatures.models(kind), !excludedKinds.contains(kind),
                  !digestKinds.contains(kind) || !earlier.isEmpty else { continue }
            let status: MissionStatusResult
            if let run {
                let known = context ?? MissionContext(
                    priorRuns: past.map { PriorRun(start: $0.startTime, utcOffset: utcOffset, distance: $0.distance,
                                                   bestEfforts: efforts[$0.startTime] ?? [:]) },
                    visitedCells: earlier.isEmpty ? nil : earlier.reduce(into: Set<GridCell>()) { $0.formUnion($1.cells) },
                    utcOffset: utcOffset)
                context = known
                status = MissionEvaluator.evaluate(spec, run: run, context: known, tolerance: tolerance).status
            } else {
                guard let decided = summaryStatus(spec, record: target, tolerance: tolerance) else { continue }
                status = decided
            }
            guard status != .notApplicable else { continue }
            checked.append((k, spec, status == .completed))
        }
        return Verdicts(runID: target.id, start: target.startTime, user: target.userID, state: state, checked: checked)
    }

    /// The labels of one run's verdicts, read from its state with `outcomes` as the runner's
    /// past outcomes by kind (empty: none, so the outcome features take their missing values).
    public static func labels(_ verdicts: Verdicts, outcomes: [MissionKind: OutcomeCount] = [:]) -> [Label] {
        let state = outcomes.isEmpty ? verdicts.state : verdicts.state.replacingOutcomes(outcomes)
        return verdicts.checked.map { c in
            let example = LabelledExample(
                id: labelID(runID: verdicts.runID, candidate: c.index), user: verdicts.user, time: verdicts.start,
                kind: c.spec.kind, features: MissionFeatures.vector(c.spec, state: state), label: c.completed ? 1 : 0,
                pTrue: nil)
            return Label(spec: c.spec, runID: verdicts.runID, example: example)
        }
    }

    /// The labels of one runner's runs, each read with the runner's earlier labels as past
    /// outcomes (`pastOutcomes`, record 0663), in the order of `runs`.
    public static func labels(runner runs: [Verdicts]) -> [Label] {
        zip(runs, pastOutcomes(runner: runs)).flatMap { labels($0, outcomes: $1) }
    }

    /// For each of one runner's runs (`runs`, any order; the result is in the same order), the
    /// runner's earlier labels counted as past outcomes by kind: those of runs that started
    /// strictly before it and at most `RunnerState.outcomeWindowDays` days before, the window
    /// real outcomes have (record 0663).
    public static func pastOutcomes(runner runs: [Verdicts]) -> [[MissionKind: OutcomeCount]] {
        let order = runs.indices.sorted { (runs[$0].start, runs[$0].runID) < (runs[$1].start, runs[$1].runID) }
        let window = RunnerState.outcomeWindowDays * 86_400
        var counts: [MissionKind: OutcomeCount] = [:]
        func count(_ v: Verdicts, _ sign: Int) {
            for c in v.checked {
                counts[c.spec.kind, default: OutcomeCount()].tried += sign
                if c.completed { counts[c.spec.kind, default: OutcomeCount()].completed += sign }
            }
        }
        var out = [[MissionKind: OutcomeCount]](repeating: [:], count: runs.count)
        var added = 0, removed = 0
        for i in order {
            let start = runs[i].start
            while added < order.count && runs[order[added]].start < start { count(runs[order[added]], 1); added += 1 }
            while removed < added && start - runs[order[removed]].start > window {
                count(runs[order[removed]], -1); removed += 1
            }
            out[i] = counts.filter { $0.value.tried > 0 }
        }
        return out
    }

    /// The labels before `history[index]`, with no past outcomes (`labels(runner:)` adds the
    /// runner's earlier labels); the parameters are `verdicts`'.
    public static func labels(history: [RunRecord], at index: Int, run: MissionRun?, utcOffset: Int = 0,
                              tolerance: MissionTolerance = .default, digests: [RunDigest] = []) -> [Label] {
        verdicts(history: history, at: index, run: run, utcOffset: utcOffset, tolerance: tolerance, digests: digests)
            .map { labels($0) } ?? []
    }

    /// The verdict of a summary-only run for `summaryKinds` (the evaluator's distance and
    /// duration rules on the summary's distance and moving time), nil for other kinds.
    public static func summaryStatus(_ spec: MissionSpec, record: RunRecord,
                                     tolerance: MissionTolerance = .default) -> MissionStatusResult? {
        switch spec {
        // The evaluator's own expressions (fraction of the accepted target ≥ 1), so that a value
        // at the boundary rounds the same way.
        case .distance(let minDistance):
            return record.distance / (minDistance * tolerance.distanceFraction) >= 1 ? .completed : .failed
        case .duration(let minDuration):
            return record.moving / (minDuration * tolerance.durationFraction) >= 1 ? .completed : .failed
        default:
            return nil
        }
    }
}
