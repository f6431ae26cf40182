import RunusCore

extension Track {
    /// The track with impossible fixes removed (record 0101):
    /// - fixes with a non-finite value, a latitude outside [-90, 90], or a time not after the
    ///   last kept fix are dropped;
    /// - a *spike* is dropped: a fix reached faster than `configuration.maxSpeed` from the last
    ///   kept fix and left faster than that to the next fix, while going straight from the last
    ///   kept fix to the next one is plausible. Sustained fast motion (a car) is not a spike and
    ///   is kept, for the vehicle rule to remove (record 0106); judging a fix by its neighbours
    ///   on both sides means one bad fix never anchors the rest of the track;
    /// - an *acceleration spike* is dropped (record 0152): a fix through which the speed changes
    ///   by more than `configuration.maxAcceleration` per second, while going straight from the
    ///   last kept fix to the next one is plausible (a fix stamped a second early or late, a
    ///   repeated position, a small jump). On a straight path the chord loses no distance.
    public func cleaned(configuration: MetricsConfiguration = .default) -> Track {
        var valid: [TrackPoint] = []
        valid.reserveCapacity(points.count)
        for p in points {
            guard p.time.isFinite, p.latitude.isFinite, p.longitude.isFinite,
                  abs(p.latitude) <= 90 else { continue }
            if let last = valid.last, p.time <= last.time { continue }
            valid.append(p)
        }
        let speed = Track.speed
        // A first fix that jumps to a second one, from which the track goes on plausibly, is a
        // leading spike (a cold-start fix): it would otherwise vouch for itself.
        if valid.count >= 3, speed(valid[0], valid[1]) > configuration.maxSpeed,
           speed(valid[1], valid[2]) <= configuration.maxSpeed {
            valid.removeFirst()
        }
        var kept: [TrackPoint] = []
        kept.reserveCapacity(valid.count)
        for (i, p) in valid.enumerated() {
            guard let last = kept.last else { kept.append(p); continue }
            if i + 1 < valid.count {
                if Track.isSpike(last, p, valid[i + 1], configuration: configuration) { continue }
            } else if speed(last, p) > configuration.maxSpeed {
                continue  // a final fix that jumps away has no neighbour to vouch for it
            }
            kept.append(p)
        }
        return Track(points: kept)
    }

    /// Whether `p`, between the last kept fix and the next valid fix, is dropped as a speed spike
    /// (records 0101, 0106) or an acceleration spike (record 0152). Shared with the live cleaning stage.
    static func isSpike(_ last: TrackPoint, _ p: TrackPoint, _ next: TrackPoint, configuration: MetricsConfiguration) -> Bool {
        var distances = SpikeDistances()
        return isSpike(last, p, next, configuration: configuration, distances: &distances)
    }

    /// The `Geodesy.localDistance`s (m, ≥ 0) between the three fixes of a spike test: nil until
    /// the test computes one, or given by a caller that already has it (the same bits), so that
    /// the live cleaning stage (`SpikeCleaningStage`) computes each distance once (record 0161).
    struct SpikeDistances: Sendable {
        var lastToNext: Meters?, lastToP: Meters?, pToNext: Meters?
    }

    /// `isSpike` taking the distances `distances` holds and filling in those it computes (the
    /// same arithmetic: speed = distance ÷ time, as `speed`). `p` is a spike when the way in and
    /// out of it is too fast or accelerates too hard, unless the straight line from `last` to
    /// `next` is itself too fast (then `p` is on a real fast stretch). The in and out speeds are
    /// tested first: most fixes fail that test, and then `lastToNext` is never needed (the live
    /// cleaning stage has `lastToP` already, so one distance per kept fix; record 0162).
    static func isSpike(_ last: TrackPoint, _ p: TrackPoint, _ next: TrackPoint, configuration: MetricsConfiguration,
                        distances d: inout SpikeDistances) -> Bool {
        let vIn = knownSpeed(&d.lastToP, last, p), vOut = knownSpeed(&d.pToNext, p, next)
        return jumps(in: vIn, out: vOut, halfSpan: (next.time - last.time) / 2, configuration: configuration)
            && knownSpeed(&d.lastToNext, last, next) <= configuration.maxSpeed
    }

    /// The spike rule on the speeds in and out of a fix (m/s) and half the seconds from the fix
    /// before it to the fix after: too fast both ways, or too large a change of speed. The one
    /// definition both forms of `isSpike` use.
    @inline(__always) private static func jumps(in vIn: Double, out vOut: Double, halfSpan h: Seconds,
                                                configuration: MetricsConfiguration) -> Bool {
        (vIn > configuration.maxSpeed && vOut > configuration.maxSpeed) || abs(vOut - vIn) / h > configuration.maxAcceleration
    }

