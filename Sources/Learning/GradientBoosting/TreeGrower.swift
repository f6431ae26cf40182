/// Grows one tree leaf-wise (best-first), LightGBM's `SerialTreeLearner::Train`: after each split
/// only the two new leaves get histograms and split candidates, then the leaf with the largest
/// gain among all leaves is split next, until `numLeaves` leaves exist or no leaf can be split.
///
/// Rows live in one index array in which every leaf is a contiguous range; splitting a leaf is a
/// stable partition of its range (LightGBM's `DataPartition`). The caller updates training
/// scores from those ranges (`leafRanges`), without sending rows back through the tree.
final class TreeGrower {
    struct Limits {
        /// Maximum leaves per tree, >= 2.
        var numLeaves: Int
        /// Maximum depth of a leaf (root = 0); <= 0 means unlimited.
        var maxDepth: Int
    }

    private struct Leaf {
        var begin: Int
        var count: Int
        var gradient: Double
        var hessian: Double
        var depth: Int
        /// Internal node whose child this leaf is, or -1 for the root.
        var parent: Int
        var isLeft: Bool
        var split: SplitInfo?
    }

    let data: BinnedDataset
    let splitter: Splitter
    let limits: Limits
    let parallel: Bool
    private let builder: HistogramBuilder
    private var pool: [UnsafeMutablePointer<Double>]
    /// Row indices of the current bag; leaf ranges index into it.
    let rows: UnsafeMutablePointer<Int32>
    private let spare: UnsafeMutablePointer<Int32>
    private(set) var rowCount = 0
    /// `(begin, count)` in `rows` of each leaf of the last grown tree, by leaf index.
    private(set) var leafRanges: [(begin: Int, count: Int)] = []

    init(data: BinnedDataset, splitter: Splitter, limits: Limits, parallel: Bool) {
        precondition(limits.numLeaves >= 2, "numLeaves \(limits.numLeaves) < 2")
        self.data = data
        self.splitter = splitter
        self.limits = limits
        self.parallel = parallel
        self.builder = HistogramBuilder(data: data, parallel: parallel)
        self.pool = (0..<limits.numLeaves).map { _ in .allocate(capacity: data.totalBins * HistogramBuilder.valuesPerBin) }
        self.rows = .allocate(capacity: max(data.rows, 1))
        self.spare = .allocate(capacity: max(data.rows, 1))
    }

    deinit {
        builder.deallocate()
        for p in pool { p.deallocate() }
        rows.deallocate()
        spare.deallocate()
    }

    /// Rows the next trees are grown on (the bag), increasing; copied into `rows` before each tree.
    private var baseRows: [Int32] = []

    /// Sets the rows the next trees are grown on (a bag), in increasing order.
    func setRows(_ indices: [Int32]) {
        baseRows = indices
        rowCount = indices.count
    }

    /// Grows a tree on the current rows. Leaf values are `shrinkage × (−G/(H + λ))`.
    func grow(pairs: UnsafePointer<Double>, featureUsed: [Bool],
              shrinkage: Double) -> DecisionTree {
        // Every tree starts from the bag in increasing row order, so the root's histogram reads
        // its rows sequentially and its sums do not depend on the previous tree's partition.
        baseRows.withUnsafeBufferPointer { rows.update(from: $0.baseAddress!, count: $0.count) }
        var g = 0.0, h = 0.0
        for i in 0..<rowCount { let r = Int(rows[i]); g += pairs[2 * r]; h += pairs[2 * r + 1] }
        var leaves = [Leaf(begin: 0, count: rowCount, gradient: g, hessian: h, depth: 0, parent: -1, isLeft: false, split: nil)]
        leaves.reserveCapacity(limits.numLeaves)
        var tree = DecisionTree(constant: 0)
        tree.leafCount = 1
        tree.shrinkage = shrinkage
        if canSplit(leaves[0]) {
            builder.build(into: pool[0], rows: rows, count: rowCount, pairs: pairs)
            leaves[0].split = findSplit(0, leaves[0], featureUsed)
        }
        while leaves.count < limits.numLeaves {
            var best = -1
            for (l, leaf) in leaves.enumerated() {
                guard let s = leaf.split else { continue }
                if best < 0 || s.gain > leaves[best].split!.gain { best = l }
            }
            if best < 0 { break }
            let split = leaves[best].split!
            let parent = leaves[best]
            let node = leaves.count - 1
            let newLeaf = leaves.count
            partition(begin: parent.begin, count: parent.count, split: split)
            let mapper = data.mappers[split.feature]
            tree.splitFeature.append(split.feature)
            tree.threshold.append(mapper.upperBounds[split.thresholdBin])
            let missing: DecisionTree.MissingType = mapper.hasMissing ? .nan : .none
            tree.decisionType.append((missing.rawValue << 2) | (split.defaultLeft ? DecisionTree.defaultLeftMask : 0))
            tree.leftChild.append(~best)
            tree.rightChild.append(~newLeaf)
            tree.splitGain.append(split.gain)
            tree.internalValue.append(shrinkage * splitter.leafOutput(gradient: parent.gradient, hessian: parent.hessian))
            tree.internalWeight.append(parent.hessian)
            tree.internalCount.append(parent.count)
            if parent.parent >= 0 {
                if parent.isLeft { tree.leftChild[parent.parent] = node } else { tree.rightChild[parent.parent] = node }
            }
            leaves[best] = Leaf(begin: parent.begin, count: split.leftCount, gradient: split.leftGradient,
                                hessian: split.leftHessian, depth: parent.depth + 1, parent: node, isLeft: true, split: nil)
            leaves.append(Leaf(begin: parent.begin + split.leftCount, count: split.rightCount, gradient: split.rightGradient,
                               hessian: split.rightHessian, depth: parent.depth + 1, parent: node, isLeft: false, split: nil))
            if leaves.count == limits.numLeaves { break }
            let leftOK = canSplit(leaves[best]), rightOK = canSplit(leaves[newLeaf])
            if !leftOK && !rightOK { continue }
            // Smaller child by brute force, sibling by subtraction: the parent's histogram sits in
            // pool[best]; build the smaller child into pool[newLeaf], subtract it from the parent,
            // then swap so that pool[l] is leaf l's histogram.
            let smallerIsLeft = split.leftCount <= split.rightCount
            let small = leaves[smallerIsLeft ? best : newLeaf]
            builder.build(into: pool[newLeaf], rows: rows + small.begin, count: small.count, pairs: pairs)
            builder.subtract(pool[newLeaf], from: pool[best])
            if smallerIsLeft { pool.swapAt(best, newLeaf) }
            // The two children's searches are independent: one per core.
            let found = UnsafeMutablePointer<SplitInfo?>.allocate(capacity: 2)
            defer { found.deallocate() }
            let children = (leaves[best], leaves[newLeaf])
            BinnedDataset.forEachChunk(2, parallel: parallel && leftOK && rightOK) { side in
                let ok = side == 0 ? leftOK : rightOK
                (found + side).initialize(to: ok ? findSplit(side == 0 ? best : newLeaf, side == 0 ? children.0 : children.1,
                                                             featureUsed) : nil)
            }
            leaves[best].split = found[0]
            leaves[newLeaf].split = found[1]
        }
        tree.leafCount = leaves.count
        tree.leafValue = leaves.map { shrinkage * splitter.leafOutput(gradient: $0.gradient, hessian: $0.hessian) }
        tree.leafWeight = leaves.map(\.hessian)
        tree.leafDataCount = leaves.map(\.count)
        leafRanges = leaves.map { ($0.begin, $0.count) }
        return tree
    }

