import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension RunPlan {
    /// Plans for the kinds added with feature schema v2 (docs/simulation.md). As for the first
    /// kinds, success clears the target with a margin and failure falls clearly short, so that
    /// the GPS check agrees with the attempt except near the tolerance.
    static func attemptV2(_ spec: MissionSpec, succeed: Bool, state: Physiology, longest28d: Meters,
                          rng: inout SeededGenerator) -> RunPlan {
        func easy(_ d: Meters) -> SecondsPerKm { state.racePace(over: d) * rng.uniform(1.10, 1.22) }
        func shortOf(_ target: Meters) -> Meters {
            min(target * rng.uniform(0.5, 0.93), state.endurance * rng.uniform(0.9, 1.3))
        }
        switch spec {
        case .longRun(let multiple):
            let target = multiple * longest28d
            let d = succeed ? target * rng.uniform(1.02, 1.12) : shortOf(target)
            return RunPlan(legs: [Leg(distance: d, pace: easy(d), mode: .run)])

        case .recovery(let minPace, let minDuration, _):
            // Held back: slower than the floor with a margin, because GPS lengthens the distance and
            // auto-pause drops the slowest moments, both of which make the measured pace faster.
            if succeed {
                // Below 8:20/km (500 s/km) auto-pause drops more of the slow moments: a wider margin.
                let margin = minPace >= 500 ? rng.uniform(1.12, 1.18) : rng.uniform(1.08, 1.12)
                let pace = max(minPace * margin, easy(state.endurance))
                let d = minDuration * rng.uniform(1.04, 1.12) / pace * 1000
                return RunPlan(legs: [Leg(distance: d, pace: pace, mode: .run)])
            } else if rng.bernoulli(0.5) {
                // Ran the time but too fast.
                let pace = minPace * rng.uniform(0.88, 0.95)
                return RunPlan(legs: [Leg(distance: minDuration * rng.uniform(1.04, 1.12) / pace * 1000, pace: pace, mode: .run)])
            } else {
                let pace = minPace * rng.uniform(1.03, 1.07)
                return RunPlan(legs: [Leg(distance: minDuration * rng.uniform(0.5, 0.9) / pace * 1000, pace: pace, mode: .run)])
            }

        case .evenPace(let minDistance, let spread):
            let d = minDistance * rng.uniform(1.02, 1.1)
            let pace = easy(d)
            if succeed {
                return RunPlan(legs: [Leg(distance: d, pace: pace, mode: .run)])
            } else if rng.bernoulli(0.5) {
                // Faded: the second half slower by well over the allowed spread.
                let fade = spread + rng.uniform(12, 30)
                return RunPlan(legs: [Leg(distance: d / 2, pace: pace, mode: .run),
                                      Leg(distance: d / 2, pace: pace + fade, mode: .run)])
            } else {
                let short = shortOf(minDistance)
                return RunPlan(legs: [Leg(distance: short, pace: easy(short), mode: .run)])
            }

        case .progression(let n):
            // One-kilometre legs, each 3.5 % faster than the one before (n + 1 of them, one spare);
            // a failed attempt gets faster for fewer than n km, then fades km by km.
            let step = 0.965
            var pace = easy(Double(n + 1) * 1000) * 1.06
            let improving = succeed ? n + 1 : rng.int(in: 1...(n - 1))
            var legs: [Leg] = []
            for k in 0..<(n + 1) {
                if k > 0 { pace *= k < improving ? step : 1 / step }
                legs.append(Leg(distance: 1000, pace: pace, mode: .run))
            }
            return RunPlan(legs: legs)

        case .hills(let ascent):
            // Repeats on flat ground: the whole target (with a margin) when succeeding, a part when not.
            let d = max(2000, state.endurance * rng.uniform(0.8, 1.1))
            let climb = ascent * (succeed ? rng.uniform(1.12, 1.3) : rng.uniform(0.1, 0.4))
            return RunPlan(legs: [Leg(distance: d, pace: easy(d) * 1.05, mode: .run, climb: climb)], flatTerrain: true)

        default:
            preconditionFailure("RunPlan.attemptV2: kind \(spec.kind.rawValue) is not a schema v2 kind")
        }
    }
}
