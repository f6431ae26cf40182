/// Maps one feature's raw values to bins 0...255, LightGBM's `BinMapper`: bin boundaries are
/// found once, before training, and the trees are grown on bin indices only.
///
/// Bin b (0 ≤ b < `upperBounds.count`) holds the values v with `upperBounds[b-1] < v <= upperBounds[b]`;
/// the last upper bound is +∞. A split "bin <= t" is therefore the raw test `v <= upperBounds[t]`,
/// the operator LightGBM uses (docs/decisions/0310-gbdt-binning-and-split-operator.md).
/// When the binning sample contained NaN, NaN gets the extra bin `missingBin`
/// (`upperBounds.count`); otherwise a NaN is treated as 0.0, as LightGBM's `missing_type=None`.
public struct BinMapper: Sendable, Equatable {
    /// Inclusive upper bound of each non-missing bin, strictly increasing, last = +∞; 1...255 values.
    public let upperBounds: [Double]
    /// Whether NaN has its own bin (the binning sample contained NaN).
    public let hasMissing: Bool

    public init(upperBounds: [Double], hasMissing: Bool) {
        precondition(!upperBounds.isEmpty && upperBounds.count <= 255, "a feature needs 1...255 bins, got \(upperBounds.count)")
        precondition(upperBounds.last == .infinity, "the last upper bound must be +inf")
        self.upperBounds = upperBounds
        self.hasMissing = hasMissing
    }

    /// Number of histogram bins, including the missing bin when there is one; 1...256.
    public var binCount: Int { upperBounds.count + (hasMissing ? 1 : 0) }
    /// Index of the missing-value bin, or -1 when NaN is treated as 0.0.
    public var missingBin: Int { hasMissing ? upperBounds.count : -1 }

    /// The bin of `value`: binary search for the first upper bound >= value.
    @inlinable
    public func bin(_ value: Double) -> Int {
        var v = value
        if v.isNaN {
            if hasMissing { return upperBounds.count }
            v = 0
        }
        return upperBounds.withUnsafeBufferPointer { ub in
            var lo = 0, hi = ub.count - 1
            while lo < hi {
                let mid = (lo + hi) >> 1
                if v <= ub[mid] { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
    }

    /// Greedy near-quantile boundaries from a sample of one feature (LightGBM's `GreedyFindBin`,
    /// simplified): the distinct sample values, sorted, are packed into at most `maxBin` bins of
    /// about equal count, a value that alone reaches the mean bin size gets a bin of its own,
    /// every bin but the last holds >= `minDataInBin` sample values, and each boundary is the
    /// midpoint of the two neighbouring distinct values.
    ///
    /// - Parameters:
    ///   - sample: values of the feature on the sampled rows; NaN marks missing.
    ///   - maxBin: maximum number of non-missing bins, 2...255.
    ///   - minDataInBin: minimum sample count per bin, >= 1.
    public static func fit(sample: [Double], maxBin: Int, minDataInBin: Int) -> BinMapper {
        precondition((2...255).contains(maxBin) && minDataInBin >= 1, "maxBin \(maxBin) / minDataInBin \(minDataInBin) out of range")
        var values = sample.filter { !$0.isNaN }
        let hasMissing = values.count < sample.count
        values.sort()
        var distinct: [Double] = []
        var counts: [Int] = []
        for v in values {
            if let last = distinct.last, last == v { counts[counts.count - 1] += 1 } else { distinct.append(v); counts.append(1) }
        }
        var bounds: [Double] = []
        if distinct.count > 1 {
            let total = values.count
            let binLimit = max(1, min(maxBin, total / minDataInBin))
            var remainingCount = total
            var remainingBins = binLimit
            var mean = Double(remainingCount) / Double(remainingBins)
            var inBin = 0
            for i in 0..<(distinct.count - 1) where bounds.count < binLimit - 1 {
                inBin += counts[i]
                let nextIsBig = Double(counts[i + 1]) >= mean
                let full = Double(inBin) >= mean || (nextIsBig && inBin >= minDataInBin) || distinct.count <= binLimit
                if full && inBin >= minDataInBin {
                    bounds.append(midpoint(distinct[i], distinct[i + 1]))
                    remainingCount -= inBin
                    remainingBins -= 1
                    inBin = 0
                    if remainingBins > 0 { mean = Double(remainingCount) / Double(remainingBins) }
                }
            }
        }
        bounds.append(.infinity)
        return BinMapper(upperBounds: bounds, hasMissing: hasMissing)
    }

    /// A boundary strictly between a < b that is exact in Double (LightGBM: (a + b) / 2).
    static func midpoint(_ a: Double, _ b: Double) -> Double {
        let m = a / 2 + b / 2
        return m < b ? (m >= a ? m : a) : a
    }
}
