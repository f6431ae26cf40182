import RunusCore

/// The vehicle stage of `LiveTracker`: `Track.vehicleSegments` (records 0130, 0144) one cleaned
/// fix at a time. A segment's windowed speed is known once a fix `vehicleWindowHalfWidth`
/// seconds after it has arrived (the window is `AutoPause`'s); the speed rule then holds a
/// windowed-fast stretch until it lasts `vehicleMinDuration` (then it is a vehicle) or ends,
/// and after a vehicle stretch the slower time that a later one could still join, under
/// `vehicleGapTolerance`: at most about `vehicleWindowHalfWidth + vehicleMinDuration +
/// vehicleGapTolerance` seconds (95 s by default). The segments it leaves unflagged go to the
/// classifier stage (`LivePartStage`), which holds at most a few windows. `finish` decides what
/// is held as if the track ended now.
///
/// Mirrors `Track.windowedSpeeds`, `Track.vehicleSpeedRule` and `Track.activitySegments`
/// (records 0130, 0144): the property tests compare it with them at every prefix.
struct LiveVehicleStage: Sendable {
    let configuration: MetricsConfiguration
    private(set) var parts: LivePartStage
    /// Fixes some window may still need, each with its segment's length (the windowed speed is
    /// NaN here; one array, one append per fix): global index i is at i − base.
    private var fixes: [LiveStep] = []
    private var base = 0
    /// Fixes appended, the next segment whose windowed speed is not known, and its window.
    private var count = 0, next = 1, windowStart = 0, windowEnd = 0
    /// Time of the fix before the next segment to decide.
    private var lastTime: EpochSeconds = 0
    /// Segments with a windowed speed, not yet decided (an unconfirmed fast stretch, or the time
    /// after a vehicle stretch that a later one may still join).
    private var held: [LiveStep] = []
    /// The current windowed-fast stretch: the time of the fix before its first segment, and
    /// whether it has lasted long enough to be a vehicle (its segments are then passed on).
    private var runStart: EpochSeconds?
    private var runConfirmed = false
    /// End time of the last vehicle stretch, while a later one could still join it.
    private var lastVehicleEnd: EpochSeconds?
    /// Segments seen, for the work count.
    private(set) var work = 0
    /// The windowed speeds (their chords) as the readers compare them (record 0166).
    private var chordSpeed: ChordSpeedFilter
    /// Length in metres of the newest fix's segment (`Geodesy.localDistance` from the fix
    /// before; 0 for the first fix).
    private(set) var lastLength: Meters = 0

    init(configuration: MetricsConfiguration, classifier: ActivityClassifier?) {
        self.configuration = configuration
        chordSpeed = ChordSpeedFilter(thresholds: [configuration.vehicleSpeed, configuration.pauseSpeed,
                                                   configuration.resumeSpeed])
        parts = LivePartStage(classifier: configuration.classifyActivities ? classifier ?? .default : nil,
                              minVehicleDuration: configuration.vehicleClassifierMinDuration,
                              vehicleSpeed: configuration.vehicleSpeed, minFast: configuration.vehicleClassifierMinFast)
    }

    /// Cleaned fixes waiting for a decision (here or in the classifier stage).
    var undecided: Int { count - next + held.count + parts.undecided }

    @inline(__always) private func fix(_ i: Int) -> TrackPoint { fixes[i - base].point }

    /// Adds the next cleaned fix; `length`, when given, is `Geodesy.localDistance` from the
    /// previous cleaned fix to it (the cleaner's, the same bits), else it is computed here.
    mutating func append<S: LiveSegmentSink>(_ p: TrackPoint, length: Meters? = nil, into sink: inout S) {
        work += 1
        let d: Meters
        if count == 0 {
            d = 0
        } else if let length {
            d = length
        } else {
            let q = fixes[fixes.count - 1].point   // trim always keeps the newest fix
            d = Geodesy.localDistance(latitude1: q.latitude, longitude1: q.longitude, latitude2: p.latitude, longitude2: p.longitude)
        }
        fixes.append(LiveStep(point: p, distance: d, windowedSpeed: .nan))
        lastLength = d
        count += 1
        guard count > 1 else {
            lastTime = p.time
            parts.accept(LiveStep(point: p, distance: 0, windowedSpeed: 0), flagged: false, into: &sink)
            return
        }
        let h = configuration.vehicleWindowHalfWidth
        while next < count, p.time - fix(next).time >= h {
            while fix(windowEnd).time - fix(next).time < h || windowEnd < next { windowEnd += 1 }
            annotate(next, windowEnd: windowEnd, into: &sink)
            next += 1
        }
        trim()
    }

