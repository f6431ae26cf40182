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
        let blocks = max(1, (n + Self.rowBlock - 1) / Self.rowBlock)
        Self.forEachChunk(blocks, parallel: parallel) { b in
            for i in (b * Self.rowBlock)..<min(n, (b + 1) * Self.rowBlock) {
                for j in 0..<p {
                    let b = UInt8(truncatingIfNeeded: mappers[j].bin(table.value(row: i, feature: j)))
                    bins[j * n + i] = b
                    rowBins[i * p + j] = b
                }
            }
        }
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
