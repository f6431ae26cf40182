import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension RunPlan {
    /// Distance of an explorer attempt's start from home beyond the runner's endurance, metres:
    /// the runner's usual runs from home stay within about half the endurance of it, so a start
    /// this far out is on ground they have not run (record 0645).
    static let explorerReach: ClosedRange<Meters> = 4000...14_000

    /// Plans for the kinds added with feature schema v5 (docs/simulation.md, records 0645, 0646).
    /// As for the other kinds, success clears the target with a margin and failure falls clearly short.
    static func attemptV5(_ spec: MissionSpec, succeed: Bool, state: Physiology, bestEffort: Seconds?,
                          rng: inout SeededGenerator) -> RunPlan {
        func easy(_ d: Meters) -> SecondsPerKm { state.racePace(over: d) * rng.uniform(1.10, 1.22) }
        func shortOf(_ target: Meters) -> Meters {
            min(target * rng.uniform(0.5, 0.93), state.endurance * rng.uniform(0.9, 1.3))
        }
        func elsewhere() -> (east: Meters, north: Meters) {
            let r = state.endurance + rng.uniform(explorerReach.lowerBound, explorerReach.upperBound)
            let bearing = rng.uniform(0, 2 * .pi)
            return (r * sin(bearing), r * cos(bearing))
        }
        switch spec {
        case .explorer(_, let d):
            // Success: the distance (+2–12 %) from a start far from home, all on new ground.
            // Failure: stops short out there, or runs the distance on the usual ground from home.
            if succeed {
                let full = d * rng.uniform(1.02, 1.12)
                var plan = RunPlan(legs: [Leg(distance: full, pace: easy(full), mode: .run)])
                plan.origin = elsewhere(); return plan
            } else if rng.bernoulli(0.5) {
                let short = shortOf(d)
                var plan = RunPlan(legs: [Leg(distance: short, pace: easy(short), mode: .run)])
                plan.origin = elsewhere(); return plan
            } else {
                let full = d * rng.uniform(1.02, 1.12)
                return RunPlan(legs: [Leg(distance: full, pace: easy(full), mode: .run)])
            }

        case .personalBest(let d):
            // Without stops (a stop counts in the effort's elapsed time): success covers the
            // distance (+3–10 %) at 3–7 % under the best effort's pace; failure runs it 4–12 %
            // slower, or stops short of the distance.
            let best = (bestEffort ?? d / 1000 * easy(d)) / d * 1000
            var plan: RunPlan
            if succeed {
                plan = RunPlan(legs: [Leg(distance: d * rng.uniform(1.03, 1.1), pace: best * rng.uniform(0.93, 0.97), mode: .run)])
            } else if rng.bernoulli(0.5) {
                plan = RunPlan(legs: [Leg(distance: d * rng.uniform(1.03, 1.1), pace: best * rng.uniform(1.04, 1.12), mode: .run)])
            } else {
                plan = RunPlan(legs: [Leg(distance: shortOf(d), pace: best, mode: .run)])
            }
            plan.noStops = true
            return plan

        default:
            preconditionFailure("RunPlan.attemptV5: kind \(spec.kind.rawValue) is not a schema v5 kind")
        }
    }
}
