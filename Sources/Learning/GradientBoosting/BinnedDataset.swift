import Dispatch
import RunusCore

/// The training rows as bin indices, one `UInt8` per (row, feature), stored twice:
/// - column-major (`bins`), so partitioning a leaf on a feature, or building the histogram of a
///   leaf that holds a large share of the rows, reads 1-byte-per-row columns (LightGBM's dense
///   "col-wise" bins; a column of 800,000 rows fits in L2);
/// - row-major (`rowBins`), so the histogram of a leaf holding few, scattered rows reads one
///   record of `features` bytes per row instead of one cache line per row and feature
///   (LightGBM's "row-wise" layout).
/// The floats are never touched again during training.
struct BinnedDataset: @unchecked Sendable {
    let rows: Int
    let features: Int
    let mappers: [BinMapper]
    /// Histogram offset (in bins) of each feature, plus the total at the end; `features + 1` values.
    let featureOffsets: [Int]
    /// `rows × features` bin indices, column-major: feature j of row i at `j × rows + i`.
    let bins: UnsafeMutablePointer<UInt8>
    /// The same bin indices, row-major: feature j of row i at `i × features + j`.
    let rowBins: UnsafeMutablePointer<UInt8>
    private let owner: Owner

    final class Owner: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<UInt8>
        init(count: Int) { pointer = .allocate(capacity: max(count, 1)) }
        deinit { pointer.deallocate() }
    }

    var totalBins: Int { featureOffsets[features] }

    /// The bin of `feature` in `row`, both 0-based and in range.
    func bin(row: Int, feature: Int) -> Int { Int(bins[feature * rows + row]) }

    /// Finds bin boundaries on a seeded sample of at most `sampleCount` rows (all rows when fewer),
    /// then bins every row on `chunks` concurrent row ranges.
    init<T: FeatureTable>(_ table: T, maxBin: Int, minDataInBin: Int, sampleCount: Int, seed: UInt64, parallel: Bool) {
        let n = table.rowCount, p = table.featureCount
        let sampleRows = Self.sampleRows(n: n, k: min(n, sampleCount), seed: seed)
        var mappers = [BinMapper?](repeating: nil, count: p)
        mappers.withUnsafeMutableBufferPointer { out in
            let outBase = out.baseAddress!
            Self.forEachChunk(p, parallel: parallel) { j in
                let sample = sampleRows.map { table.value(row: $0, feature: j) }
                outBase[j] = BinMapper.fit(sample: sample, maxBin: maxBin, minDataInBin: minDataInBin)
            }
        }
        self.init(table, mappers: mappers.map { $0! }, parallel: parallel)
    }

    /// Bins `table` with given boundaries (e.g. a validation set with the training mappers).
    init<T: FeatureTable>(_ table: T, mappers: [BinMapper], parallel: Bool) {
        let n = table.rowCount, p = table.featureCount
        precondition(mappers.count == p, "\(mappers.count) bin mappers for \(p) features")
        self.rows = n
        self.features = p
        self.mappers = mappers
        var offsets = [0]
        for m in mappers { offsets.append(offsets.last! + m.binCount) }
        self.featureOffsets = offsets
        self.owner = Owner(count: 2 * n * p)
        self.bins = owner.pointer
        self.rowBins = owner.pointer + n * p
        let bins = self.bins, rowBins = self.rowBins
        // All upper bounds in one flat buffer, so the per-value search touches no array object.
        var bounds: [Double] = []
        var boundStart: [Int] = []
        for m in mappers { boundStart.append(bounds.count); bounds.append(contentsOf: m.upperBounds) }
        let blocks = max(1, (n + Self.rowBlock - 1) / Self.rowBlock)
        bounds.withUnsafeBufferPointer { flat in
            let flat = flat.baseAddress!
            Self.forEachChunk(blocks, parallel: parallel) { b in
                // Feature by feature over 256 rows at a time: the rows' values stay in L1/L2
                // while each feature's bounds are searched.
                var start = b * Self.rowBlock
                let end = min(n, (b + 1) * Self.rowBlock)
                while start < end {
                    let rowRange = start..<min(end, start + 256)
                    for j in 0..<p {
                        let ub = flat + boundStart[j], count = mappers[j].upperBounds.count
                        let missing = mappers[j].hasMissing ? count : -1
                        let column = bins + j * n
                        for i in rowRange {
                            let bin = Self.bin(table.value(row: i, feature: j), bounds: ub, count: count, missingBin: missing)
                            column[i] = UInt8(truncatingIfNeeded: bin)
                            rowBins[i * p + j] = UInt8(truncatingIfNeeded: bin)
                        }
                    }
                    start = rowRange.upperBound
                }
            }
        }
    }

    /// `BinMapper.bin` on raw bounds, without branches that depend on the value: the answer (the
    /// first bound >= v; the last bound is +inf) lies in `base ..< base + length`, halved by a
    /// 0-or-1 multiply per step, since random values would mispredict every compare-and-branch.
    @inline(__always)
    static func bin(_ value: Double, bounds ub: UnsafePointer<Double>, count: Int, missingBin: Int) -> Int {
        var v = value
        if v.isNaN {
            if missingBin >= 0 { return missingBin }
            v = 0
        }
        var base = 0, length = count
        while length > 1 {
            let half = length >> 1
            let right = ub[base &+ half &- 1] < v ? 1 : 0
            base &+= half &* right
            length &-= half
        }
        return base
    }

    /// Rows per binning task.
    static let rowBlock = 16_384

    /// `k` distinct row indices out of `0..<n`, increasing, chosen uniformly by selection
    /// sampling (Knuth's Algorithm S) from the seeded generator.
    static func sampleRows(n: Int, k: Int, seed: UInt64) -> [Int] {
        if k >= n { return Array(0..<n) }
        var rng = SeededGenerator(seed: seed, stream: 0xB1)
        var chosen: [Int] = []
        chosen.reserveCapacity(k)
        var needed = k
        for i in 0..<n where needed > 0 {
            if rng.uniform() * Double(n - i) < Double(needed) {
                chosen.append(i)
                needed -= 1
            }
        }
        return chosen
    }

    /// Runs `body(0..<count)`, on all cores when `parallel`, else in order on this thread.
    static func forEachChunk(_ count: Int, parallel: Bool, _ body: (Int) -> Void) {
        if parallel && count > 1 {
            // The callers' closures write disjoint ranges of buffers they own; Dispatch only needs
            // to run them, so the closure is handed over without a Sendable check.
            withoutActuallyEscaping(body) { escapable in
                let box = UncheckedSendable(value: escapable)
                DispatchQueue.concurrentPerform(iterations: count) { box.value($0) }
            }
        } else {
            for i in 0..<count { body(i) }
        }
    }
}

/// A value handed to another thread whose safety the caller guarantees (disjoint writes).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
