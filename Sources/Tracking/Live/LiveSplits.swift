import RunusCore

/// `RunMetrics.splits` over `DistanceProfile.movingDuration`, split by split as segments come:
/// each split's duration is the sum of the same terms in the same (segment) order, so the same
/// floating-point sum. A split is final once the distance passes its end by more than 1 mm
/// (batch's rounding rule). Keeps, for the current split, two sums, one ending at its nominal end
/// and one open-ended (the partial last split, ending at the total), and the moving segments that
/// reach past the nominal end, to start the next split with; the finished splits go to the
/// profile storage, or stay here (`keepsFinished`, for the few dozen mile splits).
struct LiveSplits: Sendable {
    /// A moving segment's part in the splits: from and to cumulative distance (m), seconds.
    private struct Term: Sendable { var d0: Meters, d1: Meters, dt: Seconds }

    /// Split length in metres, > 0.
    let length: Meters
    /// Start of the current split in metres, and the splits finished before it.
    private(set) var start: Meters = 0
    private(set) var count = 0
    /// Moving time of the current split to its nominal end, and to the end of the run (s).
    private var toEnd: Seconds = 0
    private(set) var open: Seconds = 0
    /// Moving segments that reach past the current split's nominal end.
    private var beyond: [Term] = []
    /// The finished splits, when kept here (nil: they go to the storage).
    private(set) var finished: [Split]?

    /// - Parameter keepsFinished: keep the finished splits in `finished` instead of the storage.
    init(length: Meters, keepsFinished: Bool = false) {
        self.length = length
        finished = keepsFinished ? [] : nil
    }

    /// The finished splits kept here, then the partial last one of a run of `total` metres.
    func all(total: Meters) -> [Split] {
        (finished ?? []) + (last(total: total).map { [$0] } ?? [])
    }

    /// One segment from `d0` to `d1` metres (cumulative, d0 ≤ d1) lasting `dt` seconds. Inlined
    /// into the totals' loop; the closing of a split (once per split) stays out of line.
    @inline(__always) mutating func add<S: LiveProfileStorage>(from d0: Meters, to d1: Meters, seconds dt: Seconds,
                                                             moving: Bool, storage: inout S) {
        if moving { accumulate(Term(d0: d0, d1: d1, dt: dt)) }
        if d1 - (start + length) > 1e-3 { close(through: d1, storage: &storage) }
    }

    /// Closes the splits whose end the distance `d1` (m) passed by more than 1 mm.
    @inline(never) private mutating func close<S: LiveProfileStorage>(through d1: Meters, storage: inout S) {
        while d1 - (start + length) > 1e-3 {
            let end = start + length
            count += 1
            let split = Split(index: count, distance: end - start, duration: toEnd)
            if finished != nil { finished!.append(split) } else { storage.appendSplit(split) }
            start = end
            toEnd = 0; open = 0
            let carried = beyond
            beyond = []
            for t in carried { accumulate(t) }
        }
    }

    /// The partial last split of a run whose distance is `total` metres, if batch makes one.
    func last(total: Meters) -> Split? {
        total - start > 1e-3 ? Split(index: count + 1, distance: total - start, duration: open) : nil
    }

    /// `movingDuration`'s term for this split, to its nominal end and to the run's end.
    @inline(__always) private mutating func accumulate(_ t: Term) {
        let a = start, e = start + length
        if t.d1 > t.d0 {
            let overlapOpen = t.d1 - max(a, t.d0)
            if t.d1 <= e {
                // Ends within the split: min(e, d1) is d1, so both overlaps are the same number,
                // and so is the term (one division instead of two).
                if overlapOpen > 0 { let term = t.dt * overlapOpen / (t.d1 - t.d0); toEnd += term; open += term }
            } else {
                let overlap = e - max(a, t.d0)
                if overlap > 0 { toEnd += t.dt * overlap / (t.d1 - t.d0) }
                if overlapOpen > 0 { open += t.dt * overlapOpen / (t.d1 - t.d0) }
                beyond.append(t)
            }
        } else {
            // A segment that adds no distance counts where it sits (record 0150).
            if t.d0 >= a && t.d0 < e { toEnd += t.dt }
            if t.d0 >= a { open += t.dt }
            if t.d0 >= e { beyond.append(t) }
        }
    }
}
