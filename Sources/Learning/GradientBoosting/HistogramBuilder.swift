/// Gradient/hessian histograms of one leaf: for every (feature, bin) the sums Σg, Σh and the row
/// count, stored as interleaved `Double` triples (24 B per bin; ~7,200 bins ≈ 170 KB per leaf,
/// which stays in L2).
///
/// Cost: building is O(rows in leaf × features) of cheap additions, so the grower builds only
/// the *smaller* child by brute force and gets its sibling by subtraction from the parent,
/// O(bins) (`subtract`; LightGBM's histogram subtraction trick).
///
/// Paths (docs/decisions/0315): the leaf's (g, h) pairs are first gathered into leaf order
/// (LightGBM's ordered gradients; a consecutive run of rows, such as the root, is read in place).
/// A leaf with at least `rows / rowWiseDivisor` rows is then summed col-wise, each feature from
/// its own column of `BinnedDataset`, four features per pass over the rows, so the four 6 KB
/// histograms being written stay in L1; a smaller leaf reads the row-major records instead.
///
/// Parallelism (docs/decisions/0311): the features are cut into two fixed sets of about equal
/// bin counts, built on two cores into disjoint parts of the histogram. Every bin is a sum over
/// the leaf's rows in row order, whatever the number of threads, so the model does not depend on
/// it.
struct HistogramBuilder {
    /// Values per bin: Σ gradient, Σ hessian, row count.
    static let valuesPerBin = 3
    /// Leaves with fewer rows are built on one thread (splitting them costs more than it saves).
    static let parallelMinimumRows = 4_096

    let data: BinnedDataset
    let parallel: Bool
    /// `featureOffsets × valuesPerBin`, for the hot loop.
    private let offsets: UnsafeMutablePointer<Int>
    /// (g, h) of a leaf's rows in leaf order, `2 × rows` doubles.
    private let ordered: UnsafeMutablePointer<Double>
    /// Features `0..<featureSplit` are built by part 0, the rest by part 1.
    private let featureSplit: Int
    /// Per part: `gatherRows` row records gathered from `rowBins`.
    private let records: [UnsafeMutablePointer<UInt8>]

    /// A leaf with fewer than `rows / rowWiseDivisor` rows is built from the row-major records:
    /// below that density most cache lines of a column hold no row of the leaf.
    static let rowWiseDivisor = 16
    /// Row records gathered into a contiguous block before accumulating (fits L1 with 40 features).
    static let gatherRows = 64

    var valueCount: Int { data.totalBins * Self.valuesPerBin }

    init(data: BinnedDataset, parallel: Bool) {
        self.data = data
        self.parallel = parallel
        offsets = .allocate(capacity: max(data.features, 1))
        for j in 0..<data.features { offsets[j] = data.featureOffsets[j] * Self.valuesPerBin }
        ordered = .allocate(capacity: max(2 * data.rows, 2))
        featureSplit = data.featureOffsets.firstIndex { 2 * $0 >= data.totalBins } ?? data.features
        records = (0..<2).map { _ in .allocate(capacity: max(Self.gatherRows * data.features, 1)) }
    }

    func deallocate() {
        offsets.deallocate()
        ordered.deallocate()
        for r in records { r.deallocate() }
    }

    /// Overwrites `histogram` with the sums over `rows[0..<count]` (increasing, distinct row
    /// indices). `pairs` holds (g, h) of row r at `2r` and `2r + 1`.
    func build(into histogram: UnsafeMutablePointer<Double>, rows: UnsafePointer<Int32>, count: Int,
               pairs: UnsafePointer<Double>) {
        if count == 0 {
            histogram.update(repeating: 0, count: valueCount)
            return
        }
        let first = Int(rows[0])
        let run = Int(rows[count - 1]) - first == count - 1   // increasing distinct rows: consecutive
        let useBoth = parallel && count >= Self.parallelMinimumRows
        let ordered = self.ordered
        if !run {
            let half = useBoth ? count / 2 : count
            BinnedDataset.forEachChunk(useBoth ? 2 : 1, parallel: useBoth) { part in
                let range = part == 0 ? 0..<half : half..<count
                for i in range {
                    let r = Int(rows[i])
                    ordered[2 &* i] = pairs[2 &* r]
                    ordered[2 &* i &+ 1] = pairs[2 &* r &+ 1]
                }
            }
        }
        let gh = run ? pairs + 2 * first : UnsafePointer(ordered)
        BinnedDataset.forEachChunk(useBoth ? 2 : 1, parallel: useBoth) { part in
            let features = useBoth ? (part == 0 ? 0..<featureSplit : featureSplit..<data.features) : 0..<data.features
            if features.isEmpty { return }
            let lo = offsets[features.lowerBound]
            let hi = features.upperBound == data.features ? valueCount : offsets[features.upperBound]
            (histogram + lo).update(repeating: 0, count: hi - lo)
            if run {
                accumulateRun(histogram, features: features, first: first, count: count, gh: gh)
            } else if count * Self.rowWiseDivisor < data.rows {
                accumulateRecords(histogram, features: features, rows: rows, count: count, gh: gh, part: part)
            } else {
                accumulateRows(histogram, features: features, rows: rows, count: count, gh: gh)
            }
        }
    }

