import RunusCore

/// A point estimate with a percentile bootstrap interval.
public struct Interval: Sendable, Equatable {
    public let estimate: Double
    /// Bounds at (1 − confidence)/2 and (1 + confidence)/2 of the resampled values; nil when
    /// fewer than half the resamples had the measure defined (e.g. AUC with one class).
    public let lower: Double?, upper: Double?

    public init(estimate: Double, lower: Double?, upper: Double?) {
        self.estimate = estimate; self.lower = lower; self.upper = upper
    }

    /// Whether the interval excludes 0 (a difference that is clearly not zero).
    public var excludesZero: Bool {
        guard let lower, let upper else { return false }
        return lower > 0 || upper < 0
    }
}

/// Percentile bootstrap of the headline measures, for one or two models on the same draws
/// (paired), so differences get their own interval (docs/decisions/0702-bootstrap.md).
///
/// A draw is a weight per example: how many times it was drawn (example unit), or how many times
/// its runner was drawn (runner unit). `PreparedScores` measures a weighting in O(n), so B
/// resamples cost O(B·n) and never sort again.
struct Bootstrap {
    let prepared: [PreparedScores]
    /// Cluster (runner) index of each example, 0..<clusterCount; nil: each example is its own.
    let clusters: [Int32]?
    let clusterCount: Int
    let resamples: Int
    let confidence: Double

    /// Measures of every model on every resample: result[model][resample].
    func draws(seed: UInt64, stream: UInt64) -> [[MetricSet]] {
        let n = prepared[0].labels.count
        var rng = SeededGenerator(seed: seed, stream: stream)
        var out = [[MetricSet]](repeating: [], count: prepared.count)
        var weights = [Double](repeating: 0, count: n)
        var clusterWeights = [Double](repeating: 0, count: clusterCount)
        for _ in 0..<resamples {
            if let clusters {
                for c in 0..<clusterCount { clusterWeights[c] = 0 }
                for _ in 0..<clusterCount { clusterWeights[Self.index(below: clusterCount, &rng)] += 1 }
                clusters.withUnsafeBufferPointer { cl in
                    clusterWeights.withUnsafeBufferPointer { cw in
                        weights.withUnsafeMutableBufferPointer { w in for k in 0..<n { w[k] = cw[Int(cl[k])] } }
                    }
                }
            } else {
                for k in 0..<n { weights[k] = 0 }
                for _ in 0..<n { weights[Self.index(below: n, &rng)] += 1 }
            }
            weights.withUnsafeBufferPointer { w in
                for m in prepared.indices { out[m].append(prepared[m].metrics(weights: w)) }
            }
        }
        return out
    }

    /// Uniform integer in 0..<bound (Lemire's multiply-high; bias < bound / 2^64).
    @inline(__always)
    static func index(below bound: Int, _ rng: inout SeededGenerator) -> Int {
        Int(rng.next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Intervals of each measure for one model.
    func intervals(point: MetricSet, draws: [MetricSet]) -> [String: Interval] {
        var result: [String: Interval] = [:]
        for name in MetricSet.names {
            guard let estimate = point[name] else { continue }
            result[name] = interval(estimate: estimate, values: draws.compactMap { $0[name] })
        }
        return result
    }

    /// Intervals of a − b for each measure, on the same draws (paired).
    func differences(pointA: MetricSet, pointB: MetricSet, drawsA: [MetricSet], drawsB: [MetricSet]) -> [String: Interval] {
        var result: [String: Interval] = [:]
        for name in MetricSet.names {
            guard let a = pointA[name], let b = pointB[name] else { continue }
            var values: [Double] = []
            for r in drawsA.indices { if let x = drawsA[r][name], let y = drawsB[r][name] { values.append(x - y) } }
            result[name] = interval(estimate: a - b, values: values)
        }
        return result
    }

    func interval(estimate: Double, values: [Double]) -> Interval {
        if values.count * 2 < resamples { return Interval(estimate: estimate, lower: nil, upper: nil) }
        let sorted = values.sorted()
        let alpha = (1 - confidence) / 2
        return Interval(estimate: estimate, lower: Self.quantile(sorted, alpha), upper: Self.quantile(sorted, 1 - alpha))
    }

    /// Linear interpolation between order statistics (Hyndman–Fan type 7, numpy's default).
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        precondition(!sorted.isEmpty && (0...1).contains(q), "quantile \(q) of \(sorted.count) values")
        let h = Double(sorted.count - 1) * q
        let lo = Int(saturating: h.rounded(.down)), hi = min(lo + 1, sorted.count - 1)
        return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
    }
}
