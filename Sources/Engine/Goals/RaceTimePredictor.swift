import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// One earlier effort: a run's distance and moving time at an instant.
public struct Effort: Sendable, Equatable {
    public let time: EpochSeconds
    public let distance: Meters
    public let duration: Seconds

    public init(time: EpochSeconds, distance: Meters, duration: Seconds) {
        self.time = time; self.distance = distance; self.duration = duration
    }
}

/// Personal race-time predictions from a runner's history (docs/decisions/0009-race-time-prediction.md).
///
/// Riegel's formula T₂ = T₁·(D₂/D₁)^1.06 applied to one "best" run ignores when that run was and
/// how far it is from the target distance. This predictor applies Riegel to *every* earlier run,
/// then takes a low weighted quantile of those predictions, weighting each run by recency
/// (exp(−age / τ)) and by closeness in distance (exp(−|ln(D/d)| / w)): a recent run near the
/// target distance speaks loudest, an old 3 km speaks softly about a marathon. The low quantile
/// (5 %) picks the runner's best-form runs while ignoring easy days.
public struct RaceTimePredictor: Sendable {
    /// Riegel exponent applied to each run.
    public var exponent = 1.06
    /// Distance closeness scale w (natural-log units): a run half the target distance weighs
    /// exp(−0.69/0.5) ≈ 0.25 of one at the target distance.
    public var distanceWidth = 0.5
    /// Recency time constant τ, days.
    public var recencyDays = 60.0
    /// Weighted quantile of the per-run predictions, in (0, 1).
    public var quantile = 0.05
    /// Runs shorter than this do not predict, metres.
    public var minimumDistance: Meters = 1500
    /// Runs older than this do not predict, days.
    public var lookbackDays = 365.0

    public init() {}

    /// Predicted time for `distance` at instant `at` from `efforts` strictly before it; nil
    /// without a usable earlier run.
    public func predict(distance: Meters, at: EpochSeconds, from efforts: [Effort]) -> Seconds? {
        var candidates: [(prediction: Seconds, weight: Double)] = []
        for e in efforts where e.time < at && at - e.time <= lookbackDays * 86_400
            && e.distance >= minimumDistance && e.duration > 0 {
            let prediction = e.duration * pow(distance / e.distance, exponent)
            let age = (at - e.time) / 86_400
            let weight = exp(-abs(log(distance / e.distance)) / distanceWidth) * exp(-age / recencyDays)
            candidates.append((prediction, weight))
        }
        guard !candidates.isEmpty else { return nil }
        candidates.sort { $0.prediction < $1.prediction }
        let total = candidates.reduce(0) { $0 + $1.weight }
        var cumulative = 0.0
        for c in candidates {
            cumulative += c.weight
            if cumulative >= quantile * total { return c.prediction }
        }
        return candidates.last!.prediction
    }

    /// The baseline: Riegel (exponent 1.06) from the earlier run that predicts the fastest time,
    /// over the same lookback.
    public func riegel(distance: Meters, at: EpochSeconds, from efforts: [Effort]) -> Seconds? {
        efforts.filter { $0.time < at && at - $0.time <= lookbackDays * 86_400 && $0.distance >= minimumDistance && $0.duration > 0 }
            .map { $0.duration * pow(distance / $0.distance, 1.06) }
            .min()
    }

    /// Standard race distances predictions are made for, metres.
    public static let raceDistances: [(name: String, distance: Meters)] = [
        ("5K", 5000), ("10K", 10_000), ("half marathon", 21_097.5), ("marathon", 42_195),
    ]
}
