import RunusCore

/// A run known only by its totals: what the phone sends for a treadmill run it did not track,
/// or a file's lap or session totals when it has neither positions nor a distance stream
/// (record 0232). `RunMetrics(summary:)` turns it into a record without splits or positions.
public struct RunSummary: Sendable, Equatable {
    /// Start instant, Unix seconds (UTC).
    public var startTime: EpochSeconds
    /// Distance in metres, ≥ 0.
    public var distance: Meters
    /// Elapsed time from start to end in seconds, > 0.
    public var duration: Seconds
    /// Moving time in seconds in [0, duration]; nil: the whole duration.
    public var moving: Seconds?
    /// Energy in kcal, ≥ 0, as the device or app measured it; nil: estimated from the body mass.
    public var calories: Double?
    /// Average heart rate in bpm, typically 30...230; nil if unknown.
    public var averageHeartRate: Double?

    public init(startTime: EpochSeconds, distance: Meters, duration: Seconds, moving: Seconds? = nil,
                calories: Double? = nil, averageHeartRate: Double? = nil) {
        self.startTime = startTime
        self.distance = distance
        self.duration = duration
        self.moving = moving
        self.calories = calories
        self.averageHeartRate = averageHeartRate
    }
}
