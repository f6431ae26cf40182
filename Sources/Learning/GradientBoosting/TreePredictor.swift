/// All trees of a model flattened into one contiguous array of 24-byte nodes for scoring, with
/// raw (unbinned) Double thresholds, so a row is scored without converting it to bins.
///
/// Layout (docs/decisions/0306-flat-tree-predictor.md): each tree is stored in preorder, right
/// child first; a node holds its threshold, its feature and both children's indices. Leaves are
/// nodes too, with threshold +∞ and both children = itself, so a walk that reached a leaf stays
/// there (v > +∞ is false for every Double). One step is branch-free:
/// `node = children[v > threshold ? 1 : 0]`, the child loaded from an address computed from the
/// comparison; the leaf value is read from `values` at the end.
///
/// That step is LightGBM's `v <= threshold → left` for every non-NaN value when the model has no
/// `missing_type=Zero` node (NaN handling is the only place where decision types differ). Rows
/// holding a NaN among the used features, and models with a zero-type node, take the general
/// walk (`DecisionTree.goesLeft` per node). Both sum the trees in boosting order from 0.0, so
/// batch, single-row, fast and general scores are bitwise equal to the recursive walk.
public struct TreePredictor: Sendable {
    struct Node: Sendable {
        /// Split threshold (go left when value <= threshold); +∞ for a leaf.
        var threshold: Double
        /// Feature index read at this node (0 for a leaf, which never uses it).
        var feature: UInt32
        /// Indices in `nodes` of the left and right children (the right one is this index + 1);
        /// both are the node itself for a leaf. Read as `children[goRight ? 1 : 0]` by address.
        var left: Int32
        var right: Int32
    }
    /// Byte offset of `Node.left`; `step` also relies on threshold at 0, feature at 8 and
    /// right right after left (checked at first use).
    static let leftOffset: Int = {
        let left = MemoryLayout<Node>.offset(of: \Node.left)!, right = MemoryLayout<Node>.offset(of: \Node.right)!
        precondition(MemoryLayout<Node>.offset(of: \Node.threshold) == 0 && MemoryLayout<Node>.offset(of: \Node.feature) == 8
                     && right == left + 4, "TreePredictor.Node's layout is not the one `step` reads")
        return left
    }()

    let nodes: [Node]
    /// Per node: LightGBM decision type (0 for leaves); read by the general walk only.
    let decisionTypes: [UInt8]
    /// Per node: the leaf value (log-odds contribution) for leaves, 0 for internal nodes.
    let values: [Double]
    /// Index in `nodes` of each tree's root.
    let roots: [Int32]
    /// Per tree: the longest root-to-leaf path in edges, >= 0 (0 for a one-leaf tree).
    let depths: [Int32]
    /// Whether some node uses LightGBM's `missing_type=Zero` (then every row takes the general walk).
    let hasZeroMissing: Bool
    /// Features a row must have: 1 + the largest feature index used, >= 0.
    public let requiredFeatures: Int

    public init(trees: [DecisionTree]) {
        var builder = Builder()
        for tree in trees { builder.append(tree) }
        precondition(builder.nodes.count < Int(Int32.max), "\(builder.nodes.count) nodes do not fit 32-bit indices")
        nodes = builder.nodes
        decisionTypes = builder.decisionTypes
        values = builder.values
        roots = builder.roots
        depths = builder.depths
        hasZeroMissing = builder.hasZeroMissing
        requiredFeatures = builder.required
    }

    public var treeCount: Int { roots.count }

    /// Sum of the trees' values (log-odds) for one row of at least `requiredFeatures` values.
    public func rawScore(row x: UnsafePointer<Double>) -> Double {
        var out = 0.0
        rawScores(rows: x, count: 1, stride: requiredFeatures, into: &out)
        return out
    }

