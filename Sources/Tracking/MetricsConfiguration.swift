import RunusCore

/// Knobs for turning a raw track into `RunMetrics`. Each default has a decision record.
public struct MetricsConfiguration: Sendable {
    /// Max plausible speed in m/s, > 0 (default 12.5, a sprinter's peak; record 0101). A fix
    /// reached from the last kept fix faster than this is a GPS jump and is dropped.
    public var maxSpeed: Double
    /// Max plausible change of speed through one fix, m/s², > 0 (default 2.5, a sprint start;
    /// record 0152). A fix whose in and out speeds differ by more than this per second, while
    /// going straight from the fix before it to the fix after it is plausible, is dropped.
    public var maxAcceleration: Double
    /// Auto-pause: while moving, a segment whose smoothed speed (record 0151) is below this
    /// (m/s, ≥ 0) starts a pause (default 0.5; record 0102).
    public var pauseSpeed: Double
    /// Auto-pause: while paused, a segment whose smoothed speed is above this (m/s, ≥ `pauseSpeed`) resumes
    /// (default 1.0; record 0102). The gap between the two is the hysteresis.
    public var resumeSpeed: Double
    /// Auto-pause: seconds of fixes on each side of a segment over which its speed is measured,
    /// ≥ 0 (default 5, so at least a 10 s window; record 0151). 0 is the per-segment speed.
    public var pauseWindowHalfWidth: Seconds
    /// Stationary jitter: a fix within this many metres of the last fix that counted adds no
    /// distance, ≥ 0 (default 5, the 95 % horizontal error of a phone or watch under open
    /// sky; record 0150). 0 counts every step.
    public var jitterRadius: Meters
    /// Whether distance counts only while auto-pause says moving (default false: distance is
    /// every jitter-filtered step outside vehicle parts; record 0151).
    public var distanceOnlyWhileMoving: Bool
    /// Elevation hysteresis in metres, ≥ 0 (default 5): a climb or descent counts only once the
    /// height has moved this far from the last turning point (record 0103).
    public var elevationThreshold: Meters
    /// Energy cost of running in kcal per kg of body mass per km, > 0 (default 1.0; record 0104).
    public var runningCostKcalPerKgKm: Double
    /// Split length in metres, > 0 (default 1000: per-km splits).
    public var splitLength: Meters
    /// Vehicle rule (record 0106): sustained speed above this, m/s (default 7.0 = 25 km/h,
    /// faster than any runner holds for half a minute outside a sprint track).
    public var vehicleSpeed: Double
    /// Vehicle rule: shortest stretch above `vehicleSpeed` that counts as a vehicle, seconds
    /// (default 20).
    public var vehicleMinDuration: Seconds
    /// Vehicle rule: slower gaps shorter than this inside a fast stretch stay part of it,
    /// seconds (default 30: traffic lights).
    public var vehicleGapTolerance: Seconds
    /// Whether the activity classifier (record 0144) flags vehicle parts besides the speed
    /// rule (default true).
    public var classifyActivities: Bool
    /// Shortest stretch of classifier `vehicle` windows that counts, seconds (default 360, two
    /// to three windows; record 0144): a single stop-and-go window inside a run does not.
    public var vehicleClassifierMinDuration: Seconds

    public init(maxSpeed: Double = 12.5, maxAcceleration: Double = 2.5, pauseSpeed: Double = 0.5, resumeSpeed: Double = 1.0,
                pauseWindowHalfWidth: Seconds = 5, jitterRadius: Meters = 5, distanceOnlyWhileMoving: Bool = false,
                elevationThreshold: Meters = 5, runningCostKcalPerKgKm: Double = 1.0,
                splitLength: Meters = 1000, vehicleSpeed: Double = 7.0, vehicleMinDuration: Seconds = 20,
                vehicleGapTolerance: Seconds = 30, classifyActivities: Bool = true,
                vehicleClassifierMinDuration: Seconds = 360) {
        precondition(maxSpeed > 0 && pauseSpeed >= 0 && resumeSpeed >= pauseSpeed,
                     "MetricsConfiguration: need maxSpeed > 0 and 0 <= pauseSpeed <= resumeSpeed")
        precondition(maxAcceleration > 0, "MetricsConfiguration: maxAcceleration must be > 0, got \(maxAcceleration)")
        precondition(pauseWindowHalfWidth >= 0 && jitterRadius >= 0,
                     "MetricsConfiguration: pauseWindowHalfWidth and jitterRadius must be >= 0")
        precondition(elevationThreshold >= 0 && runningCostKcalPerKgKm > 0 && splitLength > 0,
                     "MetricsConfiguration: thresholds, cost and split length must be positive")
        self.maxSpeed = maxSpeed
        self.maxAcceleration = maxAcceleration
        self.pauseSpeed = pauseSpeed
        self.resumeSpeed = resumeSpeed
        self.pauseWindowHalfWidth = pauseWindowHalfWidth
        self.jitterRadius = jitterRadius
        self.distanceOnlyWhileMoving = distanceOnlyWhileMoving
        self.elevationThreshold = elevationThreshold
        self.runningCostKcalPerKgKm = runningCostKcalPerKgKm
        self.splitLength = splitLength
        self.vehicleSpeed = vehicleSpeed
        self.vehicleMinDuration = vehicleMinDuration
        self.vehicleGapTolerance = vehicleGapTolerance
        self.classifyActivities = classifyActivities
        self.vehicleClassifierMinDuration = vehicleClassifierMinDuration
    }

    public static let `default` = MetricsConfiguration()
}
