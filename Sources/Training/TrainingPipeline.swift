import RunusCore
import Features
import Learning
import Missions

/// The first model path: labelled examples from a store → time split → L2 logistic regression →
/// held-out metrics → artifact. Deterministic: the same store and options give the same bytes.
public enum TrainingPipeline {
    public struct Options: Sendable {
        /// Penalty λ of the L2 logistic regression (scikit-learn's C = 1/λ).
        public var l2 = 1.0
        /// Fraction of the examples (by time) used for training, 0.5-0.95; the rest is the test set.
        public var trainFraction = 0.8
        /// Recorded in the artifact; LR with Newton's method draws no random numbers. Also the
        /// hash seed of the runners held out to choose `offsetPenalty` (with `seed + 1`).
        public var seed = 1
        /// Factor on λ for the per-kind terms of schema v15 (record 0666); nil: chosen from
        /// `OffsetPenalty.grid` on runners of the training slice held out as people.
        public var offsetPenalty: Double?

        public init() {}
    }

    public struct Evaluation: Sendable {
        public var rows = 0
        public var auc = 0.0, logLoss = 0.0, brier = 0.0, ece = 0.0
        /// Mean |p̂ − p_true| where the truth is known (simulated data), else nil.
        public var maeTrue: Double?
        /// The same per mission kind, with the rows it is over (kinds with a known truth only).
        public var maeTrueByKind: [MissionKind: (mae: Double, rows: Int)] = [:]
        public var baseRate = 0.0
    }

    public struct Result {
        public let artifact: ModelArtifact
        /// The time split the model was fitted and scored on (no validation slice).
        public let split: TrainingSplit
        public let test: Evaluation
        public let runners: Int
        public let firstTime: EpochSeconds
        public let lastTime: EpochSeconds
        public let completedByKind: [MissionKind: (tried: Int, completed: Int)]
        /// Where the training runs came from ("simulated", "import", "app"), sorted.
        public let sources: [String]
        /// How the per-kind terms' penalty was chosen; nil when it was given (or one runner).
        public var offsetChoice: OffsetPenalty.Choice? = nil

        /// Rows the model was fitted on: everything before the test cutoff.
        public var trainRows: Int { split.beforeTest.count }
        /// Earliest instant of the test slice, epoch seconds.
        public var cutoff: EpochSeconds { split.testCutoff }
    }

    public static func train(examples: [LabelledExample], runners: Int, sources: [String], options: Options) throws -> Result {
        let split = try TrainingSplit(examples, trainFraction: options.trainFraction, validationFraction: 0)
        let train = split.beforeTest, test = split.test
        let schema = MissionFeatures.schema
        let choice = try options.offsetPenalty == nil ? OffsetPenalty.choose(train, l2: options.l2, seed: options.seed) : nil
        let factor = options.offsetPenalty ?? choice?.factor ?? 1
        let x = Matrix(rowArrays: train.map(\.features), cols: schema.count)
        let model = try LogisticRegression.fit(x: x, y: train.map(\.label),
                                                configuration: .init(l2: options.l2, penaltyScale: OffsetPenalty.scale(factor)))
        let evaluation = try evaluate(model: model, on: test)
        let fingerprint = Self.fingerprint(examples)
        var metrics: [String: Double] = [
            "test_auc": evaluation.auc, "test_log_loss": evaluation.logLoss, "test_brier": evaluation.brier,
            "test_ece": evaluation.ece, "test_rows": Double(test.count), "test_base_rate": evaluation.baseRate,
            OffsetPenalty.metricKey: factor,
        ]
        for (f, loss) in choice?.validationLogLoss ?? [] { metrics[OffsetPenalty.lossKey(f)] = loss }
        if let mae = evaluation.maeTrue { metrics["test_mae_vs_true_p"] = mae }
        let report = model.fitReport
        let artifact = try ModelArtifact(
            model: model, modelVersion: "lr-\(fingerprint.prefix(8))", featureNames: schema.names,
            featureSchemaHash: schema.hash,
            training: .init(fingerprint: fingerprint, rows: train.count, seed: options.seed, l2: options.l2,
                            iterations: report?.iterations ?? 0, converged: report?.converged ?? false),
            metrics: metrics)
        return Result(artifact: artifact, split: split, test: evaluation, runners: runners,
                      firstTime: examples.first!.time, lastTime: examples.last!.time,
                      completedByKind: completedByKind(examples), sources: sources, offsetChoice: choice)
    }

    public static func evaluate(model: LogisticRegressionModel, on examples: [LabelledExample]) throws -> Evaluation {
        try evaluate(probabilities: examples.map { model.probability(row: $0.features) }, on: examples)
    }

    /// Held-out metrics of any model's probabilities `p` (one per example, in [0, 1]).
    public static func evaluate(probabilities p: [Double], on examples: [LabelledExample]) throws -> Evaluation {
        let labels = examples.map(\.label)
        var e = Evaluation()
        e.rows = examples.count
        e.auc = try Metrics.rocAUC(labels: labels, scores: p)
        e.logLoss = try Metrics.logLoss(labels: labels, probabilities: p)
        e.brier = try Metrics.brierScore(labels: labels, probabilities: p)
        e.ece = try Metrics.expectedCalibrationError(labels: labels, probabilities: p)
        e.baseRate = labels.reduce(0, +) / Double(labels.count)
        let known = examples.indices.filter { examples[$0].pTrue != nil }
        if !known.isEmpty {
            e.maeTrue = try Metrics.meanAbsoluteError(known.map { p[$0] }, known.map { examples[$0].pTrue! })
        }
        var byKind: [MissionKind: (sum: Double, rows: Int)] = [:]
        for i in known {
            guard let truth = examples[i].pTrue else { continue }
            byKind[examples[i].kind, default: (0, 0)].sum += abs(p[i] - truth)
            byKind[examples[i].kind, default: (0, 0)].rows += 1
        }
        e.maeTrueByKind = byKind.mapValues { ($0.sum / Double($0.rows), $0.rows) }
        return e
    }

    /// Tried and completed examples per mission kind.
    public static func completedByKind(_ examples: [LabelledExample]) -> [MissionKind: (tried: Int, completed: Int)] {
        var byKind: [MissionKind: (tried: Int, completed: Int)] = [:]
        for e in examples {
            var entry = byKind[e.kind] ?? (0, 0)
            entry.tried += 1
            entry.completed += e.label == 1 ? 1 : 0
            byKind[e.kind] = entry
        }
        return byKind
    }

    /// FNV-1a 64 over every example's id, label and feature bits, as 16 hex digits. Each id
    /// byte goes in widened to 8 bytes (as the first fingerprints were made, so cards agree).
    public static func fingerprint(_ examples: [LabelledExample]) -> String {
        var h = FNV1a()
        for e in examples {
            for b in e.assignmentID.utf8 { h.add(littleEndian: UInt64(b)) }
            h.add(littleEndian: e.label.bitPattern)
            for f in e.features { h.add(littleEndian: f.bitPattern) }
        }
        return h.hex
    }

    /// `x` rounded to `digits` decimals, as the cards and tables print it ("0.742").
    public static func rounded(_ x: Double, _ digits: Int = 3) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return "\((x * scale).rounded() / scale)"
    }
}
