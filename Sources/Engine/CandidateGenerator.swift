import RunusCore
import Features
import Missions

/// Candidate missions around a runner's current ability, for every kind: a ladder of targets
/// from easy to hard, rounded to values people like to read (0.5 km, 5 minutes, whole seconds).
public enum CandidateGenerator {
    /// Multipliers of the runner's endurance for distance-like targets.
    static let distanceLadder: [Double] = [0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.85, 2.0, 2.2]
    /// Multipliers of the expected pace for pace targets (< 1 is faster), 2 % apart so that
    /// some candidate lands in each band.
    static let paceLadder: [Double] = [0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98, 1.0, 1.02]

    public static func candidates(for state: RunnerState) -> [MissionSpec] {
        let endurance = state.enduranceOrDefault
        func km(_ m: Meters) -> Meters { max(1000, (m / 500).rounded() * 500) }
        var out: [MissionSpec] = []
        var seen: Set<MissionSpec> = []
        func add(_ spec: MissionSpec) { if seen.insert(spec).inserted { out.append(spec) } }

        for f in distanceLadder { add(.distance(minDistance: km(endurance * f))) }
        for f in distanceLadder {
            let minutes = endurance * f * state.typicalPaceOrDefault / 1000 / 60
            add(.duration(minDuration: max(10, (minutes / 5).rounded() * 5) * 60))
        }
        for f in [0.6, 0.8, 1.0] {
            let d = km(endurance * f)
            for p in paceLadder { add(.pace(maxPace: (state.expectedPace(over: d) * p).rounded(), minDistance: d)) }
        }
        for f in [0.7, 0.85, 1.0, 1.15, 1.3] { add(.negativeSplit(minDistance: km(endurance * f))) }
        for d in [1000.0, 3000, 5000, 10_000] where d <= endurance * 1.2 || d == 1000 {
            for p in paceLadder {
                let seconds = d * state.expectedPace(over: d) * p / 1000
                add(.distanceInTime(distance: d, maxDuration: (seconds / 10).rounded() * 10))
            }
        }
        return out
    }
}
