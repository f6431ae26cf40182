import RunusCore
import Testing
@testable import Learning

/// The flat predictor against the recursive oracle (`NaiveTrees`) on random trees and rows chosen
/// to hit every edge of the split rule: values equal to thresholds, ±0, ±∞, NaN, tiny values.
/// Scores must agree bit for bit (same leaves, summed in the same order), so no tolerance.
@Suite("Flat tree predictor")
struct TreePredictorTests {
    /// Thresholds and values share this grid so that ties (value == threshold) are frequent.
    static let grid: [Double] = [-2.5, -1, -0.0, 0, 1e-36, 0.5, 1, 3.25]

    /// A random tree grown the way LightGBM numbers nodes: splitting leaf l makes a new node whose
    /// left child is l and right child the new leaf. `types` are the decision types to draw from.
    static func randomTree(leaves: Int, features: Int, types: [UInt8], rng: inout SeededGenerator) -> DecisionTree {
        var split: [Int] = [], threshold: [Double] = [], decision: [UInt8] = [], left: [Int] = [], right: [Int] = []
        var parent: [(node: Int, isLeft: Bool)?] = [nil]
        for _ in 1..<leaves {
            let leaf = rng.int(in: 0...(parent.count - 1)), node = split.count
            if let p = parent[leaf] { if p.isLeft { left[p.node] = node } else { right[p.node] = node } }
            split.append(rng.int(in: 0...(features - 1)))
            threshold.append(grid[rng.int(in: 0...(grid.count - 1))])
            decision.append(types[rng.int(in: 0...(types.count - 1))])
            left.append(~leaf)
            right.append(~parent.count)
            parent[leaf] = (node, true)
            parent.append((node, false))
        }
        let m = leaves - 1
        return DecisionTree(leafCount: leaves, splitFeature: split, threshold: threshold, decisionType: decision,
                            leftChild: left, rightChild: right, splitGain: .init(repeating: 0, count: m),
                            internalValue: .init(repeating: 0, count: m), internalWeight: .init(repeating: 0, count: m),
                            internalCount: .init(repeating: 0, count: m),
                            leafValue: (0..<leaves).map { _ in rng.uniform(-1, 1) },
                            leafWeight: .init(repeating: 0, count: leaves), leafDataCount: .init(repeating: 0, count: leaves),
                            shrinkage: 1)
    }

    /// Rows over the grid plus ±∞ and, with probability `nanRate` per value, NaN.
    static func randomRows(_ n: Int, features: Int, nanRate: Double, rng: inout SeededGenerator) -> Matrix {
        let values = grid + [.infinity, -.infinity, 0.75, -7]
        var x = Matrix(rows: n, cols: features)
        for i in 0..<n {
            for j in 0..<features {
                x[i, j] = rng.bernoulli(nanRate) ? .nan : values[rng.int(in: 0...(values.count - 1))]
            }
        }
        return x
    }

    /// Missing type none / NaN (both default directions); zero only where asked.
    static let ordinaryTypes: [UInt8] = [0, 2, 8, 10]

    static func check(_ trees: [DecisionTree], features: Int, rows: Matrix) {
        let model = GradientBoostingModel(trees: trees, featureCount: features)
        let batch = model.rawScores(x: rows)
        var arrays: [[Double]] = []
        for i in 0..<rows.rows {
            let row = rows.row(i)
            arrays.append(row)
            let oracle = NaiveTrees.rawScore(trees, row)
            #expect(batch[i] == oracle, "row \(i): batch \(batch[i]) vs recursive \(oracle)")
            #expect(model.rawScore(row: row) == oracle, "row \(i): single row")
        }
        #expect(model.rawScores(rows: arrays) == batch)
    }

    @Test("random trees: every batch size (eight-row groups and the rest) equals the recursive walk",
          arguments: [0, 1, 7, 8, 9, 50, 131])
    func batchSizes(count: Int) {
        var rng = SeededGenerator(seed: 306)
        let features = 5
        let trees = (0..<25).map { t in Self.randomTree(leaves: 1 + t % 13, features: features, types: Self.ordinaryTypes, rng: &rng) }
        Self.check(trees, features: features, rows: Self.randomRows(count, features: features, nanRate: 0, rng: &rng))
    }

    @Test("rows with NaN take the general walk, mixed with clean rows in one batch")
    func nanRows() {
        var rng = SeededGenerator(seed: 307)
        let features = 4
        let trees = (0..<30).map { _ in Self.randomTree(leaves: 9, features: features, types: Self.ordinaryTypes, rng: &rng) }
        Self.check(trees, features: features, rows: Self.randomRows(64, features: features, nanRate: 0.08, rng: &rng))
    }

    @Test("a model with missing_type=Zero nodes (LightGBM zero_as_missing) equals the recursive walk")
    func zeroMissing() {
        var rng = SeededGenerator(seed: 308)
        let features = 3
        let trees = (0..<20).map { _ in Self.randomTree(leaves: 7, features: features, types: [0, 4, 6, 10], rng: &rng) }
        #expect(TreePredictor(trees: trees).hasZeroMissing)
        Self.check(trees, features: features, rows: Self.randomRows(40, features: features, nanRate: 0.05, rng: &rng))
    }

    @Test("a deep chain tree (one long path) and one-leaf trees")
    func deepAndConstant() {
        // A 40-leaf caterpillar: each split's right child is the next split (depth 39).
        var rng = SeededGenerator(seed: 309)
        var tree = Self.randomTree(leaves: 2, features: 2, types: [0], rng: &rng)
        let m = 39
        tree = DecisionTree(leafCount: m + 1, splitFeature: (0..<m).map { $0 % 2 }, threshold: (0..<m).map { Double($0) / 10 - 2 },
                            decisionType: .init(repeating: 0, count: m), leftChild: (0..<m).map { ~$0 },
                            rightChild: (0..<m).map { $0 + 1 < m ? $0 + 1 : ~m }, splitGain: .init(repeating: 0, count: m),
                            internalValue: .init(repeating: 0, count: m), internalWeight: .init(repeating: 0, count: m),
                            internalCount: .init(repeating: 0, count: m), leafValue: (0...m).map { Double($0) / 7 },
                            leafWeight: .init(repeating: 0, count: m + 1), leafDataCount: .init(repeating: 0, count: m + 1), shrinkage: 1)
        #expect(TreePredictor(trees: [tree]).depths == [Int32(m)])
        var x = Matrix(rows: 20, cols: 2)
        for i in 0..<20 { x[i, 0] = Double(i) / 5 - 2.05; x[i, 1] = Double(19 - i) / 5 - 2 }
        Self.check([DecisionTree(constant: 0.25), tree, DecisionTree(constant: -1)], features: 2, rows: x)
        Self.check([DecisionTree(constant: 0.5)], features: 0, rows: Matrix(rows: 3, cols: 0))
    }
}
