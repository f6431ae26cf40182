import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension RunPlan {
    /// Plans for the kinds added with feature schema v4 (docs/simulation.md, record 0642). As for
    /// the other kinds, success clears the target with a margin and failure falls clearly short.
    static func attemptV4(_ spec: MissionSpec, succeed: Bool, state: Physiology, usualStartHour: Double,
                          weekSoFar: Meters, rng: inout SeededGenerator) -> RunPlan {
        func easy(_ d: Meters) -> SecondsPerKm { state.racePace(over: d) * rng.uniform(1.10, 1.22) }
        func shortOf(_ target: Meters) -> Meters {
            min(target * rng.uniform(0.5, 0.93), state.endurance * rng.uniform(0.9, 1.3))
        }
        func steady(_ d: Meters) -> RunPlan { RunPlan(legs: [Leg(distance: d, pace: easy(d), mode: .run)]) }
        let habit = usualStartHour + rng.gaussian(mean: 0, sd: 0.5)
        switch spec {
        case .earlyBird(let before, let d):
            // Success starts 0.3–1 h before the limit (or at the usual hour when that is earlier);
            // failure starts 0.3–1.5 h after it, or stops short at a good hour.
            let limit = Double(before) / 60
            let early = max(MissionEvaluatorHours.nightEnds + 0.3, min(habit, limit - rng.uniform(0.3, 1.0)))
            if succeed {
                var plan = steady(d * rng.uniform(1.02, 1.12)); plan.startHour = early; return plan
            } else if rng.bernoulli(0.5) {
                var plan = steady(d * rng.uniform(1.02, 1.12))
                plan.startHour = min(23.5, max(habit, limit + rng.uniform(0.3, 1.5))); return plan
            } else {
                var plan = steady(shortOf(d)); plan.startHour = early; return plan
            }

        case .nightOwl(let after, let d):
            let limit = Double(after) / 60
            let late = min(23.8, max(habit, limit + rng.uniform(0.1, 0.75)))
            if succeed {
                var plan = steady(d * rng.uniform(1.02, 1.12)); plan.startHour = late; return plan
            } else if rng.bernoulli(0.5) {
                var plan = steady(d * rng.uniform(1.02, 1.12))
                plan.startHour = max(MissionEvaluatorHours.nightEnds + 0.5, min(habit, limit - rng.uniform(0.3, 1.5)))
                return plan
            } else {
                var plan = steady(shortOf(d)); plan.startHour = late; return plan
            }

        case .loop(_, let d):
            // Success: a route steered back to its start; failure: a one-way run, or a loop cut short.
            if succeed {
                var plan = steady(d * rng.uniform(1.02, 1.12)); plan.route = .closedLoop; return plan
            } else if rng.bernoulli(0.5) {
                var plan = steady(d * rng.uniform(1.02, 1.12)); plan.route = .oneWay; return plan
            } else {
                var plan = steady(shortOf(d)); plan.route = .closedLoop; return plan
            }

        case .intervals(let reps, let rep, let maxPace, let rest):
            // Warm-up, reps 2 % + 10 m longer than asked at 4–8 % under the pace limit, jogged
            // rests that leave room for the rep's spare metres on both sides (the check times the
            // rest from the end of one measured rep to the start of the next), cool-down.
            // Failure: fewer reps, or every rep too slow.
            let jog = easy(state.endurance) * 1.1
            var legs = [Leg(distance: 1000, pace: easy(1000), mode: .run)]
            let tooSlow = !succeed && rng.bernoulli(0.5)
            let count = succeed || tooSlow ? reps + 1 : rng.int(in: 0...(reps - 1))
            let repLeg = rep * 1.02 + 10
            for k in 0..<count {
                let pace = maxPace * (tooSlow ? rng.uniform(1.06, 1.12) : rng.uniform(0.92, 0.96))
                if k > 0 {
                    let spare = (repLeg - rep * 0.99) / 1000 * pace
                    let seconds = max(5, rest - 2 * spare) * rng.uniform(0.5, 0.8)
                    legs.append(Leg(distance: max(20, seconds / jog * 1000), pace: jog, mode: .run))
                }
                legs.append(Leg(distance: repLeg, pace: pace, mode: .run))
            }
            legs.append(Leg(distance: 800, pace: jog, mode: .run))
            var plan = RunPlan(legs: legs); plan.noStops = true; return plan

        case .fartlek(let surges, let minSurge):
            // Surges at 1.45 × the base speed for 1.25–1.5 × the asked time (+3 s for the smoothed
            // edges), a recovery of at least a minute between; failure: fewer surges, or every
            // surge well under the asked time.
            let base = easy(state.endurance)
            let tooShort = !succeed && rng.bernoulli(0.5)
            let count = succeed || tooShort ? surges + 1 : rng.int(in: 0...(surges - 1))
            var legs = [Leg(distance: 1000, pace: base, mode: .run)]
            var covered: Meters = 1000
            for _ in 0..<count {
                let seconds = tooShort ? max(1, minSurge - 2) * rng.uniform(0.4, 0.65) : minSurge * rng.uniform(1.25, 1.5) + 3
                let surge = seconds / (base / 1.45) * 1000
                let recovery = max(60, 1.5 * seconds) / base * 1000
                legs.append(Leg(distance: surge, pace: base / 1.45, mode: .run))
                legs.append(Leg(distance: recovery, pace: base, mode: .run))
                covered += surge + recovery
            }
            legs.append(Leg(distance: max(1000, state.endurance * rng.uniform(0.8, 1.1) - covered), pace: base, mode: .run))
            var plan = RunPlan(legs: legs); plan.noStops = true; return plan

        case .weeklyVolume(let target):
            // Today's run covers what is left of the week's target (a distance mission).
            let left = max(500, target - weekSoFar)
            return steady(succeed ? left * rng.uniform(1.03, 1.12) : shortOf(left))

        default:
            preconditionFailure("RunPlan.attemptV4: kind \(spec.kind.rawValue) is not a schema v4 kind")
        }
    }
}

/// The early-bird check's night boundary in hours (`MissionEvaluator.nightEndsAtMinute`).
enum MissionEvaluatorHours {
    static let nightEnds = Double(MissionEvaluator.nightEndsAtMinute) / 60
}
