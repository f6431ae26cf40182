import RunusCore

/// The first `baseCount` entries (and `baseSplits` splits) of `base`, read-only, then what a
/// snapshot adds.
struct LiveProfileOverlay: LiveSnapshotStorage {
    let base: LiveProfileArrays
    private var baseCount: Int, baseSplits: Int
    var extra = LiveProfileArrays()

    init(base: LiveProfileArrays) {
        self.base = base
        baseCount = base.count
        baseSplits = base.splits.count
    }

    var count: Int { baseCount + extra.count }
    func time(_ i: Int) -> EpochSeconds { i < baseCount ? base.entries[i].time : extra.entries[i - baseCount].time }
    func distance(_ i: Int) -> Meters { i < baseCount ? base.entries[i].distance : extra.entries[i - baseCount].distance }
    mutating func append(time: EpochSeconds, distance: Meters, moving: Bool) {
        extra.append(time: time, distance: distance, moving: moving)
    }
    mutating func appendSplit(_ split: Split) { extra.appendSplit(split) }
    mutating func truncate(count n: Int, splits k: Int) {
        extra.truncate(count: max(0, n - baseCount), splits: max(0, k - baseSplits))
        baseCount = min(baseCount, n)
        baseSplits = min(baseSplits, k)
    }

    /// The first `count` profile entries and first `splits` splits.
    func profile(count n: Int) -> DistanceProfile {
        let k = min(n, baseCount)
        return LiveProfileArrays.profile(Array(base.entries[..<k]) + extra.entries.prefix(n - k))
    }

    func splits(count n: Int) -> [Split] {
        let k = min(n, baseSplits)
        return Array(base.splits[..<k]) + extra.splits.prefix(n - k)
    }
}
