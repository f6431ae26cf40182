import RunusCore

/// A `LiveTracker` snapshot: the fields of `RunMetrics` that are totals, with the same names,
/// units and definitions, plus best efforts. Cheap to make (no profile; see
/// `LiveTracker.profile()` for that).
public struct LiveMetrics: Sendable, Equatable {
    /// First kept fix, Unix seconds (0 when there is none).
    public var startTime: EpochSeconds = 0
    /// Last kept fix, Unix seconds (0 when there is none).
    public var endTime: EpochSeconds = 0
    /// Distance in metres, ≥ 0 (as `RunMetrics.distance`, record 0151).
    public var distance: Meters = 0
    /// endTime − startTime in seconds, ≥ 0.
    public var elapsed: Seconds = 0
    /// Moving time in seconds, in [0, elapsed].
    public var moving: Seconds = 0
    /// Total climb and descent in metres, ≥ 0.
    public var elevationGain: Meters = 0
    public var elevationLoss: Meters = 0
    /// Elapsed and moving time per km in s/km; nil when distance is 0.
    public var averagePace: SecondsPerKm?
    public var movingPace: SecondsPerKm?
    /// Splits by moving time, the last one partial (as `RunMetrics.splits`).
    public var splits: [Split] = []
    /// Per-mile splits by moving time, the last one partial (as `RunMetrics.mileSplits`).
    public var mileSplits: [Split] = []
    /// Energy estimate in kcal (record 0104), when a body mass was given.
    public var calories: Double?
    /// Time-weighted mean heart rate in bpm (as `RunMetrics.averageHeartRate`).
    public var averageHeartRate: Double?
    /// Highest heart rate in bpm, mean and highest cadence in steps per minute (as
    /// `RunMetrics.maxHeartRate`, `averageCadence`, `maxCadence`, record 0115).
    public var maxHeartRate: Double?
    public var averageCadence: Double?
    public var maxCadence: Double?
    /// Fastest elapsed time in seconds over each tracked distance in metres that the run has
    /// covered (as `DistanceProfile.fastestDuration(covering:)`).
    public var bestEfforts: [Meters: Seconds] = [:]
    /// Entries of the distance profile (fixes of the run after cleaning and trimming), ≥ 0.
    public var profileCount = 0

    public init() {}

    /// The fields `RunMetrics` also has, from a finished or partial run's record, and best
    /// efforts over `effortDistances` metres: what a snapshot must equal (the tests' oracle).
    public init(_ m: RunMetrics, effortDistances: [Meters]) {
        startTime = m.startTime; endTime = m.endTime; distance = m.distance; elapsed = m.elapsed
        moving = m.moving; elevationGain = m.elevationGain; elevationLoss = m.elevationLoss
        averagePace = m.averagePace; movingPace = m.movingPace; splits = m.splits; mileSplits = m.mileSplits
        calories = m.calories; averageHeartRate = m.averageHeartRate
        maxHeartRate = m.maxHeartRate; averageCadence = m.averageCadence; maxCadence = m.maxCadence
        for d in effortDistances {
            if let t = m.profile.fastestDuration(covering: d) { bestEfforts[d] = t }
        }
        profileCount = m.profile.times.count
    }

    init(totals t: LiveTotals?, splits finished: [Split], weightKg: Double?, configuration: MetricsConfiguration) {
        guard let t else { calories = weightKg.map { _ in 0 }; return }
        startTime = t.first.time
        endTime = t.newest.time
        distance = t.distance
        elapsed = endTime - startTime
        moving = t.moving
        averagePace = Pace.secondsPerKm(distance: distance, duration: elapsed)
        movingPace = Pace.secondsPerKm(distance: distance, duration: moving)
        splits = finished
        if let last = t.splits.last(total: t.distance) { splits.append(last) }
        mileSplits = t.mileSplits.all(total: t.distance)
        elevationGain = t.elevation.gain
        elevationLoss = t.elevation.loss
        if let weightKg { calories = configuration.runningCostKcalPerKgKm * weightKg * distance / 1000 }
        averageHeartRate = t.hrSeconds > 0 ? t.hrWeighted / t.hrSeconds
            : t.hrCount > 0 ? t.hrSum / Double(t.hrCount) : nil
        maxHeartRate = t.maxHeartRate
        averageCadence = t.cadenceSeconds > 0 ? t.cadenceWeighted / t.cadenceSeconds : nil
        maxCadence = t.maxCadence
        for e in t.efforts where e.best.isFinite { bestEfforts[e.length] = e.best }
        profileCount = t.profileCount
    }
}
