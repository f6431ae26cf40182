import RunusCore

/// The pace a runner has to keep over the rest of a mission's target to make it (record 0535):
/// what a watch shows during a run ("3.1 km to go at 5:12/km or faster").
public struct PaceNeeded: Sendable, Equatable {
    /// Which time the pace divides: the run's moving time (the `pace` kind checks the moving
    /// pace) or its elapsed time (`distance_in_time` checks a stretch's wall time).
    public enum Time: String, Sendable {
        case moving, elapsed
    }

    /// Metres of the target still to cover, > 0.
    public let remaining: Meters
    /// Seconds per km over `remaining`; nil when the time the target allows is used up.
    public let pace: SecondsPerKm?
    public let time: Time
}

extension MissionSpec {
    /// The pace needed over the rest of the target, for a run that has covered `distance`
    /// metres in `moving` seconds of moving time and `elapsed` seconds of wall time so far
    /// (zeros: a run not started). Nil for kinds whose target is not a distance in a time (only
    /// `pace` and `distance_in_time` have one), and once the target distance is covered.
    ///
    /// The target is the spec's, without the GPS tolerance (the check accepts a little less),
    /// and is counted from the run's start: `pace` asks for the whole run's moving pace, and
    /// `distance_in_time` is met from the start when it is met at all by a steady runner (a
    /// later stretch may still make it, which this does not look for).
    public func paceNeeded(distance: Meters, moving: Seconds, elapsed: Seconds) -> PaceNeeded? {
        let target: Meters, allowed: Seconds, spent: Seconds, time: PaceNeeded.Time
        switch self {
        case .pace(let maxPace, let minDistance):
            target = minDistance; allowed = maxPace * minDistance / 1000; spent = moving; time = .moving
        case .distanceInTime(let d, let maxDuration):
            target = d; allowed = maxDuration; spent = elapsed; time = .elapsed
        default:
            return nil
        }
        guard distance.isFinite, spent.isFinite else { return nil }
        let remaining = target - max(0, distance)
        guard remaining > 0 else { return nil }
        let left = allowed - max(0, spent)
        return PaceNeeded(remaining: remaining, pace: left > 0 ? left / (remaining / 1000) : nil, time: time)
    }
}
