import Learning

/// A point of a ROC or precision–recall curve (both coordinates in [0, 1]).
public struct CurvePoint: Sendable, Equatable {
    public let x: Double, y: Double
    /// The score threshold (predict "completed" when p >= threshold), in [0, 1].
    public let threshold: Double
}

/// One bin of the reliability diagram, with a Wilson interval on the observed rate.
public struct ReliabilityPoint: Sendable, Equatable {
    /// Bin bounds, [lower, upper) in probability (the last bin also holds 1).
    public let lower: Double, upper: Double
    public let count: Int
    /// Mean predicted and observed completion in the bin, in [0, 1]; nil when empty.
    public let meanPredicted: Double?, observed: Double?
    /// 95% Wilson score interval of the observed rate, in [0, 1]; nil when empty.
    public let observedLower: Double?, observedUpper: Double?
}

/// One bin of the histogram of predicted probabilities, split by outcome.
public struct HistogramBin: Sendable, Equatable {
    public let lower: Double, upper: Double
    /// Examples in the bin that were completed / failed, >= 0.
    public let completed: Int, failed: Int
}

/// The curves of one model (docs/decisions/0703-curves.md).
public struct ModelCurves: Sendable, Equatable {
    /// ROC: x = false-positive rate, y = true-positive rate, from (0, 0) to (1, 1).
    public let roc: [CurvePoint]
    /// Precision–recall: x = recall, y = precision, from the highest threshold down.
    public let precisionRecall: [CurvePoint]
    /// Average precision Σ (Rₖ − Rₖ₋₁)·Pₖ (scikit-learn's step rule), in [0, 1].
    public let averagePrecision: Double
    public let reliability: [ReliabilityPoint]
    public let histogram: [HistogramBin]
}

extension ModelCurves {
    /// z of the two-sided 95% normal interval, for the Wilson bounds.
    static let z95 = 1.959_963_984_540_054

    init(prepared s: PreparedScores, configuration c: ReportConfiguration) throws {
        let positives = s.labels.reduce(0, +), negatives = Double(s.labels.count) - positives
        // Walk thresholds from the highest score down: each tie group enters at once.
        var roc = [CurvePoint(x: 0, y: 0, threshold: 1)]
        var pr: [CurvePoint] = []
        var tp = 0.0, fp = 0.0, ap = 0.0, lastRecall = 0.0
        var end = s.order.count
        for g in stride(from: s.groupEnds.count - 1, through: 0, by: -1) {
            let start = g == 0 ? 0 : Int(s.groupEnds[g - 1])
            for i in start..<end { if s.labels[Int(s.order[i])] == 1 { tp += 1 } else { fp += 1 } }
            let threshold = s.probability[Int(s.order[start])]
            let recall = positives > 0 ? tp / positives : 0
            let precision = tp / (tp + fp)
            roc.append(CurvePoint(x: negatives > 0 ? fp / negatives : 0, y: recall, threshold: threshold))
            pr.append(CurvePoint(x: recall, y: precision, threshold: threshold))
            ap += (recall - lastRecall) * precision
            lastRecall = recall
            end = start
        }
        self.roc = Self.thin(roc, to: c.curvePoints)
        self.precisionRecall = Self.thin(pr, to: c.curvePoints)
        self.averagePrecision = ap
        self.reliability = try Self.reliabilityPoints(labels: s.labels, probabilities: s.probability, bins: c.reliabilityBins)
        let bins = c.histogramBins
        var completed = [Int](repeating: 0, count: bins), failed = completed
        for k in s.labels.indices {
            let b = min(Int(saturating: s.probability[k] * Double(bins)), bins - 1)
            if s.labels[k] == 1 { completed[b] += 1 } else { failed[b] += 1 }
        }
        self.histogram = (0..<bins).map {
            HistogramBin(lower: Double($0) / Double(bins), upper: Double($0 + 1) / Double(bins),
                         completed: completed[$0], failed: failed[$0])
        }
    }

    /// The reliability bins of `probabilities` against `labels`, with Wilson bars.
    static func reliabilityPoints(labels: [Double], probabilities: [Double], bins: Int) throws -> [ReliabilityPoint] {
        try Metrics.reliabilityTable(labels: labels, probabilities: probabilities, bins: bins).map { b in
            guard b.count > 0 else {
                return ReliabilityPoint(lower: b.lower, upper: b.upper, count: 0, meanPredicted: nil, observed: nil,
                                        observedLower: nil, observedUpper: nil)
            }
            let (lo, hi) = Self.wilson(rate: b.observedRate, n: Double(b.count))
            return ReliabilityPoint(lower: b.lower, upper: b.upper, count: b.count, meanPredicted: b.meanPredicted,
                                    observed: b.observedRate, observedLower: lo, observedUpper: hi)
        }
    }

    /// The Wilson score interval of a proportion `rate` observed on `n` > 0 trials.
    static func wilson(rate p: Double, n: Double) -> (Double, Double) {
        let z2 = z95 * z95
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z95 * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return (max(0, centre - half), min(1, centre + half))
    }

    /// At most `limit` points: evenly spaced by index, first and last kept.
    static func thin(_ points: [CurvePoint], to limit: Int) -> [CurvePoint] {
        if points.count <= limit { return points }
        let step = Double(points.count - 1) / Double(limit - 1)
        return (0..<limit).map { points[Int((Double($0) * step).rounded())] }
    }
}
