#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Missions

/// The race-pace estimate (records 0619, 0651): every recent run says something about the
/// runner's current speed once its pace is scaled to one distance, newer runs say more, and a
/// run that was not the runner's usual effort (intervals with jogged rests, a recovery run, a
/// walked cool-down, a hard attempt) says little, so the estimate is a weighted median; a run
/// that completed a mission asking for another effort is left out (record 0654).
extension RunnerState {
    /// Runs of the last `racePaceWindowDays` days enter `racePace5k`.
    public static let racePaceWindowDays = 90.0
    /// Age at which a run's weight in `racePace5k` has halved, days.
    public static let racePaceHalfLifeDays = 30.0
    /// Shortest run that enters `racePace5k`, metres (shorter ones are warm-ups or strides).
    public static let racePaceMinimumDistance: Meters = 1000
    /// Riegel's exponent for pace: pace ∝ distance^0.06 (time ∝ distance^1.06).
    public static let riegelPaceExponent = 0.06

    /// Weighted median of each run's moving pace scaled to 5 km with Riegel's exponent,
    /// pace × (5000 / distance)^0.06, over runs of at least `racePaceMinimumDistance` that
    /// started in the `racePaceWindowDays` days before `asOf`, each weighted
    /// 0.5^(age / `racePaceHalfLifeDays`), leaving out the runs that completed a mission of an
    /// `otherEffortKinds` kind (`outcomes`, matched by the deciding run's start); s/km, nil
    /// without such a run. `past` holds only runs before `asOf`.
    static func racePace5k(past: [RunRecord], asOf: EpochSeconds, outcomes: [PastOutcome] = []) -> SecondsPerKm? {
        weightedMedian(racePaceSamples(past: past, asOf: asOf, outcomes: outcomes))
    }

    /// Kinds whose completion says the run was at another effort than the runner's own (a pace
    /// asked, reps or surges, a held-back recovery, hill repeats, a race), record 0654. Only
    /// completions count: a failed mission has no deciding run in the daemon's store (record
    /// 0534), so training and serving leave out the same runs.
    public static let otherEffortKinds: Set<MissionKind> = [.pace, .distanceInTime, .intervals, .fartlek, .personalBest,
                                                            .progression, .negativeSplit, .recovery, .hills,
                                                            .raceFinish, .podium]

    /// `racePace5k` as of `asOf` from `past` (runs before `asOf`, any order), with the effective
    /// number of runs behind it, (Σw)² / Σw² (Kish): the runs' count when they weigh the same,
    /// fewer when old runs weigh little. Nil without a run that enters the estimate.
    public static func racePaceEvidence(past: [RunRecord], asOf: EpochSeconds, outcomes: [PastOutcome] = [])
        -> (pace: SecondsPerKm, effectiveRuns: Double)? {
        let samples = racePaceSamples(past: past, asOf: asOf, outcomes: outcomes)
        guard let pace = weightedMedian(samples) else { return nil }
        let sum = samples.reduce(0) { $0 + $1.weight }, squares = samples.reduce(0) { $0 + $1.weight * $1.weight }
        return (pace, squares > 0 ? sum * sum / squares : 0)
    }

    /// Each run's 5 km-scaled pace and recency weight, for the runs `racePace5k` reads.
    static func racePaceSamples(past: [RunRecord], asOf: EpochSeconds, outcomes: [PastOutcome] = [])
        -> [(pace: SecondsPerKm, weight: Double)] {
        var weighted: [(pace: SecondsPerKm, weight: Double)] = []
        // Two runs started at the same instant are both left out when one completed such a
        // mission (an outcome names its run by start only); harmless, and never a wrong run kept.
        let skipped = Set(outcomes.filter { $0.completed && otherEffortKinds.contains($0.kind) && $0.decidedAt < asOf }
            .map(\.decidedAt))
        for run in past where !skipped.contains(run.startTime) {
            let age = asOf - run.startTime
            guard age >= 0, age <= racePaceWindowDays * 86_400, run.distance >= racePaceMinimumDistance,
                  let pace = run.movingPace, pace > 0, pace.isFinite else { continue }
            weighted.append((pace * pow(5000 / run.distance, riegelPaceExponent), pow(0.5, age / (racePaceHalfLifeDays * 86_400))))
        }
        return weighted
    }

    /// The value where the cumulative weight, in increasing order of value, reaches half the
    /// total; the midpoint of the two values around it when it lands exactly on half (so equal
    /// weights give the ordinary median). Nil for no values or no positive weight.
    static func weightedMedian(_ values: [(pace: SecondsPerKm, weight: Double)]) -> SecondsPerKm? {
        let sorted = values.filter { $0.weight > 0 && $0.weight.isFinite }.sorted { $0.pace < $1.pace }
        let half = sorted.reduce(0) { $0 + $1.weight } / 2
        guard half > 0 else { return nil }
        var cumulative = 0.0
        for (i, v) in sorted.enumerated() {
            cumulative += v.weight
            if cumulative > half { return v.pace }
            if cumulative == half, i + 1 < sorted.count { return (v.pace + sorted[i + 1].pace) / 2 }
        }
        return sorted.last?.pace
    }

    /// `racePace5k` scaled to `distance` (at least 400 m) with Riegel's exponent, s/km; without
    /// it, `expectedPace(over:)` (the typical-pace estimate).
    public func expectedRacePace(over distance: Meters) -> SecondsPerKm {
        guard let racePace5k else { return expectedPace(over: distance) }
        return racePace5k * pow(max(distance, 400) / 5000, Self.riegelPaceExponent)
    }
}