    /// Checked before any histogram work (LightGBM does the same): enough rows and hessian for
    /// two children, and depth below `maxDepth`.
    private func canSplit(_ leaf: Leaf) -> Bool {
        leaf.count >= 2 * splitter.minDataInLeaf && leaf.hessian >= 2 * splitter.minSumHessianInLeaf
            && (limits.maxDepth <= 0 || leaf.depth < limits.maxDepth)
    }

    private func findSplit(_ l: Int, _ leaf: Leaf, _ featureUsed: [Bool]) -> SplitInfo? {
        splitter.bestSplit(histogram: pool[l], gradient: leaf.gradient, hessian: leaf.hessian, count: leaf.count,
                           featureUsed: featureUsed)
    }

    /// Stable partition of `rows[begin ..< begin + count]`: rows going left first. Large ranges
    /// are cut in two halves partitioned on two cores, then joined as left₀ left₁ right₀ right₁,
    /// which is the same order as one pass.
    private func partition(begin: Int, count: Int, split: SplitInfo) {
        let range = rows + begin, spare = self.spare
        let left: Int
        if parallel && count >= HistogramBuilder.parallelMinimumRows {
            let half = count / 2
            let lefts = UnsafeMutablePointer<Int>.allocate(capacity: 2)
            defer { lefts.deallocate() }
            BinnedDataset.forEachChunk(2, parallel: true) { part in
                lefts[part] = part == 0 ? partitionRun(range, count: half, spare: spare, split: split)
                    : partitionRun(range + half, count: count - half, spare: spare + half, split: split)
            }
            let l0 = lefts[0], l1 = lefts[1]
            for i in 0..<l1 { range[l0 + i] = range[half + i] }   // moves down: safe front to back
            (range + l0 + l1).update(from: spare, count: half - l0)
            (range + l0 + l1 + half - l0).update(from: spare + half, count: count - half - l1)
            left = l0 + l1
        } else {
            left = partitionRun(range, count: count, spare: spare, split: split)
            (range + left).update(from: spare, count: count - left)
        }
        precondition(left == split.leftCount, "partition put \(left) rows left, the histogram said \(split.leftCount)")
    }

    /// Writes the rows of `range[0..<count]` going left to the front of `range` and those going
    /// right to `spare`, both in order, without branching on the direction; returns the left count.
    private func partitionRun(_ range: UnsafeMutablePointer<Int32>, count: Int, spare: UnsafeMutablePointer<Int32>,
                              split: SplitInfo) -> Int {
        let column = data.bins + split.feature * data.rows
        let t = split.thresholdBin
        let missingBin = data.mappers[split.feature].missingBin
        let defaultLeft = split.defaultLeft
        var left = 0, right = 0
        for i in 0..<count {
            let r = range[i]
            let b = Int(column[Int(r)])
            let goesLeft = b == missingBin ? defaultLeft : b <= t
            range[left] = r
            spare[right] = r
            let l = goesLeft ? 1 : 0
            left &+= l
            right &+= 1 &- l
        }
        return left
    }
}
