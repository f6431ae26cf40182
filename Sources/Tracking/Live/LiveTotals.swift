import RunusCore

/// Everything of the run record that is a running total: the loop of `RunMetrics.init` one
/// segment at a time, on segments whose vehicle flag is decided, with the batch's own
/// `AutoPause` (record 0151) and the jitter filter's spread steps (`LiveJitterSpread`, 0150) fed
/// the same points in the same order.
///
/// Keeps the sums (distance, moving time, heart rate, cadence), the maxima, elevation, the km and
/// mile splits, the best efforts, and the segments still waiting for their moving flag and
/// distance: a segment is added once `AutoPause` has decided its flag (`pauseWindowHalfWidth`
/// seconds later) and the spread its distance (at most twice that), and `finish` decides the
/// waiting ones with `AutoPause.pendingFlags` and `LiveJitterSpread.pending`, as batch does on
/// the same prefix. Small (no arrays but the few waiting segments, the auto-pause window and the
/// best efforts'), so that `LiveRunStage` can save a copy before a trailing vehicle part.
struct LiveTotals: Sendable {
    /// First fix of the run (after leading vehicle parts), the newest one appended, and the
    /// newest one whose segment is in the totals.
    var first: TrackPoint
    var newest: TrackPoint
    private var added: TrackPoint
    private var pause: AutoPause
    private var jitter: LiveJitterSpread
    /// Segments appended and not yet in the totals (from `waitingHead` on): their end fix and
    /// vehicle flag; `steps` and `flags` (same indices) grow as the jitter spread and auto-pause
    /// decide them, so a segment is added once both reach it. Dropped from the front in bulk.
    private var waiting: [Waiting] = []
    /// A waiting segment: its end fix and vehicle flag (one array, one append per fix).
    private struct Waiting: Sendable { var point: TrackPoint, vehicle: Bool }
    private var steps: [Meters] = []
    private var flags: [Bool] = []
    private var waitingHead = 0
    /// Distance in metres (record 0151) and moving time in seconds.
    var distance: Meters = 0
    var moving: Seconds = 0
    /// Heart rate: time-weighted sum (bpm·s) and its seconds; plain sum and count of samples.
    var hrWeighted = 0.0, hrSeconds = 0.0, hrSum = 0.0, hrCount = 0
    /// Cadence over moving segments with a positive cadence at both ends: time-weighted sum
    /// (spm·s) and its seconds (record 0115); highest heart rate and cadence of the run's fixes.
    var cadenceWeighted = 0.0, cadenceSeconds = 0.0
    var maxHeartRate: Double?, maxCadence: Double?
    /// Gain and loss over the kept steps (record 0153).
    var elevation: KeptElevation
    var splits: LiveSplits
    /// Per-mile splits (`RunMetrics.mileSplits`); their finished splits are kept in it (a few
    /// dozen at most), not in the storage.
    var mileSplits: LiveSplits
    /// Best efforts, advanced over the profile entries in batches of the storage's `effortBatch`
    /// (each effort over the whole batch, its pointers and minimum in registers): current through
    /// entry `effortsThrough − 1` only; `finish` brings them to the run's end.
    private(set) var efforts: [LiveBestEffort]
    /// Profile entries the best efforts have taken into account.
    private var effortsThrough = 0
    /// Profile entries of the run.
    var profileCount = 0
    /// `MetricsConfiguration.distanceOnlyWhileMoving`, kept here so that `add` does not copy the
    /// whole configuration for the one flag it reads.
    private let distanceOnlyWhileMoving: Bool
    /// Whether a step's windowed speed (the vehicle stage's, record 0130) is auto-pause's speed
    /// for the same segment once its window is complete: both windows have the same half-width
    /// and start at the same fix, which they do unless a leading vehicle part was cut and the
    /// vehicle window still reaches back into it (record 0162).
    private let sharesVehicleWindow: Bool, leadingCut: Bool

    /// - Parameter leadingCut: `p` is not the first cleaned fix (a leading vehicle part was cut).
    init<S: LiveProfileStorage>(first p: TrackPoint, leadingCut: Bool, configuration: MetricsConfiguration,
                                effortDistances: [Meters], storage: inout S) {
        first = p; newest = p; added = p
        distanceOnlyWhileMoving = configuration.distanceOnlyWhileMoving
        sharesVehicleWindow = configuration.vehicleWindowHalfWidth == configuration.pauseWindowHalfWidth
        self.leadingCut = leadingCut
        pause = AutoPause(configuration: configuration)
        jitter = LiveJitterSpread(first: p, radius: configuration.jitterRadius,
                                  spreadLimit: 2 * configuration.pauseWindowHalfWidth)
        pause.append(p)
        elevation = KeptElevation(threshold: configuration.elevationThreshold)
        splits = LiveSplits(length: configuration.splitLength)
        mileSplits = LiveSplits(length: RunMetrics.mile, keepsFinished: true)
        efforts = effortDistances.map(LiveBestEffort.init(length:))
        if let h = p.heartRate { hrSum += h; hrCount += 1 }
        noteMaxima(p)
        elevation.add(p.elevation, kept: false)
        storage.append(time: p.time, distance: 0, moving: false)
        profileCount = 1
        advanceEfforts(storage)
    }

    /// Segments appended whose moving flag is not decided yet.
    var undecided: Int { waiting.count - waitingHead }

