/// Failed `auth` attempts counted per source address, daemon-wide (record 0513, amended by
/// issue 55): each source has a bucket of `burst` failures that refills one every `refill`
/// ns. An attempt from a source whose bucket is empty is answered `unauthorized` without the
/// token being compared, so it teaches nothing: 50 connections from one address guess no
/// faster than one. OpenSSH 9.8's `PerSourcePenalties` works the same way. A correct token
/// spends nothing, and a source that is not failing never waits, so one attacker's failures
/// never slow the backend's `auth` from another address. Pure: time comes in as monotonic ns.
struct AuthThrottle: Sendable {
    /// Failures a source may make in a burst, >= 1.
    let burst: Double
    /// Nanoseconds for one failure to be forgiven, > 0.
    let refill: Int64
    /// Sources tracked at most; beyond, those whose buckets are full are dropped first.
    let maximumSources: Int

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Int64
    }
    private var buckets: [[UInt8]: Bucket] = [:]

    init(burst: Int, refill: Int64, maximumSources: Int = 65_536) {
        self.burst = Double(max(1, burst))
        self.refill = max(1, refill)
        self.maximumSources = max(1, maximumSources)
    }

    var trackedSources: Int { buckets.count }

    /// Nil when an attempt from `source` may be compared now; else the ns until it may.
    func wait(source: [UInt8], now: Int64) -> Int64? {
        guard let bucket = buckets[source] else { return nil }
        let tokens = level(bucket, now: now)
        guard tokens < 1 else { return nil }
        // At most `refill` ns; saturating, so no configuration can make it trap.
        return min(refill, Int64(Int(saturating: ((1 - tokens) * Double(refill)).rounded(.up))))
    }

    /// A compared attempt from `source` failed: it spends one failure.
    mutating func failed(source: [UInt8], now: Int64) {
        var bucket = buckets[source] ?? Bucket(tokens: burst, updated: now)
        bucket.tokens = max(0, level(bucket, now: now) - 1)
        bucket.updated = now
        if buckets[source] == nil, buckets.count >= maximumSources { evict(now: now) }
        buckets[source] = bucket
    }

    /// Failures left to `bucket` at `now`, refilled since it was last spent.
    private func level(_ bucket: Bucket, now: Int64) -> Double {
        let elapsed = Double(max(0, now - bucket.updated))
        return min(burst, bucket.tokens + elapsed / Double(refill))
    }

    /// Makes room: drops every source forgiven by now, or, when every one is still failing,
    /// the one spent longest ago.
    private mutating func evict(now: Int64) {
        let full = buckets.filter { level($0.value, now: now) >= burst }.map(\.key)
        for key in full { buckets[key] = nil }
        if buckets.count >= maximumSources, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated })?.key {
            buckets[oldest] = nil
        }
    }
}
