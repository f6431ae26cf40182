import RunusCore

/// The optimistic tail's profile: the decided stage's arrays (borrowed for the length of a
/// call, so that the decided stage stays their only owner between calls and appends without
/// copying) for entries before `start`, and its own entries from `start` on. The decided
/// entries from `start` on, when there are any, equal its own (the same segments, accepted the
/// same way), so either may be read; its own are dropped once the decided ones cover most of
/// them.
struct LiveProfileShadow: LiveProfileStorage, Sendable {
    private var base = LiveProfileArrays()
    /// Global index of `own`'s first entry and of its first split.
    private var start: Int, splitStart: Int
    private var own = LiveProfileArrays()
    /// A snapshot's copy (`detach()`) adds its entries here, never writing to `own`, which it
    /// shares with the tracker's (a write would copy the tail's entries).
    private var extra = LiveProfileArrays()
    private var detached = false

    /// 1: the optimistic stage advances its best efforts on every fix, so that a snapshot's copy
    /// finishes none (batching them would make every snapshot advance the pending ones, work
    /// that the stage then does again).
    static var effortBatch: Int { 1 }

    /// Starts where `decided` ends (its arrays borrowed).
    init(over decided: LiveProfileArrays) {
        base = decided
        start = decided.count
        splitStart = decided.splits.count
    }

    /// Reads `decided` for the entries before `start` until `release()`; drops own entries it
    /// covers once they are most of them (amortised O(1)).
    mutating func borrow(_ decided: LiveProfileArrays) {
        base = decided
        guard !detached else { return }
        precondition(decided.count >= start && decided.splits.count >= splitStart,
                     "LiveProfileShadow: the decided profile (\(decided.count) entries) is shorter than start \(start)")
        let covered = min(decided.count - start, own.count)
        if covered > 256 && covered * 2 > own.count {
            own.entries.removeFirst(covered)
            start += covered
        }
        let coveredSplits = min(decided.splits.count - splitStart, own.splits.count)
        if coveredSplits > 16 && coveredSplits * 2 > own.splits.count {
            own.splits.removeFirst(coveredSplits)
            splitStart += coveredSplits
        }
    }

    /// Drops the borrowed arrays.
    mutating func release() { base = LiveProfileArrays() }

    /// Makes this copy (a snapshot's) add its entries and splits apart from `own`.
    mutating func detach() { detached = true }

    var count: Int { start + own.count + extra.count }
    func time(_ i: Int) -> EpochSeconds {
        i < start ? base.entries[i].time : i - start < own.count ? own.entries[i - start].time
            : extra.entries[i - start - own.count].time
    }
    func distance(_ i: Int) -> Meters {
        i < start ? base.entries[i].distance : i - start < own.count ? own.entries[i - start].distance
            : extra.entries[i - start - own.count].distance
    }
    mutating func append(time: EpochSeconds, distance: Meters, moving: Bool) {
        if detached { extra.append(time: time, distance: distance, moving: moving) } else { own.append(time: time, distance: distance, moving: moving) }
    }
    mutating func appendSplit(_ split: Split) { if detached { extra.appendSplit(split) } else { own.appendSplit(split) } }
    mutating func truncate(count n: Int, splits k: Int) {
        precondition(n >= start && k >= splitStart, "LiveProfileShadow: cannot truncate to \(n) entries below start \(start)")
        if n - start >= own.count && k - splitStart >= own.splits.count {
            extra.truncate(count: n - start - own.count, splits: k - splitStart - own.splits.count)
            return
        }
        // Below `own`'s end (not reached by the optimistic snapshot, which has no cut): fold
        // `extra` in first.
        own.entries += extra.entries; own.splits += extra.splits
        extra = LiveProfileArrays()
        own.truncate(count: n - start, splits: k - splitStart)
    }

    /// The first `n` splits.
    func splits(count n: Int) -> [Split] {
        let k = min(n, splitStart)
        return Array(base.splits[..<k]) + own.splits.prefix(n - k) + extra.splits.prefix(max(0, n - k - own.splits.count))
    }
}