    /// The segment from `newest` to `p`, `length` metres long (`Geodesy.localDistance`), with
    /// its vehicle flag and its windowed speed in m/s (`LiveStep.windowedSpeed`; NaN when not known).
    mutating func add<S: LiveProfileStorage>(_ p: TrackPoint, length: Meters, vehicle: Bool, windowedSpeed: Double,
                                             storage: inout S) {
        // The vehicle window starts at the same fix as auto-pause's once it no longer reaches
        // before the run's first fix: for segment s, once fix s − 1 is a half-width after it.
        let shared = sharesVehicleWindow && (!leadingCut || newest.time - first.time >= pause.halfWidth)
        newest = p
        waiting.append(Waiting(point: p, vehicle: vehicle))
        jitter.append(p, length: length, into: &steps)
        pause.append(p, windowedSpeed: shared ? windowedSpeed : .nan, into: &flags)
        addDecided(storage: &storage)
        if waitingHead >= 32 && waitingHead * 2 >= waiting.count {
            waiting.removeFirst(waitingHead)
            steps.removeFirst(waitingHead); flags.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    /// Decides the waiting segments as if the run ended at `newest`.
    mutating func finish<S: LiveProfileStorage>(storage: inout S) {
        jitter.pending(into: &steps)
        flags += pause.pendingFlags()
        precondition(steps.count == waiting.count && flags.count == waiting.count,
                     "LiveTotals: pending steps or flags do not cover the \(undecided) waiting segments")
        addDecided(storage: &storage)
        advanceEfforts(storage)
    }

    /// Adds the waiting segments whose step and flag are both decided, in order.
    private mutating func addDecided<S: LiveProfileStorage>(storage: inout S) {
        while waitingHead < min(steps.count, flags.count) {
            let i = waitingHead
            waitingHead += 1
            add(waiting[i].point, step: steps[i], moving: flags[i], vehicle: waiting[i].vehicle, storage: &storage)
        }
    }

    /// The body of `RunMetrics.init`'s loop for one segment ending at `p` (kept out of line:
    /// inlined into `addDecided`, the pair costs more).
    @inline(never) private mutating func add<S: LiveProfileStorage>(_ p: TrackPoint, step: Meters, moving flag: Bool, vehicle: Bool,
                                                     storage: inout S) {
        let q = added
        let dt = p.time - q.time
        let isMoving = flag && !vehicle
        if isMoving { moving += dt }
        let d0 = distance
        if !vehicle && (isMoving || !distanceOnlyWhileMoving) { distance += step }
        if let h0 = q.heartRate, let h1 = p.heartRate { hrWeighted += (h0 + h1) / 2 * dt; hrSeconds += dt }
        if let h = p.heartRate { hrSum += h; hrCount += 1 }
        if isMoving, let c0 = q.cadence, let c1 = p.cadence, c0 > 0, c1 > 0 {
            cadenceWeighted += (c0 + c1) / 2 * dt; cadenceSeconds += dt
        }
        noteMaxima(p)
        elevation.add(p.elevation, kept: !vehicle)
        storage.append(time: p.time, distance: distance, moving: isMoving)
        profileCount += 1
        splits.add(from: d0, to: distance, seconds: dt, moving: isMoving, storage: &storage)
        mileSplits.add(from: d0, to: distance, seconds: dt, moving: isMoving, storage: &storage)
        if profileCount - effortsThrough >= S.effortBatch { advanceEfforts(storage) }
        added = p
    }

    /// Every best effort over the entries `effortsThrough..<profileCount` of `storage`, entry by
    /// entry in order, each as if it were the newest: the same calls, with the same numbers, as
    /// advancing them once per fix (the entries before `profileCount` never change), so the same
    /// minima bit for bit. One uniqueness check for the array. The order matters: a
    /// start-anchored window is taken at the entry where it ends (record 0171).
    @inline(never) private mutating func advanceEfforts<S: LiveProfileStorage>(_ storage: S) {
        let from = effortsThrough, to = profileCount
        guard from < to else { return }
        effortsThrough = to
        // Unchecked reads are safe when the pointers cannot pass entry `to − 1`: they stop at
        // the first distance reaching a target at most the last distance, which exists while
        // that distance is finite (cumulative sums of finite steps; anything else takes the
        // checked path).
        let done: Bool? = storage.withContiguousEntries { entries in
            precondition(to <= entries.count, "LiveTotals: \(to) profile entries expected, the storage holds \(entries.count)")
            guard entries.distance(to - 1).isFinite else { return false }
            advanceEfforts(entries, from: from, to: to)
            return true
        }
        if done != true { advanceEfforts(storage, from: from, to: to) }
    }

    /// The loops of `advanceEfforts(_:)` over entries `from..<to` of `storage`.
    @inline(__always) private mutating func advanceEfforts<R: LiveProfileReader>(_ storage: R, from: Int, to: Int) {
        let first = storage.distance(0), last = storage.distance(to - 1)
        efforts.withUnsafeMutableBufferPointer { e in
            for k in e.indices {
                if e[k].waits(total: last, first: first) { continue }
                var effort = e[k]
                for m in from..<to {
                    effort.advance(storage, count: m + 1, total: storage.distance(m), first: first,
                                   newestTime: storage.time(m))
                }
                e[k] = effort
            }
        }
    }
}

extension LiveTotals {
    /// The highest heart rate and cadence so far, as `RunMetrics` takes them.
    fileprivate mutating func noteMaxima(_ p: TrackPoint) {
        if let h = p.heartRate { maxHeartRate = max(maxHeartRate ?? h, h) }
        if let c = p.cadence { maxCadence = max(maxCadence ?? c, c) }
    }
}