    /// Adds (g, h) as one two-lane add (each lane the same IEEE addition as a scalar one) and 1 to
    /// the count of the bin at value index `k`.
    @inline(__always)
    private static func add(_ histogram: UnsafeMutablePointer<Double>, _ k: Int, _ g: SIMD2<Double>) {
        let at = UnsafeMutableRawPointer(histogram + k)
        at.storeBytes(of: at.loadUnaligned(as: SIMD2<Double>.self) + g, as: SIMD2<Double>.self)
        histogram[k &+ 2] += 1
    }

    /// Rows `first ..< first + count`, whose (g, h) start at `gh`.
    private func accumulateRun(_ histogram: UnsafeMutablePointer<Double>, features: Range<Int>, first: Int, count: Int,
                               gh: UnsafePointer<Double>) {
        let n = data.rows, offsets = self.offsets
        let ghRaw = UnsafeRawPointer(gh)
        var j = features.lowerBound
        while j + 4 <= features.upperBound {
            let c0 = data.bins + (j &* n &+ first), c1 = c0 + n, c2 = c1 + n, c3 = c2 + n
            let h0 = histogram + offsets[j], h1 = histogram + offsets[j + 1]
            let h2 = histogram + offsets[j + 2], h3 = histogram + offsets[j + 3]
            for i in 0..<count {
                let g = ghRaw.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self)
                Self.add(h0, Int(c0[i]) &* 3, g)
                Self.add(h1, Int(c1[i]) &* 3, g)
                Self.add(h2, Int(c2[i]) &* 3, g)
                Self.add(h3, Int(c3[i]) &* 3, g)
            }
            j += 4
        }
        while j < features.upperBound {
            let c0 = data.bins + (j &* n &+ first), h0 = histogram + offsets[j]
            for i in 0..<count {
                Self.add(h0, Int(c0[i]) &* 3, ghRaw.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self))
            }
            j += 1
        }
    }

    /// Rows `rows[0..<count]`, whose (g, h) are gathered in the same order at `gh`.
    private func accumulateRows(_ histogram: UnsafeMutablePointer<Double>, features: Range<Int>,
                                rows: UnsafePointer<Int32>, count: Int, gh: UnsafePointer<Double>) {
        let n = data.rows, offsets = self.offsets
        let ghRaw = UnsafeRawPointer(gh)
        var j = features.lowerBound
        while j + 4 <= features.upperBound {
            let c0 = data.bins + j &* n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n
            let h0 = histogram + offsets[j], h1 = histogram + offsets[j + 1]
            let h2 = histogram + offsets[j + 2], h3 = histogram + offsets[j + 3]
            for i in 0..<count {
                let r = Int(rows[i])
                let g = ghRaw.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self)
                Self.add(h0, Int(c0[r]) &* 3, g)
                Self.add(h1, Int(c1[r]) &* 3, g)
                Self.add(h2, Int(c2[r]) &* 3, g)
                Self.add(h3, Int(c3[r]) &* 3, g)
            }
            j += 4
        }
        while j < features.upperBound {
            let c0 = data.bins + j &* n, h0 = histogram + offsets[j]
            for i in 0..<count {
                Self.add(h0, Int(c0[Int(rows[i])]) &* 3, ghRaw.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self))
            }
            j += 1
        }
    }

    /// Rows `rows[0..<count]` read from the row-major records: `gatherRows` records at a time are
    /// first copied into a contiguous block (a short loop, so many cache misses are in flight at
    /// once), then accumulated from L1.
    private func accumulateRecords(_ histogram: UnsafeMutablePointer<Double>, features: Range<Int>,
                                   rows: UnsafePointer<Int32>, count: Int, gh: UnsafePointer<Double>, part: Int) {
        let p = data.features, offsets = self.offsets
        let source = UnsafeRawPointer(data.rowBins), block = records[part]
        let ghRaw = UnsafeRawPointer(gh)
        let words = p / 8
        var i = 0
        while i < count {
            let m = min(Self.gatherRows, count - i)
            let target = UnsafeMutableRawPointer(block)
            for k in 0..<m {
                let src = source + Int(rows[i &+ k]) &* p, dst = target + k &* p
                for w in 0..<words {
                    dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 8 &* w, as: UInt64.self), toByteOffset: 8 &* w, as: UInt64.self)
                }
                for b in (8 &* words)..<p { dst.storeBytes(of: src.load(fromByteOffset: b, as: UInt8.self), toByteOffset: b, as: UInt8.self) }
            }
            for k in 0..<m {
                let g = ghRaw.loadUnaligned(fromByteOffset: 16 &* (i &+ k), as: SIMD2<Double>.self)
                let record = block + k &* p
                for j in features { Self.add(histogram + offsets[j], Int(record[j]) &* 3, g) }
            }
            i += m
        }
    }

    /// `parent -= child`, turning the parent's histogram into the child's sibling's, O(bins).
    func subtract(_ child: UnsafePointer<Double>, from parent: UnsafeMutablePointer<Double>) {
        for k in 0..<valueCount { parent[k] -= child[k] }
    }
}
