import RunusCore
@testable import Learning

#if canImport(Glibc)
import Glibc
#endif

/// A seeded nonlinear binary problem for the boosting tests: 6 features (one with 10 % NaN,
/// one binary, one pure noise), a logit with a threshold, an interaction and a sine.
struct SyntheticTrees {
    var x: Matrix
    var y: [Double]
    /// True P(y = 1) per row.
    var truth: [Double]

    static func make(rows n: Int, seed: UInt64) -> SyntheticTrees {
        var rng = SeededGenerator(seed: seed)
        let p = 6
        var x = Matrix(rows: n, cols: p)
        var y = [Double](repeating: 0, count: n), truth = y
        for i in 0..<n {
            let a = rng.gaussian(mean: 0, sd: 1), b = rng.gaussian(mean: 0, sd: 1), c = rng.uniform() * 6 - 3
            let flag = rng.bernoulli(0.4) ? 1.0 : 0.0
            let missing = rng.bernoulli(0.1)
            let d = rng.gaussian(mean: 1, sd: 2)
            let noise = rng.gaussian(mean: 0, sd: 1)
            x[i, 0] = a; x[i, 1] = b; x[i, 2] = c; x[i, 3] = flag; x[i, 4] = missing ? .nan : d; x[i, 5] = noise
            let logit = 1.2 * a + (b > 0.5 ? 1.0 : -0.5) + 1.5 * flag * sin(c) + (missing ? 0.8 : -0.3 * d) - 0.2
            truth[i] = 1 / (1 + exp(-logit))
            y[i] = rng.bernoulli(truth[i]) ? 1 : 0
        }
        return SyntheticTrees(x: x, y: y, truth: truth)
    }
}

enum NaiveTrees {
    /// The obviously-correct recursive walk of a `DecisionTree` (LightGBM's rule spelled out).
    static func value(_ tree: DecisionTree, _ row: [Double], node: Int = 0) -> Double {
        if tree.leafCount == 1 { return tree.leafValue[0] }
        let d = tree.decisionType[node]
        let missingType = (d >> 2) & 3
        let defaultLeft = d & 2 != 0
        var v = row[tree.splitFeature[node]]
        let left: Bool
        if missingType == 2 && v.isNaN {
            left = defaultLeft
        } else {
            if v.isNaN { v = 0 }
            if missingType == 1 && abs(v) <= 1e-35 { left = defaultLeft } else { left = v <= tree.threshold[node] }
        }
        let child = left ? tree.leftChild[node] : tree.rightChild[node]
        return child < 0 ? tree.leafValue[~child] : value(tree, row, node: child)
    }

    static func rawScore(_ trees: [DecisionTree], _ row: [Double]) -> Double {
        var sum = 0.0
        for t in trees { sum += value(t, row) }
        return sum
    }
}
