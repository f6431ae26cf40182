import RunusCore
import Learning

/// How much each feature matters to one model (docs/decisions/0704-feature-importance.md).
public struct FeatureImportance: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public let feature: String
        /// GBDT: share of the total split gain (loss reduction) of splits on this feature, in [0, 1].
        public let gainShare: Double?
        /// LR: coefficient on the standardised feature, log-odds per standard deviation.
        public let standardisedCoefficient: Double?
        /// Mean increase of log loss (nats, usually >= 0) when the feature's column is permuted.
        public let permutationLogLoss: Double
        /// Mean decrease of AUC (usually >= 0) when the feature's column is permuted.
        public let permutationAUC: Double
    }

    /// Features in schema order.
    public let rows: [Row]
    /// Evaluation rows the permutations were scored on, and permutations per feature.
    public let permutationRows: Int, permutationRepeats: Int
}

extension FeatureImportance {
    /// Importance of `model` on the evaluation rows `x` with outcomes `labels`, seeded.
    static func compute(model: EvaluatedModel, x: Matrix, labels: [Double], configuration c: ReportConfiguration,
                        stream: UInt64) throws -> FeatureImportance {
        let p = model.featureNames.count
        precondition(x.cols == p && x.rows == labels.count, "importance: \(x.rows)×\(x.cols) rows for \(labels.count) labels, \(p) features")
        var rng = SeededGenerator(seed: c.seed, stream: stream)
        // A seeded sample of rows without replacement (partial Fisher–Yates) when there are many.
        var rows = Array(0..<x.rows)
        let m = min(c.permutationRows, x.rows)
        for i in 0..<m { rows.swapAt(i, i + Bootstrap.index(below: x.rows - i, &rng)) }
        rows = Array(rows[0..<m]).sorted()
        let sample = x.selectingRows(rows)
        let y = rows.map { labels[$0] }
        let base = try measure(model.probabilities(sample), y)
        var gain = [Double](repeating: 0, count: p)
        var coefficients: [Double]?
        switch model.parameters {
        case .gradientBoosting(let g, _, _):
            for tree in g.trees { for (k, f) in tree.splitFeature.enumerated() { gain[f] += tree.splitGain[k] } }
        case .logisticRegression(let lr):
            coefficients = lr.coefficients
        }
        let totalGain = gain.reduce(0, +)
        var out: [Row] = []
        var permuted = sample
        for j in 0..<p {
            var dLoss = 0.0, dAUC = 0.0
            for _ in 0..<c.permutationRepeats {
                var column = (0..<m).map { sample[$0, j] }
                for i in stride(from: m - 1, to: 0, by: -1) { column.swapAt(i, Bootstrap.index(below: i + 1, &rng)) }
                permuted.withUnsafeMutableBufferPointer { all in for i in 0..<m { all[i * p + j] = column[i] } }
                let score = try measure(model.probabilities(permuted), y)
                dLoss += score.logLoss - base.logLoss
                dAUC += (base.auc ?? 0) - (score.auc ?? 0)
            }
            permuted.withUnsafeMutableBufferPointer { all in for i in 0..<m { all[i * p + j] = sample[i, j] } }
            let r = Double(c.permutationRepeats)
            out.append(Row(feature: model.featureNames[j],
                           gainShare: coefficients == nil ? (totalGain > 0 ? gain[j] / totalGain : 0) : nil,
                           standardisedCoefficient: coefficients?[j], permutationLogLoss: dLoss / r, permutationAUC: dAUC / r))
        }
        return FeatureImportance(rows: out, permutationRows: m, permutationRepeats: c.permutationRepeats)
    }

    static func measure(_ p: [Double], _ y: [Double]) throws -> (logLoss: Double, auc: Double?) {
        let auc = try? Metrics.rocAUC(labels: y, scores: p)
        return (try Metrics.logLoss(labels: y, probabilities: p), auc)
    }
}
