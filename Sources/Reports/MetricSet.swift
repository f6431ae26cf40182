#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Learning

/// The four headline measures of one model on one set of examples. AUC is nil when one class
/// is absent (undefined). Definitions are `Learning.Metrics`' (docs/decisions/0303).
public struct MetricSet: Sendable, Equatable {
    /// Area under the ROC curve, in [0, 1]; higher is better.
    public var auc: Double?
    /// Mean log loss, nats, >= 0; lower is better.
    public var logLoss: Double
    /// Brier score, in [0, 1]; lower is better.
    public var brier: Double
    /// Expected calibration error over 10 equal-width bins, in [0, 1]; lower is better.
    public var ece: Double

    public static let names = ["auc", "log_loss", "brier", "ece"]

    /// The measure called `name` (one of `names`).
    public subscript(name: String) -> Double? {
        switch name {
        case "auc": return auc
        case "log_loss": return logLoss
        case "brier": return brier
        case "ece": return ece
        default: preconditionFailure("unknown metric \(name)")
        }
    }
}

/// One model's scores on a fixed set of examples, prepared once so that any weighting of the
/// examples (a bootstrap draw) is measured in O(n) without sorting again: the order by score
/// with its tie groups, each example's log-loss and squared-error terms and its calibration bin.
struct PreparedScores {
    let labels: [Double]
    /// Example positions sorted by ascending score.
    let order: [Int32]
    /// End (exclusive, in `order`) of each group of equal scores.
    let groupEnds: [Int32]
    /// Labels in `order`'s order (sequential reads in the AUC pass).
    let sortedLabels: [Double]
    let lossTerm: [Double], squaredError: [Double], probability: [Double]
    let bin: [UInt8]
    let bins: Int

    init(labels: [Double], probabilities p: [Double], bins: Int = Metrics.calibrationBins) {
        precondition(labels.count == p.count, "\(p.count) probabilities for \(labels.count) labels")
        precondition(bins <= 255, "bins \(bins) > 255")
        self.labels = labels
        self.probability = p
        self.bins = bins
        let order = p.indices.sorted { p[$0] < p[$1] || (p[$0] == p[$1] && $0 < $1) }.map { Int32($0) }
        var ends: [Int32] = []
        var i = 0
        while i < order.count {
            var j = i + 1
            while j < order.count && p[Int(order[j])] == p[Int(order[i])] { j += 1 }
            ends.append(Int32(j))
            i = j
        }
        self.order = order
        self.groupEnds = ends
        self.sortedLabels = order.map { labels[Int($0)] }
        var loss = [Double](repeating: 0, count: p.count), sq = loss
        var bin = [UInt8](repeating: 0, count: p.count)
        for k in p.indices {
            let q = min(max(p[k], Metrics.logLossClip), 1 - Metrics.logLossClip)
            loss[k] = labels[k] == 1 ? -log(q) : -log(1 - q)
            sq[k] = (p[k] - labels[k]) * (p[k] - labels[k])
            bin[k] = UInt8(min(Int(saturating: p[k] * Double(bins)), bins - 1))
        }
        self.lossTerm = loss
        self.squaredError = sq
        self.bin = bin
    }

    /// The measures with example k counted `weights[k]` times (all ones: the plain metrics).
    /// Branch-free inner loops: a zero weight simply adds zero, and labels enter as 0/1 factors,
    /// because a data-dependent branch per example mispredicts about half the time.
    func metrics(weights w: UnsafeBufferPointer<Double>) -> MetricSet {
        var total = 0.0, loss = 0.0, sq = 0.0
        var binCount = [Double](repeating: 0, count: bins), binLabel = binCount, binP = binCount
        labels.withUnsafeBufferPointer { y in
            lossTerm.withUnsafeBufferPointer { l in
                squaredError.withUnsafeBufferPointer { e in
                    probability.withUnsafeBufferPointer { p in
                        bin.withUnsafeBufferPointer { b in
                            binCount.withUnsafeMutableBufferPointer { bc in
                                binLabel.withUnsafeMutableBufferPointer { bl in
                                    binP.withUnsafeMutableBufferPointer { bp in
                                        for k in 0..<y.count {
                                            let wk = w[k]
                                            total += wk
                                            loss += wk * l[k]
                                            sq += wk * e[k]
                                            let j = Int(b[k])
                                            bc[j] += wk
                                            bl[j] += wk * y[k]
                                            bp[j] += wk * p[k]
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        precondition(total > 0, "no example has positive weight")
        var ece = 0.0
        for b in 0..<bins { ece += abs(binLabel[b] - binP[b]) }
        return MetricSet(auc: auc(weights: w), logLoss: loss / total, brier: sq / total, ece: ece / total)
    }

    /// Weighted Mann–Whitney AUC: Σ_groups w₊(g)·(w₋ below g + w₋(g)/2) / (W₊·W₋).
    func auc(weights w: UnsafeBufferPointer<Double>) -> Double? {
        var negativesBelow = 0.0, pairs = 0.0, positives = 0.0
        order.withUnsafeBufferPointer { order in
            sortedLabels.withUnsafeBufferPointer { y in
                if groupEnds.count == order.count {
                    // No ties (the usual case for continuous scores): one example per group.
                    for i in 0..<order.count {
                        let wk = w[Int(order[i])], pos = wk * y[i], neg = wk - pos
                        pairs += pos * (negativesBelow + neg / 2)
                        negativesBelow += neg
                        positives += pos
                    }
                    return
                }
                var start = 0
                for endCode in groupEnds {
                    let end = Int(endCode)
                    var pos = 0.0, neg = 0.0
                    for i in start..<end {
                        let wk = w[Int(order[i])], p = wk * y[i]
                        pos += p
                        neg += wk - p
                    }
                    pairs += pos * (negativesBelow + neg / 2)
                    negativesBelow += neg
                    positives += pos
                    start = end
                }
            }
        }
        if positives == 0 || negativesBelow == 0 { return nil }
        return pairs / (positives * negativesBelow)
    }

    func metrics() -> MetricSet {
        let ones = [Double](repeating: 1, count: labels.count)
        return ones.withUnsafeBufferPointer { metrics(weights: $0) }
    }
}
