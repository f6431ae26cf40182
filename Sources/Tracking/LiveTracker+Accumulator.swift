import RunusCore

/// Everything of the run record that is a running total: the loop of `RunMetrics.init` (as of
/// record 0160) one segment at a time, on segments whose vehicle flag is decided. Small (no
/// arrays but the best efforts'), so that it can be saved before a trailing vehicle part.
struct LiveTotals: Sendable {
    /// First and newest fix of the run (after leading vehicle parts).
    var first: TrackPoint
    var newest: TrackPoint
    var pause = AutoPause()
    /// Moving distance in metres and moving time in seconds.
    var distance: Meters = 0
    var moving: Seconds = 0
    /// Heart rate: time-weighted sum (bpm·s) and its seconds; plain sum and count of samples.
    var hrWeighted = 0.0, hrSeconds = 0.0, hrSum = 0.0, hrCount = 0
    var elevation: ElevationHysteresis
    /// Start of the current split in metres, its moving time so far, and finished splits.
    var splitStart: Meters = 0
    var splitDuration: Seconds = 0
    var splitCount = 0
    var efforts: [LiveBestEffort]
    /// Profile entries of the run.
    var profileCount = 0

    init<S: LiveProfileStorage>(first p: TrackPoint, configuration: MetricsConfiguration, effortDistances: [Meters],
                                storage: inout S) {
        first = p; newest = p
        elevation = ElevationHysteresis(threshold: configuration.elevationThreshold)
        efforts = effortDistances.map(LiveBestEffort.init(length:))
        if let h = p.heartRate { hrSum += h; hrCount += 1 }
        elevation.add(p.elevation)
        storage.append(time: p.time, distance: 0, moving: false)
        profileCount = 1
        for e in efforts.indices { efforts[e].advance(storage) }
    }

    /// One segment from `newest` to `step.point`, with its vehicle flag.
    mutating func add<S: LiveProfileStorage>(_ step: LiveStep, vehicle: Bool, configuration: MetricsConfiguration,
                                             storage: inout S) {
        let q = newest, p = step.point, d = step.distance
        let dt = p.time - q.time
        let counts = pause.update(speed: d / dt, configuration: configuration) && !vehicle
        let d0 = distance
        if counts { distance += d; moving += dt }
        if let h0 = q.heartRate, let h1 = p.heartRate { hrWeighted += (h0 + h1) / 2 * dt; hrSeconds += dt }
        if let h = p.heartRate { hrSum += h; hrCount += 1 }
        elevation.add(p.elevation)
        storage.append(time: p.time, distance: distance, moving: counts)
        profileCount += 1
        if counts && distance > d0 { addToSplits(d0, distance, dt, length: configuration.splitLength, storage: &storage) }
        for e in efforts.indices { efforts[e].advance(storage) }
        newest = p
    }

    /// `RunMetrics.splits` with `DistanceProfile.movingDuration`, summed split by split in
    /// segment order (the same terms in the same order, so the same sums).
    private mutating func addToSplits<S: LiveProfileStorage>(_ d0: Meters, _ d1: Meters, _ dt: Seconds, length: Meters,
                                                            storage: inout S) {
        while true {
            let end = splitStart + length
            let overlap = min(end, d1) - max(splitStart, d0)
            if overlap > 0 { splitDuration += dt * overlap / (d1 - d0) }
            guard d1 >= end else { return }
            splitCount += 1
            storage.appendSplit(Split(index: splitCount, distance: end - splitStart, duration: splitDuration))
            splitStart = end
            splitDuration = 0
        }
    }
}

/// The motion stage: leading vehicle parts skipped, trailing ones held back (a run's record ends
/// where the runner last left a vehicle; a vehicle part in the middle counts neither distance
/// nor moving time), then `LiveTotals`.
struct LiveRunStage<Storage: LiveProfileStorage>: LiveSegmentSink {
    let configuration: MetricsConfiguration
    let effortDistances: [Meters]
    var storage: Storage
    private enum Phase: Sendable { case empty, leading(TrackPoint), running }
    private var phase = Phase.empty
    private(set) var totals: LiveTotals?
    /// The totals before the current trailing run of vehicle segments, if any.
    private(set) var committed: LiveTotals?

    init(configuration: MetricsConfiguration, effortDistances: [Meters], storage: Storage) {
        self.configuration = configuration
        self.effortDistances = effortDistances
        self.storage = storage
    }

    /// The same stage writing into `storage` (a snapshot's overlay).
    init<Other>(copying other: LiveRunStage<Other>, storage: Storage) {
        configuration = other.configuration
        effortDistances = other.effortDistances
        self.storage = storage
        switch other.phase {
        case .empty: phase = .empty
        case .leading(let p): phase = .leading(p)
        case .running: phase = .running
        }
        totals = other.totals
        committed = other.committed
    }

    mutating func accept(_ step: LiveStep, vehicle: Bool) {
        switch phase {
        case .empty:
            phase = .leading(step.point)
        case .leading(let q):
            guard !vehicle else { phase = .leading(step.point); return }
            start(q)
            totals!.add(step, vehicle: false, configuration: configuration, storage: &storage)
        case .running:
            if vehicle { if committed == nil { committed = totals } } else { committed = nil }
            totals!.add(step, vehicle: vehicle, configuration: configuration, storage: &storage)
        }
    }

    private mutating func start(_ q: TrackPoint) {
        phase = .running
        totals = LiveTotals(first: q, configuration: configuration, effortDistances: effortDistances, storage: &storage)
    }

    /// The totals of the run as if it ended now (a lone fix starts one).
    mutating func finish() -> LiveTotals? {
        if case .leading(let q) = phase { start(q) }
        return committed ?? totals
    }
}

extension LiveRunStage: Sendable where Storage: Sendable {}
