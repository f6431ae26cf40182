#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// The recency-weighted race-pace estimate (record 0619): every recent run says something about
/// the runner's current speed once its pace is scaled to one distance, and newer runs say more.
extension RunnerState {
    /// Runs of the last `racePaceWindowDays` days enter `racePace5k`.
    public static let racePaceWindowDays = 42.0
    /// Age at which a run's weight in `racePace5k` has halved, days.
    public static let racePaceHalfLifeDays = 14.0
    /// Shortest run that enters `racePace5k`, metres (shorter ones are warm-ups or strides).
    public static let racePaceMinimumDistance: Meters = 1000
    /// Riegel's exponent for pace: pace ∝ distance^0.06 (time ∝ distance^1.06).
    public static let riegelPaceExponent = 0.06

    /// Weighted geometric mean of each run's moving pace scaled to 5 km with Riegel's exponent,
    /// pace × (5000 / distance)^0.06, over runs of at least `racePaceMinimumDistance` that
    /// started in the `racePaceWindowDays` days before `asOf`, each weighted
    /// 0.5^(age / `racePaceHalfLifeDays`); s/km, nil without such a run. `past` holds only runs
    /// before `asOf`.
    static func racePace5k(past: [RunRecord], asOf: EpochSeconds) -> SecondsPerKm? {
        var weights = 0.0, weightedLogs = 0.0
        for run in past {
            let age = asOf - run.startTime
            guard age <= racePaceWindowDays * 86_400, run.distance >= racePaceMinimumDistance,
                  let pace = run.movingPace, pace > 0, pace.isFinite else { continue }
            let w = pow(0.5, age / (racePaceHalfLifeDays * 86_400))
            weights += w
            weightedLogs += w * log(pace * pow(5000 / run.distance, riegelPaceExponent))
        }
        return weights > 0 ? exp(weightedLogs / weights) : nil
    }

    /// `racePace5k` scaled to `distance` (at least 400 m) with Riegel's exponent, s/km; without
    /// it, `expectedPace(over:)` (the typical-pace estimate).
    public func expectedRacePace(over distance: Meters) -> SecondsPerKm {
        guard let racePace5k else { return expectedPace(over: distance) }
        return racePace5k * pow(max(distance, 400) / 5000, Self.riegelPaceExponent)
    }
}
