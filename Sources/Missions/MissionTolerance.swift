import RunusCore

/// How much GPS and auto-pause error a mission check forgives (records 0201 and 0211).
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
    /// Ascent targets accept a measured climb ≥ this fraction of the target, in (0, 1]
    /// (default 0.95: GPS and barometric heights disagree by more than distances do; record 0211).
    public var ascentFraction: Double
    /// Interval rests are accepted up to this multiple of the limit, ≥ 1 (default 1.1: rep
    /// boundaries found on a GPS distance profile move by a few seconds; record 0211).
    public var recoveryFactor: Double
    /// Surges are accepted this many seconds shorter than asked, ≥ 0 (default 2: the 10 s
    /// speed smoothing blurs each edge by about a second; record 0212).
    public var surgeSlack: Seconds

    public init(distanceFraction: Double = 0.99, durationFraction: Double = 0.99, paceSlack: SecondsPerKm = 1,
                ascentFraction: Double = 0.95, recoveryFactor: Double = 1.1, surgeSlack: Seconds = 2) {
        precondition(distanceFraction > 0 && distanceFraction <= 1 && durationFraction > 0 && durationFraction <= 1
                     && paceSlack >= 0, "MissionTolerance: fractions must be in (0, 1] and slack ≥ 0")
        precondition(ascentFraction > 0 && ascentFraction <= 1 && recoveryFactor >= 1 && surgeSlack >= 0,
                     "MissionTolerance: ascentFraction in (0, 1], recoveryFactor ≥ 1, surgeSlack ≥ 0")
        self.distanceFraction = distanceFraction
        self.durationFraction = durationFraction
        self.paceSlack = paceSlack
        self.ascentFraction = ascentFraction
        self.recoveryFactor = recoveryFactor
        self.surgeSlack = surgeSlack
    }

    public static let `default` = MissionTolerance()

    /// No forgiveness at all (for tests and strict race checks).
    public static let exact = MissionTolerance(distanceFraction: 1, durationFraction: 1, paceSlack: 0,
                                               ascentFraction: 1, recoveryFactor: 1, surgeSlack: 0)
}
