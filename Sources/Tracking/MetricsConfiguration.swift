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
    /// Vehicle rule (records 0106, 0130): a windowed speed (below) above this, m/s (default
    /// 7.0 = 25 km/h, faster than any runner holds for a minute outside a track race).
    public var vehicleSpeed: Double
    /// Vehicle rule: seconds of fixes on each side of a segment over which its speed is measured
    /// for the rule and the classifier's evidence, ≥ 0 (default 5, so at least a 10 s window,
    /// as auto-pause; record 0130). 0 is the per-segment speed.
    public var vehicleWindowHalfWidth: Seconds
    /// Vehicle rule: shortest stretch whose windowed speed stays above `vehicleSpeed` that counts
    /// as a vehicle, seconds, ≥ 0 (default 60: a 400 m sprint at 7 m/s takes 57 s; record 0130).
    public var vehicleMinDuration: Seconds
    /// Vehicle rule: two vehicle stretches less than this many seconds apart are one, the slower
    /// time between them included, ≥ 0 (default 30: traffic lights; record 0130).
    public var vehicleGapTolerance: Seconds
    /// Vehicle rule: a dropout (no fix for longer than `vehicleDropoutDuration`) crossed in a
    /// straight line at this speed or faster, m/s, is a vehicle (default 3.0: no walker, and no
    /// runner of the real data, crosses a dropout that fast, but subways and buses do; record
    /// 0132). `.infinity` turns it off.
    public var vehicleDropoutSpeed: Double
    /// Vehicle rule: seconds without a fix that make a dropout, > 0 (default 300, the classifier
    /// windows' `maxGap`: shorter steps are judged inside a window; record 0132).
    public var vehicleDropoutDuration: Seconds
    /// Whether the activity classifier (record 0144) flags vehicle parts besides the speed
    /// rule (default true).
    public var classifyActivities: Bool
    /// Shortest stretch of classifier `vehicle` windows that counts, seconds (default 360, two
    /// to three windows; record 0144): a single stop-and-go window inside a run does not.
    public var vehicleClassifierMinDuration: Seconds
    /// Evidence a classifier `vehicle` window needs, seconds ≥ 0 (default 20; record 0130): its
    /// windowed speed must stay above `vehicleSpeed` this long somewhere in the window (0: at one
    /// segment), else the window takes the forest's most probable other class. `.infinity`
    /// leaves no classifier vehicle windows.
    public var vehicleClassifierMinFast: Seconds
    /// Whether the device's own distance stream (`Track.deviceDistances`) gives the distance
    /// when it is sound against the fixes (default true; record 0116). False keeps the GPS sum.
    public var useDeviceDistance: Bool
    /// Bounds on the device's distance over the kept steps, as multiples of the GPS sum over the
    /// same steps, widened by `deviceDistanceSlack` metres (defaults 0.8, 1.25 and 50 m; record
    /// 0116): outside them the stream is taken for a wrong sensor or unit and the GPS sum is kept.
    public var deviceDistanceMinRatio: Double
    public var deviceDistanceMaxRatio: Double
    public var deviceDistanceSlack: Meters

    public init(maxSpeed: Double = 12.5, maxAcceleration: Double = 2.5, pauseSpeed: Double = 0.5, resumeSpeed: Double = 1.0,
                pauseWindowHalfWidth: Seconds = 5, jitterRadius: Meters = 5, distanceOnlyWhileMoving: Bool = false,
                elevationThreshold: Meters = 5, runningCostKcalPerKgKm: Double = 1.0,
                splitLength: Meters = 1000, vehicleSpeed: Double = 7.0, vehicleWindowHalfWidth: Seconds = 5,
                vehicleMinDuration: Seconds = 60, vehicleGapTolerance: Seconds = 30,
                vehicleDropoutSpeed: Double = 3.0, vehicleDropoutDuration: Seconds = 300, classifyActivities: Bool = true,
                vehicleClassifierMinDuration: Seconds = 360, vehicleClassifierMinFast: Seconds = 20,
                useDeviceDistance: Bool = true, deviceDistanceMinRatio: Double = 0.8, deviceDistanceMaxRatio: Double = 1.25,
                deviceDistanceSlack: Meters = 50) {
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
        precondition(vehicleWindowHalfWidth >= 0 && vehicleMinDuration >= 0 && vehicleGapTolerance >= 0
                     && vehicleClassifierMinFast >= 0,
                     "MetricsConfiguration: vehicle window, durations and gap tolerance must be >= 0")
        self.elevationThreshold = elevationThreshold
        self.runningCostKcalPerKgKm = runningCostKcalPerKgKm
        self.splitLength = splitLength
        self.vehicleSpeed = vehicleSpeed
        self.vehicleWindowHalfWidth = vehicleWindowHalfWidth
        self.vehicleMinDuration = vehicleMinDuration
        self.vehicleGapTolerance = vehicleGapTolerance
        precondition(vehicleDropoutSpeed > 0 && vehicleDropoutDuration > 0,
                     "MetricsConfiguration: vehicleDropoutSpeed and vehicleDropoutDuration must be > 0, got \(vehicleDropoutSpeed) and \(vehicleDropoutDuration)")
        self.vehicleDropoutSpeed = vehicleDropoutSpeed
        self.vehicleDropoutDuration = vehicleDropoutDuration
        self.classifyActivities = classifyActivities
        self.vehicleClassifierMinDuration = vehicleClassifierMinDuration
        self.vehicleClassifierMinFast = vehicleClassifierMinFast
        precondition(deviceDistanceMinRatio >= 0 && deviceDistanceMaxRatio >= deviceDistanceMinRatio && deviceDistanceSlack >= 0,
                     "MetricsConfiguration: need 0 <= deviceDistanceMinRatio <= deviceDistanceMaxRatio and deviceDistanceSlack >= 0")
        self.useDeviceDistance = useDeviceDistance
        self.deviceDistanceMinRatio = deviceDistanceMinRatio
        self.deviceDistanceMaxRatio = deviceDistanceMaxRatio
        self.deviceDistanceSlack = deviceDistanceSlack
    }

    public static let `default` = MetricsConfiguration()
}
