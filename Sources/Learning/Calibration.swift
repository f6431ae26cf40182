/// Maps a model's scores to calibrated probabilities, fitted on held-out (score, label) pairs
/// (scikit-learn's `CalibratedClassifierCV` methods). Choices: docs/decisions/0314.
public enum Calibration {
    /// Platt scaling: P(y = 1 | s) = σ(a·s + b), a and b fitted by Newton's method on the log loss
    /// against Platt's smoothed targets t₊ = (N₊ + 1)/(N₊ + 2), t₋ = 1/(N₋ + 2) (Platt 1999; what
    /// scikit-learn's `_sigmoid_calibration` does), which keeps a and b finite on separable data.
    public struct Platt: Sendable, Equatable {
        /// Slope a on the score (per score unit) and intercept b (log-odds).
        public let slope: Double, intercept: Double
        /// Newton steps taken, >= 0.
        public let iterations: Int

        public func probability(score: Double) -> Double { Logistic.sigmoid(slope * score + intercept) }

        /// Maximum Newton steps; the 2-parameter problem converges in < 10.
        static let maxIterations = 100
        /// Stop when both gradient components are below this, per unit weight (dimensionless).
        static let tolerance = 1e-12

        /// Fits on `scores` (finite, e.g. raw log-odds) and `labels` (0 or 1).
        public static func fit(scores: [Double], labels: [Double]) throws -> Platt {
            try Calibration.check(scores: scores, labels: labels, method: "platt")
            let positives = labels.reduce(0, +), negatives = Double(labels.count) - positives
            let hi = (positives + 1) / (positives + 2), lo = 1 / (negatives + 2)
            var a = 0.0, b = Logistic.logit((positives + 1) / (Double(labels.count) + 2))
            var iterations = 0
            let n = Double(labels.count)
            while iterations < maxIterations {
                var ga = 0.0, gb = 0.0, haa = 0.0, hab = 0.0, hbb = 0.0
                for i in scores.indices {
                    let t = labels[i] == 1 ? hi : lo
                    let p = Logistic.sigmoid(a * scores[i] + b)
                    let r = p - t, w = max(p * (1 - p), 1e-12)
                    ga += r * scores[i]; gb += r
                    haa += w * scores[i] * scores[i]; hab += w * scores[i]; hbb += w
                }
                if abs(ga) / n < tolerance && abs(gb) / n < tolerance { break }
                let det = haa * hbb - hab * hab
                if !(det > 0) { break }
                a -= (hbb * ga - hab * gb) / det
                b -= (haa * gb - hab * ga) / det
                iterations += 1
            }
            return Platt(slope: a, intercept: b, iterations: iterations)
        }
    }

    /// Isotonic regression: the non-decreasing step function of the score closest in squared
    /// error to the labels (pool-adjacent-violators), evaluated by linear interpolation between
    /// its breakpoints and clipped outside them (scikit-learn's `IsotonicRegression(out_of_bounds="clip")`).
    public struct Isotonic: Sendable, Equatable {
        /// Breakpoint scores, strictly increasing, and the fitted probability at each, non-decreasing in [0, 1].
        public let thresholds: [Double], values: [Double]

        public func probability(score: Double) -> Double {
            if score <= thresholds[0] { return values[0] }
            if score >= thresholds[thresholds.count - 1] { return values[values.count - 1] }
            var lo = 0, hi = thresholds.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if thresholds[mid] <= score { lo = mid } else { hi = mid }
            }
            let f = (score - thresholds[lo]) / (thresholds[hi] - thresholds[lo])
            return values[lo] + f * (values[hi] - values[lo])
        }

        /// Fits on `scores` (finite) and `labels` (0 or 1); equal scores are pooled first.
        public static func fit(scores: [Double], labels: [Double]) throws -> Isotonic {
            try Calibration.check(scores: scores, labels: labels, method: "isotonic")
            let order = scores.indices.sorted { scores[$0] < scores[$1] }
            // Distinct scores with their label sums and counts.
            var xs: [Double] = [], sums: [Double] = [], weights: [Double] = []
            for i in order {
                if let last = xs.last, last == scores[i] { sums[sums.count - 1] += labels[i]; weights[weights.count - 1] += 1 } else {
                    xs.append(scores[i]); sums.append(labels[i]); weights.append(1)
                }
            }
            // Pool adjacent violators over blocks (mean = sum / weight, first index, last index).
            var blockSum: [Double] = [], blockWeight: [Double] = [], blockEnd: [Int] = []
            for k in xs.indices {
                blockSum.append(sums[k]); blockWeight.append(weights[k]); blockEnd.append(k)
                while blockSum.count > 1 {
                    let m = blockSum.count - 1
                    if blockSum[m - 1] / blockWeight[m - 1] <= blockSum[m] / blockWeight[m] { break }
                    blockSum[m - 1] += blockSum[m]; blockWeight[m - 1] += blockWeight[m]; blockEnd[m - 1] = blockEnd[m]
                    blockSum.removeLast(); blockWeight.removeLast(); blockEnd.removeLast()
                }
            }
            var fitted = [Double](repeating: 0, count: xs.count)
            var start = 0
            for (m, end) in blockEnd.enumerated() {
                for k in start...end { fitted[k] = blockSum[m] / blockWeight[m] }
                start = end + 1
            }
            // Keep only breakpoints where the value changes (first and last of each block), as scikit-learn does.
            var tx: [Double] = [], ty: [Double] = []
            for k in xs.indices {
                let keep = k == 0 || k == xs.count - 1 || fitted[k] != fitted[k - 1] || fitted[k] != fitted[k + 1]
                if keep { tx.append(xs[k]); ty.append(fitted[k]) }
            }
            return Isotonic(thresholds: tx, values: ty)
        }
    }

    static func check(scores: [Double], labels: [Double], method: String) throws {
        if scores.count != labels.count {
            throw LearningError.dimensionMismatch(what: "\(method) calibration: score count (one per label)", expected: labels.count, actual: scores.count)
        }
        if labels.isEmpty { throw LearningError.emptyData("\(method) calibration: no examples") }
        for (i, y) in labels.enumerated() where y != 0 && y != 1 { throw LearningError.invalidLabel(row: i, value: y) }
        for (i, s) in scores.enumerated() where !s.isFinite {
            throw LearningError.invalidMetricInput(metric: "\(method) calibration", row: i, value: s, expected: "a finite score")
        }
    }
}