    /// The speed from `a` to `b` in m/s over the distance `known` holds, computed into it first
    /// when nil (`Geodesy.localDistance`, m).
    @inline(__always) private static func knownSpeed(_ known: inout Meters?, _ a: TrackPoint, _ b: TrackPoint) -> Double {
        let m = known ?? Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                               latitude2: b.latitude, longitude2: b.longitude)
        known = m
        return m / (b.time - a.time)
    }

    /// `isSpike(_:_:_:configuration:distances:)` for a live cleaner that keeps a cheap chord
    /// (record 0170): the same answer, but the test of the speeds in and out of `p` reads the way
    /// out from `cheap` (no `sincos`, no chain of square roots and divisions behind it) whenever
    /// that decides it. `lastToP` must be known. `pToNext` is still computed exactly and stored,
    /// since it is the next segment's length, but nothing waits for it here: the branch that
    /// follows depends only on values at hand.
    static func isSpike(_ last: TrackPoint, _ p: TrackPoint, _ next: TrackPoint, configuration: MetricsConfiguration,
                        distances d: inout SpikeDistances, cheap: inout LocalChordBound) -> Bool {
        guard let dIn = d.lastToP else { return isSpike(last, p, next, configuration: configuration, distances: &d) }
        let dtIn = p.time - last.time, dtOut = next.time - p.time, h = (next.time - last.time) / 2
        let exactOut = Geodesy.localDistance(latitude1: p.latitude, longitude1: p.longitude,
                                             latitude2: next.latitude, longitude2: next.longitude)
        d.pToNext = exactOut
        let c = cheap.chord(latitude1: p.latitude, longitude1: p.longitude, latitude2: next.latitude, longitude2: next.longitude)
        let jumps: Bool
        if let clear = clearJumps(in: dIn, dtIn, out: c.length, bound: c.bound, dtOut, halfSpan: h, configuration: configuration) {
            jumps = clear
        } else {
            cheap.noteExact(latitude1: p.latitude, latitude2: next.latitude)
            jumps = Self.jumps(in: dIn / dtIn, out: exactOut / dtOut, halfSpan: h, configuration: configuration)
        }
        return jumps && knownSpeed(&d.lastToNext, last, next) <= configuration.maxSpeed
    }

    /// `isSpike`'s `jumps` — (vIn > maxSpeed && vOut > maxSpeed) || |vOut − vIn| / halfSpan >
    /// maxAcceleration, v = metres ÷ seconds as `isSpike` computes them — when the way out is only
    /// known to lie within [out·(1 − bound), out·(1 + bound)] metres: the answer when every value
    /// in that range (and the roundings of the exact computation) gives the same one, else nil.
    @inline(__always) static func clearJumps(in dIn: Meters, _ dtIn: Seconds, out: Meters, bound r: Double, _ dtOut: Seconds,
                                             halfSpan h: Seconds, configuration: MetricsConfiguration) -> Bool? {
        let vIn = dIn / dtIn
        let v = out / dtOut
        // The exact quotient lies within the bound plus its own and this division's rounding.
        let widen = r + LocalChordBound.roundingSlack
        let low = v * (1 - widen), high = v * (1 + widen)
        guard low.isFinite && high.isFinite && vIn.isFinite && h > 0 else { return nil }
        let maxSpeed = configuration.maxSpeed, maxAcceleration = configuration.maxAcceleration
        var fast: Bool? = false
        if vIn > maxSpeed {
            fast = low > maxSpeed ? true : (high < maxSpeed ? false : nil)
        }
        if fast == true { return true }
        // |vOut − vIn| over the range, with the subtraction's and the division's rounding
        // (relative, and absolute near 0) added. The smallest change is low − vIn when the range
        // is above vIn, vIn − high when below, else 0: the largest of the three, as the other two
        // are then ≤ 0. Written as maxima, not as a choice: whether the runner sped up or slowed
        // down is a coin toss, and a branch on it would wait for the chord's square root and
        // division (record 0171).
        let lowChange = max(max(low - vIn, vIn - high), 0)
        let highChange = max(high - vIn, vIn - low)
        let absolute = LocalChordBound.roundingSlack * (high + vIn)
        let lowRate = (lowChange - absolute) / h * (1 - LocalChordBound.roundingSlack)
        let highRate = (highChange + absolute) / h * (1 + LocalChordBound.roundingSlack)
        if lowRate > maxAcceleration { return true }
        guard highRate < maxAcceleration else { return nil }
        return fast == false ? false : nil
    }

    /// Straight-line speed from `a` to `b` in m/s (`Geodesy.localDistance` ÷ time; b after a).
    static func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                              latitude2: b.latitude, longitude2: b.longitude) / (b.time - a.time)
    }
}
