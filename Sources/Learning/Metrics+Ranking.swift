extension Metrics {
    /// Precision and recall among the `k` highest-scored examples ("of the k missions we would
    /// show, how many get completed"): precision = positives in the top k / k, in [0, 1];
    /// recall = positives in the top k / all positives, in [0, 1] (0 when there are none).
    /// Ties in score are broken by the lower row index first, so the result is deterministic.
    /// `k` is clamped to 1...n. Definitions: docs/decisions/0314-calibration-and-ranking-metrics.md.
    public static func precisionRecallAtK(labels: [Double], scores: [Double], k: Int) throws -> (precision: Double, recall: Double) {
        if scores.count != labels.count {
            throw LearningError.dimensionMismatch(what: "precision_at_k: score count (one per label)", expected: labels.count, actual: scores.count)
        }
        if labels.isEmpty { throw LearningError.emptyData("precision_at_k: no examples") }
        if k < 1 { throw LearningError.invalidMetricInput(metric: "precision_at_k", row: -1, value: Double(k), expected: "k >= 1") }
        for (i, y) in labels.enumerated() where y != 0 && y != 1 { throw LearningError.invalidLabel(row: i, value: y) }
        for (i, s) in scores.enumerated() where !s.isFinite {
            throw LearningError.invalidMetricInput(metric: "precision_at_k", row: i, value: s, expected: "a finite score")
        }
        let top = min(k, labels.count)
        let order = scores.indices.sorted { scores[$0] > scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }
        var hits = 0.0
        for i in order.prefix(top) { hits += labels[i] }
        let positives = labels.reduce(0, +)
        return (hits / Double(top), positives > 0 ? hits / positives : 0)
    }

    /// One bin of a reliability diagram.
    public struct ReliabilityBin: Sendable, Equatable {
        /// Bin bounds in probability, [lower, upper) (the last bin also holds 1).
        public let lower: Double, upper: Double
        /// Examples in the bin, >= 0.
        public let count: Int
        /// Mean predicted probability in the bin, in [0, 1]; NaN when empty.
        public let meanPredicted: Double
        /// Fraction of positives in the bin, in [0, 1]; NaN when empty.
        public let observedRate: Double
    }

    /// The reliability table behind `expectedCalibrationError`: `bins` equal-width bins over
    /// [0, 1], each with its count, mean prediction and observed positive rate.
    /// Σ_b count_b/n · |observedRate_b − meanPredicted_b| over non-empty bins is the ECE.
    public static func reliabilityTable(labels: [Double], probabilities: [Double], bins: Int = calibrationBins) throws -> [ReliabilityBin] {
        precondition(bins >= 1, "bins \(bins) < 1")
        if probabilities.count != labels.count {
            throw LearningError.dimensionMismatch(what: "reliability: probability count (one per label)", expected: labels.count, actual: probabilities.count)
        }
        if labels.isEmpty { throw LearningError.emptyData("reliability: no examples") }
        var counts = [Int](repeating: 0, count: bins)
        var labelSums = [Double](repeating: 0, count: bins), probabilitySums = labelSums
        for i in labels.indices {
            let y = labels[i], p = probabilities[i]
            if y != 0 && y != 1 { throw LearningError.invalidLabel(row: i, value: y) }
            if !(0...1).contains(p) {
                throw LearningError.invalidMetricInput(metric: "reliability", row: i, value: p, expected: "a probability in [0, 1]")
            }
            let b = min(Int(p * Double(bins)), bins - 1)
            counts[b] += 1
            labelSums[b] += y
            probabilitySums[b] += p
        }
        return (0..<bins).map { b in
            let n = Double(counts[b])
            return ReliabilityBin(lower: Double(b) / Double(bins), upper: Double(b + 1) / Double(bins), count: counts[b],
                                  meanPredicted: counts[b] > 0 ? probabilitySums[b] / n : .nan,
                                  observedRate: counts[b] > 0 ? labelSums[b] / n : .nan)
        }
    }
}
