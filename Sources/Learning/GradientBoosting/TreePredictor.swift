/// All trees of a model flattened into contiguous arrays for scoring: one array of 24-byte
/// nodes (threshold, feature, children, decision type) for every tree, one array of leaf values,
/// and the entry code of each tree. A child code >= 0 is a node index, a negative one is
/// `~leafIndex` into `leafValues`. Scoring walks these arrays on one thread, no allocation.
///
/// Batches are scored tree by tree (each tree's nodes stay in L1 while all rows pass through
/// it); the per-row sum is taken in tree order either way, so batch and single-row scores are
/// bitwise equal.
public struct TreePredictor: Sendable {
    struct Node: Sendable {
        var threshold: Double
        var feature: Int32
        var left: Int32
        var right: Int32
        var decisionType: UInt8
    }

    let nodes: [Node]
    let leafValues: [Double]
    /// Entry code of each tree (a node index, or `~leaf` for a one-leaf tree).
    let roots: [Int32]
    /// Features a row must have: 1 + the largest feature index used, >= 0.
    public let requiredFeatures: Int

    public init(trees: [DecisionTree]) {
        var nodes: [Node] = [], leaves: [Double] = [], roots: [Int32] = []
        var required = 0
        for tree in trees {
            let nodeBase = nodes.count, leafBase = leaves.count
            func code(_ child: Int) -> Int32 { child >= 0 ? Int32(nodeBase + child) : ~Int32(leafBase + ~child) }
            roots.append(tree.leafCount == 1 ? ~Int32(leafBase) : Int32(nodeBase))
            for k in 0..<(tree.leafCount - 1) {
                nodes.append(Node(threshold: tree.threshold[k], feature: Int32(tree.splitFeature[k]),
                                  left: code(tree.leftChild[k]), right: code(tree.rightChild[k]),
                                  decisionType: tree.decisionType[k]))
                required = max(required, tree.splitFeature[k] + 1)
            }
            leaves.append(contentsOf: tree.leafValue)
        }
        self.nodes = nodes
        self.leafValues = leaves
        self.roots = roots
        self.requiredFeatures = required
    }

    public var treeCount: Int { roots.count }

    /// Sum of the trees' values (log-odds) for one row of at least `requiredFeatures` values.
    public func rawScore(row x: UnsafePointer<Double>) -> Double {
        nodes.withUnsafeBufferPointer { nodes in
            leafValues.withUnsafeBufferPointer { leaves in
                var sum = 0.0
                for root in roots { sum += leaves[Int(~Self.walk(nodes, root, x))] }
                return sum
            }
        }
    }

    /// Raw scores of `count` rows stored `stride` values apart from `x`, into `out[0..<count]`.
    public func rawScores(rows x: UnsafePointer<Double>, count: Int, stride: Int, into out: UnsafeMutablePointer<Double>) {
        out.update(repeating: 0, count: count)
        nodes.withUnsafeBufferPointer { nodes in
            leafValues.withUnsafeBufferPointer { leaves in
                for root in roots {
                    for i in 0..<count {
                        out[i] += leaves[Int(~Self.walk(nodes, root, x + i * stride))]
                    }
                }
            }
        }
    }

    @inline(__always)
    static func walk(_ nodes: UnsafeBufferPointer<Node>, _ root: Int32, _ x: UnsafePointer<Double>) -> Int32 {
        var code = root
        while code >= 0 {
            let n = nodes[Int(code)]
            let v = x[Int(n.feature)]
            let left: Bool
            if n.decisionType & 0b1100 == 0 {
                // missing_type None, the common case: NaN compares as 0.0.
                left = (v.isNaN ? 0 : v) <= n.threshold
            } else {
                left = DecisionTree.goesLeft(v, threshold: n.threshold, decisionType: n.decisionType)
            }
            code = left ? n.left : n.right
        }
        return code
    }
}
