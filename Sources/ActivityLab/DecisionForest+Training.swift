import RunusCore
import Tracking

/// Training the activity classifier's forest (record 0142): bootstrap samples, a random third of
/// the features tried at each split, Gini impurity over features binned at up to 64 training
/// quantiles, depth and leaf-size limits, class-balanced weights. Deterministic for a given seed.
/// Tracking keeps the trained forest, its prediction and its text form; training lives here.
extension DecisionForest {
    /// Training knobs; defaults in record 0142.
    public struct Parameters: Sendable {
        /// Number of trees, ≥ 1 (default 25).
        public var trees: Int
        /// Maximum depth, ≥ 1 (default 10).
        public var maxDepth: Int
        /// Smallest number of samples in a leaf, ≥ 1 (default 5).
        public var minLeaf: Int
        /// Seed of the bootstrap and feature draws.
        public var seed: UInt64
        public init(trees: Int = 25, maxDepth: Int = 10, minLeaf: Int = 5, seed: UInt64 = 140) {
            precondition(trees >= 1 && maxDepth >= 1 && minLeaf >= 1, "DecisionForest.Parameters: need positive sizes")
            self.trees = trees; self.maxDepth = maxDepth; self.minLeaf = minLeaf; self.seed = seed
        }
    }

    /// Trains on `samples` (each `featureCount` finite values) with `labels` in 0..<classCount.
    public init(samples: [[Double]], labels: [Int], classCount: Int, parameters: Parameters = .init()) {
        precondition(!samples.isEmpty && samples.count == labels.count, "DecisionForest: need as many labels as samples (>0)")
        precondition(labels.allSatisfy { (0..<classCount).contains($0) }, "DecisionForest: label outside 0..<\(classCount)")
        let f = samples[0].count
        var counts = [Double](repeating: 0, count: classCount)
        for y in labels { counts[y] += 1 }
        let present = Double(counts.filter { $0 > 0 }.count)
        let classWeight = counts.map { $0 > 0 ? Double(samples.count) / (present * $0) : 0 }
        var rng = SeededGenerator(seed: parameters.seed)
        var built: [Tree] = []
        let n = samples.count
        let binning = Binning(samples: samples, featureCount: f)
        for _ in 0..<parameters.trees {
            var indices = [Int](repeating: 0, count: n)
            for i in 0..<n { indices[i] = Int(rng.next() % UInt64(n)) }
            var builder = TreeBuilder(binning: binning, labels: labels, weights: classWeight, classCount: classCount,
                                      featureCount: f, tries: max(1, (f + 2) / 3), parameters: parameters)
            builder.grow(indices, depth: 0, rng: &rng)
            built.append(builder.tree)
        }
        self.init(trees: built, classCount: classCount, featureCount: f)
    }
}

/// Features quantised to at most 64 bins at training-set quantiles, so a split search is a
/// counting pass instead of a sort. `edges[f]` ascending; bin(v) = first j with v ≤ edges[f][j]
/// (edges.count when none), so "bin ≤ j" is "v ≤ edges[f][j]".
struct Binning {
    let edges: [[Double]]
    let codes: [[UInt8]]       // codes[f][sample]

    init(samples: [[Double]], featureCount: Int, bins: Int = 64) {
        var edges: [[Double]] = [], codes: [[UInt8]] = []
        for f in 0..<featureCount {
            let sorted = samples.map { $0[f] }.sorted()
            var e: [Double] = []
            for k in 1..<bins {
                let v = sorted[min(sorted.count - 1, k * sorted.count / bins)]
                if e.last.map({ v > $0 }) ?? true { e.append(v) }
            }
            edges.append(e)
            codes.append(samples.map { sample in
                var lo = 0, hi = e.count          // first j with v <= e[j]
                while lo < hi { let mid = (lo + hi) / 2; if sample[f] <= e[mid] { hi = mid } else { lo = mid + 1 } }
                return UInt8(lo)
            })
        }
        self.edges = edges
        self.codes = codes
    }
}

/// Grows one CART tree depth-first on binned features.
private struct TreeBuilder {
    let binning: Binning, labels: [Int], weights: [Double]
    let classCount: Int, featureCount: Int, tries: Int
    let parameters: DecisionForest.Parameters
    var tree = DecisionForest.Tree()

    @discardableResult
    mutating func grow(_ indices: [Int], depth: Int, rng: inout SeededGenerator) -> Int {
        var totals = [Double](repeating: 0, count: classCount)
        for i in indices { totals[labels[i]] += weights[labels[i]] }
        let node = tree.feature.count
        tree.feature.append(-1); tree.threshold.append(0); tree.left.append(-1); tree.right.append(-1)
        let sum = totals.reduce(0, +)
        tree.leaf.append(totals.map { $0 / sum })
        let pure = totals.filter { $0 > 0 }.count <= 1
        guard !pure, depth < parameters.maxDepth, indices.count >= 2 * parameters.minLeaf else { return node }
        // Random feature subset (partial Fisher–Yates).
        var features = Array(0..<featureCount)
        for k in 0..<tries {
            let j = k + Int(rng.next() % UInt64(featureCount - k))
            features.swapAt(k, j)
        }
        let parentGini = gini(totals, sum)
        var bestGain = 1e-12, bestFeature = -1, bestBin = 0
        for feature in features.prefix(tries) {
            let codes = binning.codes[feature]
            let binCount = binning.edges[feature].count + 1
            var weighted = [Double](repeating: 0, count: binCount * classCount)
            var members = [Int](repeating: 0, count: binCount)
            for i in indices {
                let b = Int(codes[i])
                weighted[b * classCount + labels[i]] += weights[labels[i]]
                members[b] += 1
            }
            var leftCounts = [Double](repeating: 0, count: classCount)
            var leftSum = 0.0, leftMembers = 0
            for b in 0..<(binCount - 1) {
                for k in 0..<classCount { leftCounts[k] += weighted[b * classCount + k]; leftSum += weighted[b * classCount + k] }
                leftMembers += members[b]
                guard members[b] > 0, leftMembers >= parameters.minLeaf,
                      indices.count - leftMembers >= parameters.minLeaf else { continue }
                var rightCounts = totals
                for k in 0..<classCount { rightCounts[k] -= leftCounts[k] }
                let rightSum = sum - leftSum
                let gain = parentGini - (leftSum * gini(leftCounts, leftSum) + rightSum * gini(rightCounts, rightSum)) / sum
                if gain > bestGain { bestGain = gain; bestFeature = feature; bestBin = b }
            }
        }
        guard bestFeature >= 0 else { return node }
        let codes = binning.codes[bestFeature]
        let leftIndices = indices.filter { Int(codes[$0]) <= bestBin }
        let rightIndices = indices.filter { Int(codes[$0]) > bestBin }
        tree.feature[node] = bestFeature
        tree.threshold[node] = binning.edges[bestFeature][bestBin]
        let l = grow(leftIndices, depth: depth + 1, rng: &rng)
        tree.left[node] = l
        let r = grow(rightIndices, depth: depth + 1, rng: &rng)
        tree.right[node] = r
        return node
    }

    func gini(_ counts: [Double], _ sum: Double) -> Double {
        guard sum > 0 else { return 0 }
        var s = 1.0
        for c in counts { let p = c / sum; s -= p * p }
        return s
    }
}
