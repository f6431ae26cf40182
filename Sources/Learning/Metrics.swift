#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Binary-classification quality measures. Labels are 0 or 1, probabilities in [0, 1], and all
/// vectors have one value per example. Bad inputs throw `LearningError` naming the row.
/// Definitions (clip, bins, ties): docs/decisions/0303-metric-definitions.md.
public enum Metrics {
    /// Probabilities are clipped to [ε, 1 - ε] in `logLoss`, ε = 1e-15 (LightGBM's and older
    /// scikit-learn's value), so one confident mistake costs at most -ln(1e-15) ≈ 34.5 nats.
    public static let logLossClip = 1e-15
    /// Number of equal-width bins over [0, 1] in `expectedCalibrationError`.
    public static let calibrationBins = 10

    /// Area under the ROC curve, in [0, 1]: the probability that a random positive scores above
    /// a random negative, ties counting one half. Computed from average ranks (Mann–Whitney U),
    /// O(n log n). Scores may be any finite numbers (margins or probabilities). Throws when a
    /// class is absent, since the area is then undefined.
    public static func rocAUC(labels: [Double], scores: [Double]) throws -> Double {
        try checkLabels(labels, against: scores, metric: "roc_auc", values: "score", range: nil)
        let order = scores.indices.sorted { scores[$0] < scores[$1] }
        var positives = 0.0, rankSumOfPositives = 0.0
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && scores[order[end]] == scores[order[start]] { end += 1 }
            // Ranks start..<end (1-based start+1 ... end) share their average.
            let averageRank = Double(start + 1 + end) / 2
            for k in start..<end where labels[order[k]] == 1 {
                positives += 1
                rankSumOfPositives += averageRank
            }
            start = end
        }
        let negatives = Double(labels.count) - positives
        if positives == 0 || negatives == 0 {
            throw LearningError.emptyData("roc_auc: all \(labels.count) labels are \(positives == 0 ? 0 : 1); AUC needs both classes")
        }
        return (rankSumOfPositives - positives * (positives + 1) / 2) / (positives * negatives)
    }

    /// Mean log loss in nats, >= 0, with probabilities clipped to [`logLossClip`, 1 - `logLossClip`].
    public static func logLoss(labels: [Double], probabilities: [Double]) throws -> Double {
        try checkLabels(labels, against: probabilities, metric: "log_loss", values: "probability", range: 0...1)
        var total = 0.0
        for i in labels.indices {
            let p = min(max(probabilities[i], logLossClip), 1 - logLossClip)
            total -= labels[i] == 1 ? log(p) : log(1 - p)
        }
        return total / Double(labels.count)
    }

    /// Brier score: mean squared difference between probability and label, in [0, 1].
    public static func brierScore(labels: [Double], probabilities: [Double]) throws -> Double {
        try checkLabels(labels, against: probabilities, metric: "brier", values: "probability", range: 0...1)
        var total = 0.0
        for i in labels.indices {
            let d = probabilities[i] - labels[i]
            total += d * d
        }
        return total / Double(labels.count)
    }

    /// Expected calibration error, in [0, 1]: Σ_bins (n_b / n)·|mean label_b − mean probability_b|
    /// over `calibrationBins` equal-width bins; bin k holds p in [k/10, (k+1)/10), the last bin
    /// also holds p = 1. Empty bins contribute nothing.
    public static func expectedCalibrationError(labels: [Double], probabilities: [Double]) throws -> Double {
        try checkLabels(labels, against: probabilities, metric: "ece", values: "probability", range: 0...1)
        let bins = calibrationBins
        var counts = [Double](repeating: 0, count: bins)
        var labelSums = counts, probabilitySums = counts
        for i in labels.indices {
            let p = probabilities[i]
            let k = min(Int(p * Double(bins)), bins - 1)
            counts[k] += 1
            labelSums[k] += labels[i]
            probabilitySums[k] += p
        }
        var total = 0.0
        for k in 0..<bins where counts[k] > 0 {
            total += abs(labelSums[k] - probabilitySums[k])   // = n_b·|mean label − mean p|
        }
        return total / Double(labels.count)
    }

    /// Mean absolute difference between two probability vectors (e.g. learnt versus true), in [0, 1].
    public static func meanAbsoluteError(_ a: [Double], _ b: [Double]) throws -> Double {
        if a.count != b.count {
            throw LearningError.dimensionMismatch(what: "mean_absolute_error: second vector length", expected: a.count, actual: b.count)
        }
        if a.isEmpty { throw LearningError.emptyData("mean_absolute_error: no values") }
        try checkRange(a, metric: "mean_absolute_error", range: 0...1)
        try checkRange(b, metric: "mean_absolute_error", range: 0...1)
        var total = 0.0
        for i in a.indices { total += abs(a[i] - b[i]) }
        return total / Double(a.count)
    }

    private static func checkLabels(_ labels: [Double], against values: [Double], metric: String, values name: String,
                                    range: ClosedRange<Double>?) throws {
        if values.count != labels.count {
            throw LearningError.dimensionMismatch(what: "\(metric): \(name) count (one per label)", expected: labels.count, actual: values.count)
        }
        if labels.isEmpty { throw LearningError.emptyData("\(metric): no examples") }
        for (i, y) in labels.enumerated() where y != 0 && y != 1 { throw LearningError.invalidLabel(row: i, value: y) }
        if let range {
            try checkRange(values, metric: metric, range: range)
        } else {
            for (i, v) in values.enumerated() where !v.isFinite {
                throw LearningError.invalidMetricInput(metric: metric, row: i, value: v, expected: "a finite \(name)")
            }
        }
    }

    private static func checkRange(_ values: [Double], metric: String, range: ClosedRange<Double>) throws {
        for (i, v) in values.enumerated() where !range.contains(v) {   // NaN is never contained
            throw LearningError.invalidMetricInput(metric: metric, row: i, value: v, expected: "a probability in [0, 1]")
        }
    }
}
