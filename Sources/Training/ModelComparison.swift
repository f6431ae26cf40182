import RunusCore
import Features
import Learning
import Missions
import Engine

/// Models and baselines scored on one time split's test slice (docs/decisions/0613): the split
/// `TrainingSplit` makes with the same train fraction as `runus train`, so every model trained
/// on this database with that fraction saw none of these rows.
public struct ModelComparison {
    public struct Row: Sendable {
        public let name: String
        public let scope: String
        public let rows: Int
        /// nil when the scope has a single class (AUC undefined).
        public let auc: Double?
        public let logLoss: Double, ece: Double
        public let maeTrue: Double?
    }

    /// A model to compare: its name in the table ("lr lr-1a2b…") and its scorer.
    public struct Candidate: Sendable {
        public let name: String
        public let scorer: any MissionScorer

        public init(name: String, scorer: any MissionScorer) {
            self.name = name; self.scorer = scorer
        }
    }

    /// What the comparison scores on, read before any model is: the split and the baselines'
    /// Riegel margins.
    public struct TestSlice: Sendable {
        public let split: TrainingSplit
        /// Riegel margin of every example, by runner and assignment (or label) id.
        public let margins: [RunnerScopedID: Double]

        /// The examples `runus train --labels` uses, split with `trainFraction` (0.5...0.95).
        public init(store: any TrainingStore, trainFraction: Double, labels: LabelSource = .logged,
                    resolver: any UTCOffsetResolver) throws {
            let data = try TrainingPipeline.examples(store: store, labels: labels, resolver: resolver)
            var margins = labels == .history ? [:] : try Baselines.riegelMargins(store: store)
            if let history = data.history {
                margins.merge(try Baselines.riegelMargins(labels: history.labels, store: store)) { a, _ in a }
            }
            self.margins = margins
            split = try TrainingSplit(data.examples, trainFraction: trainFraction, validationFraction: 0)
        }
    }

    public let rows: [Row]
    public let testRows: Int, testCutoff: EpochSeconds

    /// Every candidate, then the per-kind rate and the Riegel rule, overall and per kind.
    public init(_ slice: TestSlice, models: [Candidate]) throws {
        let split = slice.split
        var predictions = models.map { ($0.name, $0.scorer.probabilities(split.test.map(\.features))) }
        predictions.append(("baseline: per-kind rate", Baselines.baseRate(train: split.beforeTest, test: split.test)))
        predictions.append(("baseline: Riegel rule", try Baselines.riegel(train: split.beforeTest, test: split.test, margins: slice.margins)))
        var rows: [Row] = []
        let kinds = Set(split.test.map(\.kind)).sorted { $0.rawValue < $1.rawValue }
        let scopes: [(String, [Int])] = [("all", Array(split.test.indices))]
            + kinds.map { k in (k.rawValue, split.test.indices.filter { split.test[$0].kind == k }) }
        for (scope, indices) in scopes {
            for (name, p) in predictions {
                rows.append(try Self.row(name: name, scope: scope, indices: indices, p: p, test: split.test))
            }
        }
        self.rows = rows
        testRows = split.test.count
        testCutoff = split.testCutoff
    }

    static func row(name: String, scope: String, indices: [Int], p: [Double], test: [LabelledExample]) throws -> Row {
        let labels = indices.map { test[$0].label }, probabilities = indices.map { p[$0] }
        let auc = Set(labels).count == 2 ? try Metrics.rocAUC(labels: labels, scores: probabilities) : nil
        let known = indices.filter { test[$0].pTrue != nil }
        let mae = known.isEmpty ? nil : try Metrics.meanAbsoluteError(known.map { p[$0] }, known.map { test[$0].pTrue! })
        return Row(name: name, scope: scope, rows: indices.count, auc: auc,
                   logLoss: try Metrics.logLoss(labels: labels, probabilities: probabilities),
                   ece: try Metrics.expectedCalibrationError(labels: labels, probabilities: probabilities), maeTrue: mae)
    }

    /// The table `runus models compare` prints.
    public func markdown() -> String {
        let f = { (x: Double?) in x.map { TrainingPipeline.rounded($0) } ?? "–" }
        let withTruth = rows.contains { $0.maeTrue != nil }
        var out = "Test slice: \(testRows) tried missions from \(CivilDate(instant: testCutoff, utcOffset: 0)) (time split; baselines fitted on the rows before).\n\n"
        out += "| kind | model | test rows | AUC | log loss | ECE |" + (withTruth ? " mean abs(p̂ − p_true) |" : "") + "\n"
        out += "|---|---|---|---|---|---|" + (withTruth ? "---|" : "") + "\n"
        for r in rows {
            out += "| \(r.scope) | \(r.name) | \(r.rows) | \(f(r.auc)) | \(f(r.logLoss)) | \(f(r.ece)) |" + (withTruth ? " \(f(r.maeTrue)) |" : "") + "\n"
        }
        return out
    }
}
