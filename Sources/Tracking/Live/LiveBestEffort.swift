import RunusCore

/// The fastest elapsed time over one distance, kept as `DistanceProfile.fastestDuration`
/// computes it (its two monotone pointers, advanced as the profile grows: O(1) amortised per
/// fix). Both are minima over the same candidate windows, so the results are identical. The batch
/// walks a third pointer, the end of the start-anchored windows; here it is always the newest
/// entry (see `advance`), so it is not kept.
struct LiveBestEffort: Sendable, Equatable {
    /// Distance in metres, > 0.
    let length: Meters
    /// Next window start to evaluate, and the start pointer of the end-anchored windows (profile
    /// indices).
    private var i = 0, k = 0
    /// Shortest duration so far in seconds (+∞ while the run is shorter than `length`).
    private(set) var best = Double.infinity
    /// Pointer moves so far, for the work count: the two pointers only move forward from 0, so
    /// their positions are the moves (not counted in the loops, record 0167).
    var work: Int { i + k }
    /// The start-anchored loop's last target (m): distance(i) + length, which exceeded the total
    /// when it stopped there; −∞ when the loop stopped for another reason.
    private var startTarget = -Double.infinity

    init(length: Meters) {
        precondition(length > 0, "LiveBestEffort: distance must be positive, got \(length)")
        self.length = length
    }

    /// Takes entry `n − 1` of the profile `p` into account as its newest, given the loads it
    /// needs: `n` (≥ 1), the cumulative distances (m) of entries `n − 1` and 0, and the time (s)
    /// of entry `n − 1` (inlined into the totals' batch loop, record 0167). Most fixes move no pointer: the
    /// start-anchored loop is skipped while the distance has not reached its cached target, and
    /// the end-anchored window reads only the entry after its start pointer (record 0163).
    @inline(__always) mutating func advance<S: LiveProfileReader>(_ p: S, count n: Int, total: Meters, first: Meters,
                                                                 newestTime: EpochSeconds) {
        // Windows starting at a fix, ending the first moment the distance reaches start + length.
        // `startTarget` is the loop's last `target`, which broke it (i unchanged since); the loop
        // would break at once again while it is still > total (the same comparison).
        //
        // Such a window ends on the newest step, j − 1 → j with j = n − 1: where the batch's walk
        // of j to the first entry whose distance reaches the target stops (record 0171). Entries
        // are advanced over in order, and the loop takes each start (in order, targets never
        // decreasing: distances are sums of steps ≥ 0) at the first entry whose distance reaches
        // its target, so entry n − 2's distance is below it and entry n − 1's is not.
        let j = n - 1
        if !(startTarget > total) {
            startTarget = -.infinity
            while i < n {
                let target = p.distance(i) + length
                if target > total { startTarget = target; break }
                // The window ends at or after fix j − 1 (the interpolation adds a non-negative part
                // of the step), so it cannot beat `best` when even that is `skipMargin` slower.
                if p.time(j - 1) - p.time(i) <= best + Self.skipMargin {
                    best = min(best, Self.interpolate(p, j - 1, j, target) - p.time(i))
                }
                i += 1
            }
        }
        // The window ending at the newest fix, starting the last moment at newest − length.
        let jn = n - 1
        let target = total - length
        guard target >= first else { return }
        // The pointer moves about one entry per entry, now and then none or two: its first step
        // is taken without a branch, so that only a second one is a surprise (record 0171). k + 1
        // < n here: the last entry's walk left k + 1 ≤ n − 1, and n ≥ 2 (else target < first).
        k += p.distance(k + 1) <= target ? 1 : 0
        while k + 1 < n && p.distance(k + 1) <= target { k += 1 }
        if k + 1 < n && k + 1 <= jn {
            // The window starts at or before fix k + 1 (the interpolation stays within the step).
            guard newestTime - p.time(k + 1) <= best + Self.skipMargin else { return }
            best = min(best, newestTime - Self.interpolate(p, k, k + 1, target))
        } else {
            best = min(best, newestTime - p.time(k))
        }
    }

    /// Whether advancing over entries whose cumulative distances are at most `total` (m, the
    /// last of them, not NaN), with `first` (m) the profile's first distance, leaves this effort
    /// as it is: its start-anchored loop is skipped at each of them (`startTarget` > `total` ≥
    /// their distance) and the end-anchored window does not fit (`total − length < first`). The
    /// distances are cumulative sums of non-negative steps, so those of a batch are at most its
    /// last, and none is NaN unless the last is (a NaN `total` answers false). Efforts longer than
    /// the run so far then cost nothing per fix (record 0167).
    @inline(__always) func waits(total: Meters, first: Meters) -> Bool {
        startTarget > total && total - length < first
    }

    /// Seconds by which a window's bound must exceed `best` for the window to be skipped
    /// without interpolating (1 ms: far above the rounding of the bound, a few ulps of an epoch
    /// time, ~1e-6 s, so a skipped window is never one that would have lowered `best`; the
    /// minimum is the batch's bit for bit, record 0161).
    static let skipMargin: Seconds = 1e-3

    /// `DistanceProfile.interpolateTime`: the time at distance `d` on the step a→b.
    private static func interpolate<S: LiveProfileReader>(_ p: S, _ a: Int, _ b: Int, _ d: Meters) -> EpochSeconds {
        let span = p.distance(b) - p.distance(a)
        if span <= 0 { return p.time(a) }
        return p.time(a) + (p.time(b) - p.time(a)) * (d - p.distance(a)) / span
    }
}
