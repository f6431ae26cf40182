import RunusCore
import Features
import Learning
import Missions

/// Models and baselines scored on one time split's test slice (docs/decisions/0613): the split
/// `TrainingSplit` makes with the same train fraction as `runus train`, so every model trained
/// on this database with that fraction saw none of these rows.
struct ModelComparison {
    struct Row {
        let name: String
        let scope: String
        let rows: Int
        /// nil when the scope has a single class (AUC undefined).
        let auc: Double?
        let logLoss: Double, ece: Double
        let maeTrue: Double?
    }

    let rows: [Row]
    let testRows: Int, testCutoff: EpochSeconds

    static func run(store: SQLiteStoreReader, modelDirectories: [String], trainFraction: Double,
                    labels: LabelSource = .logged) throws -> ModelComparison {
        let (examples, margins) = try examplesAndMargins(store: store, labels: labels)
        let split = try TrainingSplit(examples, trainFraction: trainFraction, validationFraction: 0)
        var predictions: [(String, [Double])] = []
        for directory in modelDirectories {
            let loaded = try ModelFiles.load(from: directory)
            let name = "\(loaded.artifact.kindName) \(loaded.artifact.modelVersion)"
            predictions.append((name, loaded.scorer.probabilities(split.test.map(\.features))))
        }
        predictions.append(("baseline: per-kind rate", Baselines.baseRate(train: split.beforeTest, test: split.test)))
        predictions.append(("baseline: Riegel rule", try Baselines.riegel(train: split.beforeTest, test: split.test, margins: margins)))
        var rows: [Row] = []
        let kinds = Set(split.test.map(\.kind)).sorted { $0.rawValue < $1.rawValue }
        let scopes: [(String, [Int])] = [("all", Array(split.test.indices))]
            + kinds.map { k in (k.rawValue, split.test.indices.filter { split.test[$0].kind == k }) }
        for (scope, indices) in scopes {
            for (name, p) in predictions {
                rows.append(try row(name: name, scope: scope, indices: indices, p: p, test: split.test))
            }
        }
        return ModelComparison(rows: rows, testRows: split.test.count, testCutoff: split.testCutoff)
    }

    /// The examples `runus train --labels` uses (ordered by time, id) and their Riegel margins.
    static func examplesAndMargins(store: SQLiteStoreReader, labels: LabelSource) throws -> ([LabelledExample], [RunnerScopedID: Double]) {
        var examples: [LabelledExample] = [], margins: [RunnerScopedID: Double] = [:]
        if labels != .history {
            examples = try TrainingPipeline.examples(store: store).examples
            margins = try Baselines.riegelMargins(store: store)
        }
        if labels != .logged {
            let history = try HistoryLabelling.labels(store: store)
            examples += history.labels.map(\.example)
            margins.merge(try Baselines.riegelMargins(labels: history.labels, store: store)) { a, _ in a }
            examples.sort { ($0.time, $0.assignmentID, $0.userID) < ($1.time, $1.assignmentID, $1.userID) }
        }
        return (examples, margins)
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

    func markdown() -> String {
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