    /// Raw scores of `count` rows stored `stride` values apart from `x` (stride >=
    /// `requiredFeatures`), into `out[0..<count]`. Allocates nothing; one thread.
    public func rawScores(rows x: UnsafePointer<Double>, count: Int, stride: Int, into out: UnsafeMutablePointer<Double>) {
        precondition(count >= 0 && (count <= 1 || stride >= requiredFeatures), "rawScores: stride \(stride) < \(requiredFeatures) features")
        out.update(repeating: 0, count: count)
        if count == 0 { return }
        nodes.withUnsafeBufferPointer { nodes in
            values.withUnsafeBufferPointer { values in
                let n = nodes.baseAddress!, v = values.baseAddress!
                if !hasZeroMissing && !Self.containsNaN(x, count: count, stride: stride, width: requiredFeatures) {
                    fastScores(n, v, x, count: count, stride: stride, into: out)
                    return
                }
                decisionTypes.withUnsafeBufferPointer { types in
                    for i in 0..<count {
                        let row = x + i * stride
                        if !hasZeroMissing && !Self.containsNaN(row, count: 1, stride: stride, width: requiredFeatures) {
                            fastScores(n, v, row, count: 1, stride: stride, into: out + i)
                        } else {
                            out[i] = generalScore(n, v, types.baseAddress!, row)
                        }
                    }
                }
            }
        }
    }

    /// Tree-major branch-free scoring of NaN-free rows: each tree's nodes stay in L1 while all
    /// rows pass through it. Eight rows walk side by side: one walk is a chain of dependent loads
    /// (node → feature value → compare → child), and eight independent chains keep the CPU busy.
    /// The eight stop together once a step moved none of them (all at leaves), so a group costs
    /// its longest path plus one step, not the tree's depth (docs/decisions/0306).
    private func fastScores(_ nodes: UnsafePointer<Node>, _ values: UnsafePointer<Double>, _ x: UnsafePointer<Double>,
                            count: Int, stride: Int, into out: UnsafeMutablePointer<Double>) {
        let offset = Self.leftOffset
        roots.withUnsafeBufferPointer { roots in
            depths.withUnsafeBufferPointer { depths in
                for t in 0..<roots.count {
                    let root = Int(roots[t]), depth = Int(depths[t])
                    var i = 0
                    while i + 8 <= count {
                        let x0 = x + i * stride, x1 = x0 + stride, x2 = x1 + stride, x3 = x2 + stride
                        let x4 = x3 + stride, x5 = x4 + stride, x6 = x5 + stride, x7 = x6 + stride
                        var k0 = root, k1 = root, k2 = root, k3 = root, k4 = root, k5 = root, k6 = root, k7 = root
                        for _ in 0..<depth {
                            let n0 = Self.step(nodes, k0, x0, offset)
                            let n1 = Self.step(nodes, k1, x1, offset)
                            let n2 = Self.step(nodes, k2, x2, offset)
                            let n3 = Self.step(nodes, k3, x3, offset)
                            let n4 = Self.step(nodes, k4, x4, offset)
                            let n5 = Self.step(nodes, k5, x5, offset)
                            let n6 = Self.step(nodes, k6, x6, offset)
                            let n7 = Self.step(nodes, k7, x7, offset)
                            let moved = (n0 ^ k0) | (n1 ^ k1) | (n2 ^ k2) | (n3 ^ k3) | (n4 ^ k4) | (n5 ^ k5) | (n6 ^ k6) | (n7 ^ k7)
                            k0 = n0; k1 = n1; k2 = n2; k3 = n3; k4 = n4; k5 = n5; k6 = n6; k7 = n7
                            if moved == 0 { break }
                        }
                        out[i] += values[k0]; out[i + 1] += values[k1]; out[i + 2] += values[k2]; out[i + 3] += values[k3]
                        out[i + 4] += values[k4]; out[i + 5] += values[k5]; out[i + 6] += values[k6]; out[i + 7] += values[k7]
                        i += 8
                    }
                    while i < count {
                        var k = root
                        let xi = x + i * stride
                        for _ in 0..<depth {
                            let n = Self.step(nodes, k, xi, offset)
                            if n == k { break }
                            k = n
                        }
                        out[i] += values[k]
                        i += 1
                    }
                }
            }
        }
    }

