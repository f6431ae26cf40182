import RunusCore
import Features
import Learning
import Missions
import Reports
import Engine

/// The evaluated examples of a report read from a store: the labelled examples of
/// `TrainingPipeline.examples` in the period, each with the runner's experience, the local day
/// and month of the offer, and every model's prediction.
public struct ReportData: Sendable {
    public let examples: [EvaluatedExample]
    /// Every mission offered in the period, tried or not (the policy section).
    public let recommended: [RecommendedMission]
    /// One row per example, in the schema's feature order (permutation importance).
    public let features: Matrix
    public let firstDay: String, lastDay: String
    /// One sentence on how the period was chosen.
    public let period: String

    /// The same data with example i's probabilities replaced by `probabilities(i)` (one per
    /// model, in [0, 1]), e.g. out-of-fold predictions of a validation by person.
    public func replacingProbabilities(_ probabilities: (Int) -> [Double]) -> ReportData {
        var examples = self.examples
        for i in examples.indices { examples[i].probabilities = probabilities(i) }
        return ReportData(examples: examples, recommended: recommended, features: features, firstDay: firstDay, lastDay: lastDay, period: period)
    }

    /// Share of the examples, by time, that trains (the rest is the default period), as in `runus train`.
    public static let trainFraction = 0.8

    /// The period is the local days `from`...`to` when both are given, else the held-out share
    /// of `runus train`; `resolver` gives the runners' offsets for history labels.
    public static func load(store: any TrainingStore, from: CivilDate?, to: CivilDate?, labels: LabelSource = .logged,
                            resolver: any UTCOffsetResolver, models: [EvaluatedModel]) throws -> ReportData {
        let all = try TrainingPipeline.examples(store: store, labels: labels, resolver: resolver).examples
        guard !all.isEmpty else { throw TrainingError.noExamples }
        // Local day of each offer from its assignment; the runner's fixed offset for examples without one.
        var dayOf: [RunnerScopedID: CivilDate] = [:]
        for a in try store.decidedAssignments() { dayOf[RunnerScopedID(user: a.userID, id: a.id)] = a.day }
        var offsets: [UserID: Int] = [:], runs: [UserID: [RunRecord]] = [:], offers: [MissionAssignment] = []
        for user in try store.allUsers() {
            offsets[user.id] = user.utcOffsetSeconds
            runs[user.id] = try store.allRuns(user: user.id).sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
            offers += try store.assignments(user: user.id, from: CivilDate(daysSinceEpoch: -1_000_000),
                                            to: CivilDate(daysSinceEpoch: 1_000_000))
        }
        /// Runs of `user` that started before `time`.
        func earlierRuns(_ user: UserID, _ time: EpochSeconds) -> Int {
            let starts = runs[user] ?? []
            var lo = 0, hi = starts.count
            while lo < hi { let mid = (lo + hi) / 2; if starts[mid].startTime < time { lo = mid + 1 } else { hi = mid } }
            return lo
        }
        func day(_ e: LabelledExample) -> CivilDate {
            dayOf[RunnerScopedID(user: e.userID, id: e.assignmentID)] ?? CivilDate(instant: e.time, utcOffset: offsets[e.userID] ?? 0)
        }
        let chosen: [LabelledExample], period: String, offered: [MissionAssignment]
        if let from, let to {
            chosen = all.filter { (from...to).contains(day($0)) }
            offered = offers.filter { (from...to).contains($0.day) }
            period = "offers from \(from) to \(to)"
        } else {
            let cutoff = TrainingSplit.cutoff(all, share: trainFraction)
            chosen = all.filter { $0.time >= cutoff }
            offered = offers.filter { $0.offeredAt >= cutoff }
            period = "last \(Int(saturating: ((1 - trainFraction) * 100).rounded()))% of examples by time, the held-out share of runus train"
        }
        guard !chosen.isEmpty else { throw TrainingError.noExamplesInPeriod(period) }
        let x = Matrix(rowArrays: chosen.map(\.features), cols: MissionFeatures.schema.count)
        let predictions = models.map { $0.probabilities(x) }
        var examples: [EvaluatedExample] = []
        examples.reserveCapacity(chosen.count)
        var first = day(chosen[0]), last = first
        for (i, e) in chosen.enumerated() {
            let d = day(e)
            first = min(first, d); last = max(last, d)
            let iso = d.description
            examples.append(EvaluatedExample(label: e.label, probabilities: predictions.map { $0[i] }, kind: e.kind.rawValue,
                                             runner: e.userID, experience: RunnerExperience(earlierRuns: earlierRuns(e.userID, e.time)),
                                             month: String(iso.prefix(7)), day: iso))
        }
        // Each offer's state as training and serving build it: the runner's earlier runs, past
        // outcomes, UTC offset and track digests (read once per runner with a modelled offer).
        let offersOf = Dictionary(grouping: offers, by: \.userID)
        var outcomes: [UserID: [PastOutcome]] = [:], digests: [UserID: [RunDigest]] = [:]
        func state(_ a: MissionAssignment) -> RunnerState {
            let user = a.userID, all = runs[user] ?? []
            if outcomes[user] == nil { outcomes[user] = PastOutcome.from(assignments: offersOf[user] ?? [], runs: all) }
            if digests[user] == nil { digests[user] = TrainingPipeline.digests(of: all, store: store) }
            return RunnerState(history: Array(all.prefix(earlierRuns(user, a.offeredAt))), outcomes: outcomes[user] ?? [],
                               asOf: a.offeredAt, utcOffset: offsets[user] ?? 0, digests: digests[user] ?? [])
        }
        return ReportData(examples: examples, recommended: try recommendations(offered, models: models, state: state),
                          features: x, firstDay: first.description, lastDay: last.description, period: period)
    }

    /// The offers as recommendations: features of `state` (as of the offer) for the kinds the
    /// schema models (`ExampleBuilder`'s rule), every model's prediction, and the outcome when tried.
    static func recommendations(_ offered: [MissionAssignment], models: [EvaluatedModel],
                                state: (MissionAssignment) -> RunnerState) throws -> [RecommendedMission] {
        var rows: [[Double]] = [], scoredIndex: [Int?] = []
        for a in offered {
            let spec: MissionSpec
            do { spec = try MissionSpec(json: try JSONParser.parse(a.specJSON)) } catch {
                throw TrainingError.invalidStoredSpec(assignment: a.id, problem: "\(error)")
            }
            guard MissionFeatures.models(spec.kind) else { scoredIndex.append(nil); continue }
            scoredIndex.append(rows.count)
            rows.append(MissionFeatures.vector(spec, state: state(a)))
        }
        let x = Matrix(rowArrays: rows, cols: MissionFeatures.schema.count)
        let predictions = rows.isEmpty ? models.map { _ in [Double]() } : models.map { $0.probabilities(x) }
        return offered.indices.map { i in
            let a = offered[i]
            let outcome: Double? = a.status == .completed ? 1 : a.status == .failed ? 0 : nil
            return RecommendedMission(runner: a.userID, day: a.day.description, kind: a.kind,
                                      probabilities: scoredIndex[i].map { k in predictions.map { $0[k] } }, outcome: outcome)
        }
    }
}
