import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// A runner's changing physical state: Banister's fitness–fatigue model for speed, and an
/// endurance level that follows the distances actually run.
///
/// - Fitness and fatigue are impulse responses to the daily training load (km run), decaying
///   with time constants of 42 and 7 days (Banister 1975; Busso 2003 for typical values).
/// - Performance P = fitness − 2·fatigue. The 5 km time is `base5k · exp(−c·(P − P_habit))`,
///   where P_habit is the steady state at the runner's habitual weekly volume, so that a runner
///   who trains as usual is at `base5k`, more training makes them faster and rest slower.
///   c = 4e-4 per km-unit: doubling the habitual volume for months gives about 5 % faster.
/// - Endurance E (metres) is an exponentially weighted mean of the run distances: E ← 0.85·E +
///   0.15·d after each run. It is the distance the runner can currently run comfortably.
struct Physiology: Sendable {
    static let fitnessDecay = exp(-1.0 / 42)
    static let fatigueDecay = exp(-1.0 / 7)
    static let fatigueWeight = 2.0
    static let speedSensitivity = 4e-4
    /// Weight of the newest run in the endurance average.
    static let enduranceWeight = 0.15

    let base5k: Seconds
    let habitualPerformance: Double
    private(set) var fitness: Double
    private(set) var fatigue: Double
    private(set) var endurance: Meters

    init(traits: RunnerTraits) {
        base5k = traits.base5k
        let dailyKm = traits.habitDistance / 1000 * traits.runsPerWeek / 7
        // Steady state of x ← decay·x + load is load / (1 − decay).
        fitness = dailyKm / (1 - Self.fitnessDecay)
        fatigue = dailyKm / (1 - Self.fatigueDecay)
        habitualPerformance = fitness - Self.fatigueWeight * fatigue
        endurance = traits.habitDistance
    }

    /// Advances one day in which the runner ran `distance` metres (0 for rest).
    mutating func endDay(ran distance: Meters) {
        let km = distance / 1000
        fitness = fitness * Self.fitnessDecay + km
        fatigue = fatigue * Self.fatigueDecay + km
        if distance > 0 {
            endurance = (1 - Self.enduranceWeight) * endurance + Self.enduranceWeight * distance
        }
    }

    /// Current 5 km race time, seconds.
    var current5k: Seconds {
        let performance = fitness - Self.fatigueWeight * fatigue
        return base5k * exp(-Self.speedSensitivity * (performance - habitualPerformance))
    }

    /// Race-effort pace over `distance`, s/km, by Riegel's exponent 1.06 from the current 5 km.
    func racePace(over distance: Meters) -> SecondsPerKm {
        current5k / 5 * pow(max(distance, 400) / 5000, 0.06)
    }

    /// Acute:chronic ratio of training load, about 1 for steady training.
    var acuteChronicRatio: Double {
        // Normalise the two averages to daily loads before dividing.
        let acute = fatigue * (1 - Self.fatigueDecay)
        let chronic = fitness * (1 - Self.fitnessDecay)
        return chronic > 0.01 ? acute / chronic : 1
    }
}
