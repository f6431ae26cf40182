/// Gradient/hessian histograms of one leaf: for every (feature, bin) the sums Σg, Σh and the row
/// count, stored as interleaved `Double` triples (24 B per bin; ~7,200 bins ≈ 170 KB per leaf,
/// which stays in L2).
///
/// Cost: building is O(rows in leaf × features) of cheap additions, so the grower builds only
/// the *smaller* child by brute force and gets its sibling by subtraction from the parent,
/// O(bins) (`subtract`; LightGBM's histogram subtraction trick).
///
/// Parallelism (docs/decisions/0311): a leaf with at least `parallelMinimumRows` rows is split into two fixed halves,
/// each accumulated into its own buffer on its own core and added in a fixed order, so the sums
/// (and hence the model) do not depend on how many threads actually ran.
struct HistogramBuilder {
    /// Values per bin: Σ gradient, Σ hessian, row count.
    static let valuesPerBin = 3
    /// Leaves with fewer rows are accumulated on one thread (splitting them costs more than it saves).
    static let parallelMinimumRows = 16_384

    let data: BinnedDataset
    let parallel: Bool
    /// Second half's accumulator, `totalBins × valuesPerBin` doubles.
    private let scratch: UnsafeMutablePointer<Double>
    /// `featureOffsets × valuesPerBin`, for the hot loop.
    private let offsets: UnsafeMutablePointer<Int>
    /// Per part (0, 1): `gatherRows` gathered (g, h) pairs, then `gatherRows × features` bins.
    private let gathered: [UnsafeMutableRawPointer]

    var valueCount: Int { data.totalBins * Self.valuesPerBin }

    /// Rows gathered into a contiguous block before accumulating (fits L1 with 40 features).
    static let gatherRows = 64

    init(data: BinnedDataset, parallel: Bool) {
        self.data = data
        self.parallel = parallel
        scratch = .allocate(capacity: data.totalBins * Self.valuesPerBin)
        offsets = .allocate(capacity: data.features)
        for j in 0..<data.features { offsets[j] = data.featureOffsets[j] * Self.valuesPerBin }
        let bytes = Self.gatherRows * (16 + data.features)
        gathered = (0..<2).map { _ in .allocate(byteCount: bytes, alignment: 16) }
    }

    func deallocate() {
        scratch.deallocate()
        offsets.deallocate()
        for g in gathered { g.deallocate() }
    }

    /// Overwrites `histogram` with the sums over `rows[0..<count]`. `pairs` holds (g, h) of row r
    /// at `2r` and `2r + 1`: one cache line per scattered row instead of two.
    func build(into histogram: UnsafeMutablePointer<Double>, rows: UnsafePointer<Int32>, count: Int,
               pairs: UnsafePointer<Double>) {
        let values = valueCount
        if count < Self.parallelMinimumRows {
            accumulate(histogram, rows: rows, range: 0..<count, pairs: pairs, part: 0)
            return
        }
        let half = count / 2
        let scratch = self.scratch
        BinnedDataset.forEachChunk(2, parallel: parallel) { part in
            if part == 0 {
                accumulate(histogram, rows: rows, range: 0..<half, pairs: pairs, part: 0)
            } else {
                accumulate(scratch, rows: rows, range: half..<count, pairs: pairs, part: 1)
            }
        }
        for k in 0..<values { histogram[k] += scratch[k] }
    }

    /// Sums rows `rows[range]` into `histogram` (zeroed first), in row order per bin. Rows that
    /// are not consecutive are first gathered, `gatherRows` at a time, into a contiguous block
    /// (their (g, h) pairs and bin records): the gather loop is short, so many cache misses are in
    /// flight at once, and the accumulation then reads only L1 (LightGBM's ordered gradients).
    private func accumulate(_ histogram: UnsafeMutablePointer<Double>, rows: UnsafePointer<Int32>, range: Range<Int>,
                            pairs: UnsafePointer<Double>, part: Int) {
        histogram.update(repeating: 0, count: valueCount)
        if range.isEmpty { return }
        let p = data.features
        let bins = data.bins
        let first = Int(rows[range.lowerBound]), last = Int(rows[range.upperBound - 1])
        if last - first == range.count - 1 {   // increasing distinct rows: a consecutive run
            Self.add(histogram, offsets: offsets, features: p, pairs: pairs + 2 * first, bins: bins + first * p,
                     count: range.count)
            return
        }
        let block = Self.gatherRows
        let gh = gathered[part].assumingMemoryBound(to: Double.self)
        let rb = (gathered[part] + 16 * block).assumingMemoryBound(to: UInt8.self)
        let words = p / 8
        var i = range.lowerBound
        while i < range.upperBound {
            let m = min(block, range.upperBound - i)
            for k in 0..<m {
                let r = Int(rows[i &+ k])
                gh[2 &* k] = pairs[2 &* r]
                gh[2 &* k &+ 1] = pairs[2 &* r &+ 1]
                let src = UnsafeRawPointer(bins + r &* p), dst = UnsafeMutableRawPointer(rb + k &* p)
                for w in 0..<words {
                    dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 8 &* w, as: UInt64.self),
                                   toByteOffset: 8 &* w, as: UInt64.self)
                }
                for b in (8 &* words)..<p { dst.storeBytes(of: src.load(fromByteOffset: b, as: UInt8.self), toByteOffset: b, as: UInt8.self) }
            }
            Self.add(histogram, offsets: offsets, features: p, pairs: gh, bins: rb, count: m)
            i += m
        }
    }

    /// The accumulation proper over `count` contiguous rows: Σg and Σh as one two-lane add, the
    /// count as a third (each lane is the same IEEE addition as a scalar one).
    @inline(__always)
    private static func add(_ histogram: UnsafeMutablePointer<Double>, offsets: UnsafePointer<Int>, features p: Int,
                            pairs: UnsafePointer<Double>, bins: UnsafePointer<UInt8>, count: Int) {
        let raw = UnsafeMutableRawPointer(histogram)
        for i in 0..<count {
            let g = UnsafeRawPointer(pairs + 2 &* i).loadUnaligned(as: SIMD2<Double>.self)
            let rowBins = bins + i &* p
            for j in 0..<p {
                let k = offsets[j] &+ Int(rowBins[j]) &* 3
                let at = raw + 8 &* k
                at.storeBytes(of: at.loadUnaligned(as: SIMD2<Double>.self) + g, as: SIMD2<Double>.self)
                histogram[k &+ 2] += 1
            }
        }
    }

    /// `parent -= child`, turning the parent's histogram into the child's sibling's, O(bins).
    func subtract(_ child: UnsafePointer<Double>, from parent: UnsafeMutablePointer<Double>) {
        for k in 0..<valueCount { parent[k] -= child[k] }
    }
}
