import RunusCore

/// How much GPS and auto-pause error a mission check forgives (record 0201).
public struct MissionTolerance: Sendable {
    /// Distance targets accept a measured distance ≥ this fraction of the target, in (0, 1]
    /// (default 0.99: watches and phones differ by 1–5 % on the same course).
    public var distanceFraction: Double
    /// Duration targets accept moving time ≥ this fraction of the target, in (0, 1]
    /// (default 0.99: a false auto-pause can steal a few seconds).
    public var durationFraction: Double
    /// Pace targets accept a pace up to this much slower, s/km ≥ 0 (default 1).
    /// Time limits get the same slack per km of the target distance.
    public var paceSlack: SecondsPerKm

    public init(distanceFraction: Double = 0.99, durationFraction: Double = 0.99, paceSlack: SecondsPerKm = 1) {
        precondition(distanceFraction > 0 && distanceFraction <= 1 && durationFraction > 0 && durationFraction <= 1
                     && paceSlack >= 0, "MissionTolerance: fractions must be in (0, 1] and slack ≥ 0")
        self.distanceFraction = distanceFraction
        self.durationFraction = durationFraction
        self.paceSlack = paceSlack
    }

    public static let `default` = MissionTolerance()

    /// No forgiveness at all (for tests and strict race checks).
    public static let exact = MissionTolerance(distanceFraction: 1, durationFraction: 1, paceSlack: 0)
}
