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

    var valueCount: Int { data.totalBins * Self.valuesPerBin }

    init(data: BinnedDataset, parallel: Bool) {
        self.data = data
        self.parallel = parallel
        scratch = .allocate(capacity: data.totalBins * Self.valuesPerBin)
        offsets = .allocate(capacity: data.features)
        for j in 0..<data.features { offsets[j] = data.featureOffsets[j] * Self.valuesPerBin }
    }

    func deallocate() {
        scratch.deallocate()
        offsets.deallocate()
    }

    /// Overwrites `histogram` with the sums over `rows[0..<count]`. `pairs` holds (g, h) of row r
    /// at `2r` and `2r + 1`: one cache line per scattered row instead of two.
    func build(into histogram: UnsafeMutablePointer<Double>, rows: UnsafePointer<Int32>, count: Int,
               pairs: UnsafePointer<Double>) {
        let values = valueCount
        if count < Self.parallelMinimumRows {
            accumulate(histogram, rows: rows, range: 0..<count, pairs: pairs)
            return
        }
        let half = count / 2
        let scratch = self.scratch
        BinnedDataset.forEachChunk(2, parallel: parallel) { part in
            if part == 0 {
                accumulate(histogram, rows: rows, range: 0..<half, pairs: pairs)
            } else {
                accumulate(scratch, rows: rows, range: half..<count, pairs: pairs)
            }
        }
        for k in 0..<values { histogram[k] += scratch[k] }
    }

    private func accumulate(_ histogram: UnsafeMutablePointer<Double>, rows: UnsafePointer<Int32>, range: Range<Int>,
                            pairs: UnsafePointer<Double>) {
        histogram.update(repeating: 0, count: valueCount)
        let p = data.features
        let bins = data.bins
        let offsets = self.offsets
        for i in range {
            let r = Int(rows[i])
            let g = pairs[2 &* r], h = pairs[2 &* r &+ 1]
            let rowBins = bins + r * p
            for j in 0..<p {
                let k = offsets[j] &+ Int(rowBins[j]) &* 3
                histogram[k] += g
                histogram[k + 1] += h
                histogram[k + 2] += 1
            }
        }
    }

    /// `parent -= child`, turning the parent's histogram into the child's sibling's, O(bins).
    func subtract(_ child: UnsafePointer<Double>, from parent: UnsafeMutablePointer<Double>) {
        for k in 0..<valueCount { parent[k] -= child[k] }
    }
}