    /// The undecided segments (`undecided` of them), oldest first; their windowed speed is NaN
    /// when it is not known yet (so that auto-pause computes its own, record 0162).
    func forEachUndecided(_ body: (LiveStep) -> Void) {
        parts.forEachUndecided(body)
        for step in held { body(step) }
        for s in next..<max(next, count) { body(fixes[s - base]) }
    }

    /// Makes this copy (a snapshot's) add its steps apart from the tracker's (`LivePartStage.detach`).
    mutating func detach() { parts.detach() }

    /// Decides everything held as if the track ended now.
    mutating func finish<S: LiveSegmentSink>(into sink: inout S) {
        while next < count {
            annotate(next, windowEnd: count - 1, into: &sink)
            next += 1
        }
        release(flagged: false, into: &sink)
        parts.finish(into: &sink)
    }

    /// Segment `s`'s windowed speed over fixes windowStart…`windowEnd` (`Track.windowedSpeeds`).
    private mutating func annotate<S: LiveSegmentSink>(_ s: Int, windowEnd b: Int, into sink: inout S) {
        let h = configuration.vehicleWindowHalfWidth
        while windowStart + 1 <= s - 1 && fix(s - 1).time - fix(windowStart + 1).time >= h { windowStart += 1 }
        var step = fixes[s - base]
        step.windowedSpeed = chordSpeed.speed(fix(windowStart), fix(b))
        decide(step, dropout: Track.isVehicleDropout(fix(s - 1), fix(s), configuration: configuration), into: &sink)
    }

    /// The speed rule on the next segment (`Track.vehicleSpeedRule`); `dropout`: the segment is a
    /// dropout a vehicle crossed (`Track.isVehicleDropout`).
    @inline(__always) private mutating func decide<S: LiveSegmentSink>(_ step: LiveStep, dropout: Bool, into sink: inout S) {
        let before = lastTime, time = step.point.time
        lastTime = time
        if step.windowedSpeed > configuration.vehicleSpeed || dropout {
            if runConfirmed { parts.accept(step, flagged: true, into: &sink); return }
            let start = runStart ?? before
            runStart = start
            held.append(step)
            if time - start >= configuration.vehicleMinDuration {
                // A vehicle: with the time since the last one when that is under the tolerance
                // (held only then).
                runConfirmed = true
                release(flagged: true, into: &sink)
            }
            return
        }
        if runStart != nil {
            if runConfirmed { lastVehicleEnd = before }
            runStart = nil
            runConfirmed = false
        }
        if let end = lastVehicleEnd, time - end < configuration.vehicleGapTolerance { held.append(step); return }
        lastVehicleEnd = nil
        // `held` then `step`, unflagged (the common case: nothing held, the step goes straight on).
        release(flagged: false, into: &sink)
        parts.accept(step, flagged: false, into: &sink)
    }

    @inline(__always) private mutating func release<S: LiveSegmentSink>(flagged: Bool, into sink: inout S) {
        guard !held.isEmpty else { return }   // the common case; removeAll is not free
        for step in held { parts.accept(step, flagged: flagged, into: &sink) }
        held.removeAll(keepingCapacity: true)
    }

    /// Drops fixes no window can reach again, once they are most of the storage.
    @inline(__always) private mutating func trim() {
        let drop = min(windowStart, next - 1) - base
        guard drop >= 64, drop * 2 >= fixes.count else { return }
        fixes.removeFirst(drop)
        base += drop
    }
}
