/// Latencies in a log-linear histogram (HdrHistogram's layout, coarser): values in microseconds,
/// each power of two split into `subBuckets` equal buckets, so any percentile is reported with a
/// relative error below 1/subBuckets (12.5 %), in constant memory and O(1) per sample.
/// See docs/decisions/0511-latency-percentiles.md.
struct LatencyHistogram: Sendable {
    /// Buckets per power of two, a power of two >= 1.
    static let subBuckets = 8
    private static let subBits = 3
    /// Powers of two covered: up to 2^40 µs (about 12 days); larger values land in the last bucket.
    private static let powers = 40

    private var counts = [UInt64](repeating: 0, count: (powers + 1) * subBuckets)
    /// Samples recorded, >= 0.
    private(set) var total: UInt64 = 0
    /// Largest sample, in microseconds (exact, not bucketed).
    private(set) var maxMicroseconds: UInt64 = 0
    /// Sum of the samples, in microseconds (wraps after 584,000 years of service time).
    private(set) var sumMicroseconds: UInt64 = 0

    /// Bucket index of `v` µs: values below `subBuckets` get one bucket each; above, the top
    /// `subBits + 1` significant bits choose the bucket.
    static func index(of v: UInt64) -> Int {
        if v < UInt64(subBuckets) { return Int(v) }
        let shift = (63 - v.leadingZeroBitCount) - subBits  // >= 0 because v >= subBuckets
        let group = shift + 1
        if group > powers { return (powers + 1) * subBuckets - 1 }
        return group * subBuckets + Int((v >> UInt64(shift)) & UInt64(subBuckets - 1))
    }

    /// The largest value (µs) that maps to bucket `i`.
    static func upperBound(ofBucket i: Int) -> UInt64 {
        if i < subBuckets { return UInt64(i) }
        let group = i / subBuckets, sub = i % subBuckets
        let shift = group - 1
        let low = (UInt64(subBuckets) + UInt64(sub)) << UInt64(shift)
        return low + (UInt64(1) << UInt64(shift)) - 1
    }

    mutating func record(microseconds v: UInt64) {
        counts[Self.index(of: v)] += 1
        total += 1
        sumMicroseconds &+= v
        if v > maxMicroseconds { maxMicroseconds = v }
    }

    /// Samples at or below `microseconds`, counting a bucket only when all of it is (so a
    /// cumulative count within the buckets' 12.5 %, for a Prometheus `le`).
    func count(atMost microseconds: UInt64) -> UInt64 {
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            guard Self.upperBound(ofBucket: i) <= microseconds else { break }
            seen += c
        }
        return seen
    }

    /// The value (µs) at quantile `q` in 0...1: the upper bound of the bucket holding the
    /// ceil(q·total)-th smallest sample, capped at the exact maximum. 0 when empty.
    func quantile(_ q: Double) -> UInt64 {
        precondition((0...1).contains(q), "quantile \(q) outside 0...1")
        guard total > 0 else { return 0 }
        let rank = max(1, UInt64((q * Double(total)).rounded(.up)))
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            seen += c
            if seen >= rank { return min(Self.upperBound(ofBucket: i), maxMicroseconds) }
        }
        return maxMicroseconds
    }
}
