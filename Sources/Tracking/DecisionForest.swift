import RunusCore

/// A small random forest of CART trees (record 0142), as the activity classifier runs it: the
/// trees stored flat, read from their text form (`DecisionForest+Text.swift`) or built by the
/// training in `ActivityLab` (`DecisionForest(samples:labels:classCount:parameters:)`).
/// Prediction averages the trees' leaf distributions.
public struct DecisionForest: Sendable {
    /// One tree, stored flat: node i splits on `feature[i]` at `threshold[i]` (go left when the
    /// value is ≤ threshold), or is a leaf (`feature[i] == -1`) with class distribution
    /// `leaf[i]` (probabilities summing to 1).
    package struct Tree: Sendable {
        package var feature: [Int] = [], threshold: [Double] = [], left: [Int] = [], right: [Int] = []
        package var leaf: [[Double]] = []
        package init() {}
    }

    let trees: [Tree]
    /// Number of classes (labels are 0..<classCount).
    public let classCount: Int
    /// Number of features per sample.
    public let featureCount: Int

    /// A forest from its trees (for `init(text:)` and the training).
    package init(trees: [Tree], classCount: Int, featureCount: Int) {
        self.trees = trees
        self.classCount = classCount
        self.featureCount = featureCount
    }

    /// Class probabilities for one sample (`featureCount` values), summing to 1.
    public func probabilities(_ x: [Double]) -> [Double] {
        precondition(x.count == featureCount, "DecisionForest: expected \(featureCount) features, got \(x.count)")
        var p = [Double](repeating: 0, count: classCount)
        for tree in trees {
            var node = 0
            while tree.feature[node] >= 0 {
                node = x[tree.feature[node]] <= tree.threshold[node] ? tree.left[node] : tree.right[node]
            }
            for k in 0..<classCount { p[k] += tree.leaf[node][k] }
        }
        return p.map { $0 / Double(trees.count) }
    }

    /// The most probable class (lowest label on ties) and its probability.
    public func predict(_ x: [Double]) -> (label: Int, probability: Double) {
        let p = probabilities(x)
        var best = 0
        for k in 1..<classCount where p[k] > p[best] { best = k }
        return (best, p[best])
    }
}