    /// One branch-free step: the right child when the value exceeds the threshold, else the left.
    /// The child is loaded from an address computed from the comparison, not selected, so the
    /// compiler cannot turn it into an unpredictable branch.
    @inline(__always)
    static func step(_ nodes: UnsafePointer<Node>, _ k: Int, _ x: UnsafePointer<Double>, _ leftOffset: Int) -> Int {
        let node = UnsafeRawPointer(nodes + k)
        let threshold = node.load(as: Double.self)
        let feature = node.load(fromByteOffset: 8, as: UInt32.self)
        let right = x[Int(feature)] > threshold ? 4 : 0
        return Int(node.load(fromByteOffset: leftOffset &+ right, as: Int32.self))
    }

    /// The general walk of every tree for one row (any decision type, NaN allowed).
    private func generalScore(_ nodes: UnsafePointer<Node>, _ values: UnsafePointer<Double>,
                              _ types: UnsafePointer<UInt8>, _ x: UnsafePointer<Double>) -> Double {
        var sum = 0.0
        for root in roots {
            var k = Int(root)
            while Int(nodes[k].left) != k {
                let node = nodes[k]
                k = Int(DecisionTree.goesLeft(x[Int(node.feature)], threshold: node.threshold, decisionType: types[k])
                    ? node.left : node.right)
            }
            sum += values[k]
        }
        return sum
    }

    /// Whether any of the first `width` values of `count` rows `stride` apart is NaN.
    @inline(__always)
    static func containsNaN(_ x: UnsafePointer<Double>, count: Int, stride: Int, width: Int) -> Bool {
        var nan: UInt8 = 0
        for i in 0..<count {
            let row = x + i * stride
            for j in 0..<width { nan |= row[j] != row[j] ? 1 : 0 }
        }
        return nan != 0
    }

    /// Appends trees in the predictor's layout.
    struct Builder {
        var nodes: [Node] = [], decisionTypes: [UInt8] = [], values: [Double] = []
        var roots: [Int32] = [], depths: [Int32] = []
        var hasZeroMissing = false
        var required = 0

        mutating func append(_ tree: DecisionTree) {
            roots.append(Int32(nodes.count))
            depths.append(Int32(tree.leafCount == 1 ? 0 : emit(tree, child: 0)))
            if tree.leafCount == 1 { emitLeaf(tree.leafValue[0]) }
        }

        /// Emits the subtree at `child` (>= 0 internal node, < 0 `~leaf`) in right-first preorder;
        /// returns its depth in edges.
        private mutating func emit(_ tree: DecisionTree, child: Int) -> Int {
            if child < 0 { emitLeaf(tree.leafValue[~child]); return 0 }
            let me = nodes.count
            let feature = tree.splitFeature[child]
            precondition(feature >= 0 && feature <= Int(UInt32.max), "tree feature \(feature) out of range")
            precondition(!tree.threshold[child].isNaN, "tree node \(child) has a NaN threshold")
            nodes.append(Node(threshold: tree.threshold[child], feature: UInt32(feature), left: -1, right: Int32(me + 1)))
            decisionTypes.append(tree.decisionType[child])
            values.append(0)
            required = max(required, feature + 1)
            if (tree.decisionType[child] >> 2) & 3 == DecisionTree.MissingType.zero.rawValue { hasZeroMissing = true }
            let rightDepth = emit(tree, child: tree.rightChild[child])
            nodes[me].left = Int32(nodes.count)
            let leftDepth = emit(tree, child: tree.leftChild[child])
            return 1 + max(leftDepth, rightDepth)
        }

        private mutating func emitLeaf(_ value: Double) {
            nodes.append(Node(threshold: .infinity, feature: 0, left: Int32(nodes.count), right: Int32(nodes.count)))
            decisionTypes.append(0)
            values.append(value)
        }
    }
}
