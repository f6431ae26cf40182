import RunusCore

/// One split of a run: the `index`-th kilometre (or configured split length).
public struct Split: Sendable, Equatable {
    /// 1-based position of the split in the run.
    public let index: Int
    /// Length in metres: the split length (1000 by default), or less for the partial last one.
    public let distance: Meters
    /// Moving time spent on it in seconds (auto-paused time excluded), ≥ 0.
    public let duration: Seconds

    public init(index: Int, distance: Meters, duration: Seconds) {
        self.index = index
        self.distance = distance
        self.duration = duration
    }

    /// Moving pace in s/km (duration scaled to 1 km; 0 for an empty split).
    public var pace: SecondsPerKm { Pace.secondsPerKm(distance: distance, duration: duration) ?? 0 }
}
