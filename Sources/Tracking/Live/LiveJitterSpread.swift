import RunusCore

/// `JitterFilter.spreadSteps` one fix at a time (record 0150): the filtered distance per fix,
/// each anchor's chord shared among the steps since the previous anchor when they span at most
/// `spreadLimit` seconds (else all on the last step), and at the end the remainder from the last
/// anchor to the final fix shared the same way. A step is decided when the next anchor arrives,
/// or (as 0) once the run has gone on past `spreadLimit` seconds after the anchor and a later
/// fix exists. Keeps the batch's own `JitterFilter` (for the chords), the last anchor, the newest
/// fix and the raw lengths of the steps still waiting, at most `spreadLimit` seconds of them; the
/// sharing mirrors `spreadSteps`'s `share`.
struct LiveJitterSpread: Sendable {
    let spreadLimit: Seconds
    private var filter: JitterFilter
    /// The last anchor and the newest fix: time (s) and position (degrees), all the spread reads
    /// of a fix (a whole `TrackPoint` would be copied twice per fix for nothing).
    private var anchor: Fix
    private var newest: Fix
    /// A fix's time (Unix seconds) and position (degrees).
    private struct Fix: Sendable {
        var time: EpochSeconds, latitude: Double, longitude: Double
        init(_ p: TrackPoint) { time = p.time; latitude = p.latitude; longitude = p.longitude }
    }
    /// Raw lengths (m) of the undecided steps after the anchor; while `stale` (the anchor is
    /// more than `spreadLimit` seconds old) only the newest step waits, and its raw length is
    /// not needed.
    private var raw: [Meters] = []
    private var stale = false

    init(first: TrackPoint, radius: Meters, spreadLimit: Seconds) {
        self.spreadLimit = spreadLimit
        filter = JitterFilter(radius: radius)
        _ = filter.append(latitude: first.latitude, longitude: first.longitude)
        anchor = Fix(first)
        newest = anchor
    }

    /// Steps appended whose distance is not decided yet.
    var undecided: Int { raw.count }

    /// Adds the next fix, `length` metres (`Geodesy.localDistance` from the previous fix to it,
    /// in that order: the jitter filter takes it as its anchor distance when the anchor is that fix);
    /// appends the distances (m) of the steps it decided to `decided`, in order (no allocation:
    /// the caller's array and `raw` keep their capacity).
    mutating func append(_ p: TrackPoint, length step: Meters, into decided: inout [Meters]) {
        let chord = filter.append(latitude: p.latitude, longitude: p.longitude, previousLatitude: newest.latitude,
                                  previousLongitude: newest.longitude, distance: step)
        newest = Fix(p)
        if chord > 0 && !stale && raw.isEmpty {
            // The common case: the step is its own anchor's whole chord (`share` of one step).
            decided.append(chord)
            anchor = newest
            return
        }
        if stale {
            decided.append(0)   // the step before waited only in case the run ended there
            clearRaw()
        }
        raw.append(step)
        if chord > 0 {
            share(chord, to: newest, into: &decided)
            anchor = newest
            clearRaw()
            stale = false
        } else if !stale && p.time - anchor.time > spreadLimit {
            // No later chord can be shared back over these steps: all but the newest add 0.
            for _ in 1..<raw.count { decided.append(0) }
            clearRaw()
            raw.append(step)
            stale = true
        }
    }

    /// Appends the undecided steps as if the run ended at the newest fix (the remainder to it
    /// shared).
    func pending(into decided: inout [Meters]) {
        guard !raw.isEmpty else { return }
        share(Self.length(anchor, newest), to: newest, into: &decided)
    }

    /// `append(_:length:into:)` with the step's length computed and the decided steps returned.
    mutating func append(_ p: TrackPoint) -> [Meters] {
        var decided: [Meters] = []
        append(p, length: Self.length(newest, Fix(p)), into: &decided)
        return decided
    }

    /// `pending(into:)` returned as an array.
    func pending() -> [Meters] {
        var decided: [Meters] = []
        pending(into: &decided)
        return decided
    }

    /// `spreadSteps`'s `share` of `chord` over the waiting steps, ending at `p` (inlined, so that
    /// a call does not copy the spread's state).
    @inline(__always) private func share(_ chord: Meters, to p: Fix, into decided: inout [Meters]) {
        let n = raw.count
        if stale { decided.append(chord); return }
        let total = raw.reduce(0, +)
        guard n > 1, total > 0, p.time - anchor.time <= spreadLimit else {
            for _ in 1..<n { decided.append(0) }
            decided.append(chord)
            return
        }
        for r in raw { decided.append(chord * r / total) }
    }

    /// Empties `raw`, keeping its storage (a few `removeLast`s: cheaper than `removeAll` for
    /// the one or two steps it usually holds).
    private mutating func clearRaw() { while !raw.isEmpty { raw.removeLast() } }

    private static func length(_ a: Fix, _ b: Fix) -> Meters {
        Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }
}
