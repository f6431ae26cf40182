import RunusCore

/// The longest chain of interval reps on a distance profile (record 0217, amends 0211).
///
/// A rep is a window of `length` metres starting at a fix and covered within `limit` seconds
/// (its end is interpolated between fixes). Reps chain when they do not overlap and each rest,
/// from the end of one to the start of the next (elapsed seconds), is at most `maxRest`. The
/// chain with the most reps wins, up to `cap`. Among equally long chains each rep is the window
/// whose slower half is the fastest (then the fastest window), so reps sit on the efforts: a
/// window that runs from one rep across a jog into a faster one can be quicker than the slower
/// rep alone, but the jog slows one of its halves.
///
/// Dynamic programming over the fixes, from the last: the longest chain starting with the window
/// of fix i is 1 + the longest starting with a window that begins after it ends and no more than
/// `maxRest` later. Both bounds move one way with i (window ends grow with their start), so a
/// monotone deque holds the best successor: O(n). The reps are then picked from the first, each
/// among the windows that keep the chain that long: O(n + reps × fixes within a rest).
///
/// Pure: reads the two arrays only.
enum RepChain {
    struct Rep: Equatable {
        /// Metres into the run at the rep's start and end.
        let from: Meters, to: Meters
        /// Instants of the rep's start and end, Unix seconds.
        let start: EpochSeconds, end: EpochSeconds
        var duration: Seconds { end - start }
    }

    struct Result: Equatable {
        /// The chain's reps in order, at most `cap`.
        let reps: [Rep]
        /// When the chain is short of `cap`: the shortest rest, seconds, between it and a rep
        /// just before or after it (over `maxRest`, or that rep would have joined the chain);
        /// nil when there is no other rep or the chain is complete.
        let restBeyondLimit: Seconds?
    }

    /// `distances` non-decreasing metres and `times` increasing instants, one per fix (the
    /// shorter length is read when they differ); `length` > 0 m; `limit` and `maxRest` seconds;
    /// `cap` ≥ 1 reps. Non-finite or non-positive settings give no reps.
    static func longest(distances d: [Meters], times t: [EpochSeconds], length: Meters, limit: Seconds,
                        maxRest: Seconds, cap: Int) -> Result {
        let n = min(d.count, t.count)
        guard n >= 2, length > 0, length.isFinite, limit > 0, limit.isFinite, !maxRest.isNaN, cap >= 1 else {
            return Result(reps: [], restBeyondLimit: nil)
        }
        // The instants at which each fix's window is half way and at its end; +∞ when the run
        // ends before it, so that it is never a rep (∞ − t is over any limit, or NaN).
        var mids = [EpochSeconds](repeating: 0, count: n), ends = [EpochSeconds](repeating: .infinity, count: n)
        var j = 1, m = 1
        // The instant the profile first reaches `target` (≤ d[n − 1]), from fix `k` on.
        func reach(_ target: Meters, from i: Int, cursor k: inout Int) -> EpochSeconds {
            if k <= i { k = i + 1 }
            while d[k] < target { k += 1 }
            let span = d[k] - d[k - 1]
            return span <= 0 ? t[k - 1] : t[k - 1] + (t[k] - t[k - 1]) * (target - d[k - 1]) / span
        }
        for i in 0..<(n - 1) where d[i] + length <= d[n - 1] {
            mids[i] = reach(d[i] + length / 2, from: i, cursor: &m)
            ends[i] = reach(d[i] + length, from: i, cursor: &j)
        }
        func qualifies(_ i: Int) -> Bool { ends[i] - t[i] <= limit }

        // chain[i]: the most reps (up to `cap`) of a chain that starts with the window of fix i,
        // 0 when that window is no rep. Its successors j start after it ends (d[j] ≥ d[i] +
        // length) and at most `maxRest` later: as i goes down, both bounds go down.
        var chain = [Int](repeating: 0, count: n)
        var deque: [Int] = [], head = 0   // successor candidates, highest index at the head
        var offered = n                   // fixes offered..<n have been offered to the deque
        for i in stride(from: n - 2, through: 0, by: -1) where qualifies(i) {
            while offered > 0, d[offered - 1] >= d[i] + length {
                offered -= 1
                guard qualifies(offered) else { continue }
                while deque.count > head, chain[deque[deque.count - 1]] <= chain[offered] { deque.removeLast() }
                deque.append(offered)
            }
            while deque.count > head, t[deque[head]] - ends[i] > maxRest { head += 1 }
            chain[i] = min(cap, 1 + (deque.count > head ? chain[deque[head]] : 0))
        }
        let reps = chain.max() ?? 0
        guard reps > 0 else { return Result(reps: [], restBeyondLimit: nil) }

        // Each rep, first to last, is the window whose slower half is the fastest (then the
        // fastest window, then the first) among those that still allow the chain's length: a
        // window that runs from one rep across a jog into a faster one can be quicker than the
        // slower rep alone, but the jog slows one of its halves.
        func slowerHalf(_ i: Int) -> Seconds { max(mids[i] - t[i], ends[i] - mids[i]) }
        func better(_ a: Int, than b: Int) -> Bool {
            slowerHalf(a) != slowerHalf(b) ? slowerHalf(a) < slowerHalf(b) : ends[a] - t[a] < ends[b] - t[b]
        }
        var picked: [Int] = []
        var candidates = 0..<n
        while picked.count < reps {
            let need = reps - picked.count
            var choice: Int? = nil
            for k in candidates where chain[k] >= need && (choice.map { better(k, than: $0) } ?? true) { choice = k }
            guard let next = choice else { break }
            picked.append(next)
            // The next rep starts after this one ends, at most `maxRest` later.
            let end = ends[next]
            var after = next + 1
            while after < n, d[after] < d[next] + length { after += 1 }
            var last = after
            while last < n, t[last] - end <= maxRest { last += 1 }
            candidates = after..<last
        }
        let found = picked.map { Rep(from: d[$0], to: d[$0] + length, start: t[$0], end: ends[$0]) }
        guard found.count < cap, let first = found.first, let final = found.last else {
            return Result(reps: found, restBeyondLimit: nil)
        }
        // The nearest reps outside the chain: the first that starts after it, the last that ends before it.
        var rests: [Seconds] = []
        if let after = (0..<n).first(where: { d[$0] >= final.to && qualifies($0) }) { rests.append(t[after] - final.end) }
        if let before = (0..<n).last(where: { d[$0] + length <= first.from && qualifies($0) }) {
            rests.append(first.start - ends[before])
        }
        return Result(reps: found, restBeyondLimit: rests.min())
    }
}
