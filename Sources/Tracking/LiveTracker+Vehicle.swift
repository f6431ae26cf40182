import RunusCore

/// One cleaned fix with the length of the segment that ends at it.
public struct LiveStep: Sendable, Equatable {
    public var point: TrackPoint
    /// `Geodesy.localDistance` from the previous cleaned fix in metres, ≥ 0 (0 for the first).
    public var distance: Meters
}

/// Receives cleaned fixes in order, each with its segment's vehicle flag (false for the first
/// fix): the flags `Track.vehicleSegments` gives the whole track, decided for good.
protocol LiveSegmentSink {
    mutating func accept(_ step: LiveStep, vehicle: Bool)
}

/// The vehicle stage of `LiveTracker`: `Track.vehicleSegments` (records 0106, 0144) one cleaned
/// fix at a time. The sustained-speed rule runs here (a stretch is held until it is confirmed
/// or given up, at most `vehicleMinDuration + vehicleGapTolerance` seconds); the segments it
/// leaves unflagged go to the classifier stage (`LivePartStage`), which holds at most a few
/// windows. `finish` decides what is held as if the track ended now.
///
/// Mirrors `Track.vehicleSpeedRule` and `Track.activitySegments` (records 0106, 0144): the
/// property tests compare it with them at every prefix.
struct LiveVehicleStage: Sendable {
    let configuration: MetricsConfiguration
    private(set) var parts: LivePartStage
    private var previous: TrackPoint?
    /// Segments of the open stretch and of the slow gap after it, not yet decided.
    private var held: [LiveStep] = []
    private var stretch: Stretch?
    /// Segments seen, for the work count.
    private(set) var work = 0

    /// A stretch of fast segments (with short slow gaps) being grown.
    private struct Stretch: Sendable {
        /// Time of the fix before the stretch's first segment, Unix seconds.
        var startTime: EpochSeconds
        /// Time of the fix ending its last fast segment, Unix seconds.
        var endTime: EpochSeconds
        /// Long enough to be a vehicle: its segments have been passed on, flagged.
        var confirmed = false
        /// Slow segments held after `endTime` (a gap that a later fast segment may absorb).
        var gap = 0
    }

    init(configuration: MetricsConfiguration, classifier: ActivityClassifier?) {
        self.configuration = configuration
        parts = LivePartStage(classifier: configuration.classifyActivities ? classifier ?? .default : nil,
                              minVehicleDuration: configuration.vehicleClassifierMinDuration)
    }

    /// Cleaned fixes waiting for a decision (held here or in the classifier stage).
    var undecided: Int { held.count + parts.undecided }

    mutating func append<S: LiveSegmentSink>(_ p: TrackPoint, into sink: inout S) {
        work += 1
        guard let q = previous else {
            previous = p
            parts.accept(LiveStep(point: p, distance: 0), flagged: false, into: &sink)
            return
        }
        previous = p
        let d = Geodesy.localDistance(latitude1: q.latitude, longitude1: q.longitude,
                                      latitude2: p.latitude, longitude2: p.longitude)
        let step = LiveStep(point: p, distance: d)
        let fast = d / (p.time - q.time) > configuration.vehicleSpeed
        guard var s = stretch else {
            if fast { open(step, after: q, into: &sink) } else { parts.accept(step, flagged: false, into: &sink) }
            return
        }
        if fast {
            // A slow gap is absorbed when the next fast segment starts less than the tolerance
            // after the stretch's last fast fix (Track.vehicleSpeedRule).
            guard s.gap == 0 || q.time - s.endTime < configuration.vehicleGapTolerance else {
                close(into: &sink)
                open(step, after: q, into: &sink)
                return
            }
            s.gap = 0
            s.endTime = p.time
            held.append(step)
            if !s.confirmed && s.endTime - s.startTime >= configuration.vehicleMinDuration { s.confirmed = true }
            stretch = s
            if s.confirmed { release(flagged: true, into: &sink) }
        } else {
            s.gap += 1
            held.append(step)
            stretch = s
            // No later fast segment can be closer than this to the stretch's end.
            if p.time - s.endTime >= configuration.vehicleGapTolerance { close(into: &sink) }
        }
    }

    /// Decides everything held as if the track ended now.
    mutating func finish<S: LiveSegmentSink>(into sink: inout S) {
        if stretch != nil { close(into: &sink) }
        parts.finish(into: &sink)
    }

    private mutating func open<S: LiveSegmentSink>(_ step: LiveStep, after q: TrackPoint, into sink: inout S) {
        var s = Stretch(startTime: q.time, endTime: step.point.time)
        held = [step]
        s.confirmed = s.endTime - s.startTime >= configuration.vehicleMinDuration
        stretch = s
        if s.confirmed { release(flagged: true, into: &sink) }
    }

    /// Ends the stretch: an unconfirmed one was not a vehicle; a held gap never is.
    private mutating func close<S: LiveSegmentSink>(into sink: inout S) {
        stretch = nil
        release(flagged: false, into: &sink)
    }

    private mutating func release<S: LiveSegmentSink>(flagged: Bool, into sink: inout S) {
        for step in held { parts.accept(step, flagged: flagged, into: &sink) }
        held.removeAll(keepingCapacity: true)
    }
}
