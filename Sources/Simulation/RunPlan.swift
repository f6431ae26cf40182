import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// What the runner intends to do on a run: a sequence of legs at steady paces.
struct RunPlan: Sendable {
    enum Mode: Sendable { case run, walk, drive }

    struct Leg: Sendable {
        let distance: Meters
        /// Target pace of the leg, s/km.
        let pace: SecondsPerKm
        let mode: Mode
        /// Climb added by hill repeats spread evenly over the leg, metres ≥ 0 (0: the route's own terrain).
        var climb: Meters = 0
    }

    /// The route's shape: the usual draw (a loop 70 % of the time, else out and back), a loop
    /// steered back to its start, or a one-way run that ends far from it (loop missions).
    enum Route: Sendable { case usual, closedLoop, oneWay }

    var legs: [Leg]
    var route: Route = .usual
    /// A session without stops at crossings (a track or a park path: intervals and fartlek).
    var noStops = false
    /// Local start hour the attempt asks for (early bird, night owl); nil: the runner's usual hour.
    var startHour: Double? = nil
    /// A route on flat ground (the terrain's relief scaled down to a tenth): a hills attempt
    /// gets its climb only from the repeats it plans.
    var flatTerrain = false
    /// Where the run starts relative to home, metres east and north (explorer: ground the runner
    /// has not run); nil: at home.
    var origin: (east: Meters, north: Meters)? = nil

    /// Distance on foot (what the runner's body did), metres.
    var footDistance: Meters { legs.filter { $0.mode != .drive }.reduce(0) { $0 + $1.distance } }

    /// The plan for a runner trying `spec`, succeeding or not (`succeed` is drawn from the truth).
    /// Success clears the target with a margin, failure falls clearly short, so that the GPS
    /// check agrees with the attempt except near the tolerance.
    /// `usualStartHour`: the runner's habitual local start hour; `weekSoFar`: the week's measured
    /// distance before the day, metres (weekly volume).
    /// `bestEffort`: the fastest measured time over a personal-best mission's distance, seconds.
    static func attempt(_ spec: MissionSpec, succeed: Bool, state: Physiology, longest28d: Meters = 0,
                        usualStartHour: Double = 12, weekSoFar: Meters = 0, bestEffort: Seconds? = nil,
                        rng: inout SeededGenerator) -> RunPlan {
        func easy(_ d: Meters) -> SecondsPerKm { state.racePace(over: d) * rng.uniform(1.10, 1.22) }
        // A runner who gives up stops short of the target, and never runs much beyond what they
        // can currently do (otherwise failed long attempts would build endurance for free).
        func shortOf(_ target: Meters) -> Meters {
            min(target * rng.uniform(0.5, 0.93), state.endurance * rng.uniform(0.9, 1.3))
        }
        switch spec {
        case .distance(let target):
            let d = succeed ? target * rng.uniform(1.02, 1.12) : shortOf(target)
            return RunPlan(legs: [Leg(distance: d, pace: easy(d), mode: .run)])
        case .duration(let target):
            let pace = easy(state.endurance)
            let full = target / pace * 1000
            let d = succeed ? full * rng.uniform(1.02, 1.12) : shortOf(full)
            return RunPlan(legs: [Leg(distance: d, pace: pace, mode: .run)])
        case .pace(let maxPace, let target):
            if succeed {
                return RunPlan(legs: [Leg(distance: target * rng.uniform(1.02, 1.1), pace: maxPace * rng.uniform(0.95, 0.985), mode: .run)])
            } else if rng.bernoulli(0.5) {
                return RunPlan(legs: [Leg(distance: target * rng.uniform(1.02, 1.1), pace: maxPace * rng.uniform(1.05, 1.12), mode: .run)])
            } else {
                return RunPlan(legs: [Leg(distance: shortOf(target), pace: maxPace * 0.98, mode: .run)])
            }
        case .negativeSplit(let target):
            let d = target * rng.uniform(1.02, 1.1)
            let pace = easy(d)
            if succeed {
                return RunPlan(legs: [Leg(distance: d / 2, pace: pace * 1.03, mode: .run),
                                      Leg(distance: d / 2, pace: pace * 0.96, mode: .run)])
            } else if rng.bernoulli(0.5) {
                return RunPlan(legs: [Leg(distance: d / 2, pace: pace * 0.97, mode: .run),
                                      Leg(distance: d / 2, pace: pace * 1.05, mode: .run)])
            } else {
                return RunPlan(legs: [Leg(distance: shortOf(target), pace: pace, mode: .run)])
            }
        case .distanceInTime(let target, let maxDuration):
            let required = maxDuration / target * 1000
            let pace = required * (succeed ? rng.uniform(0.94, 0.98) : rng.uniform(1.05, 1.12))
            return RunPlan(legs: [Leg(distance: target * rng.uniform(1.02, 1.1), pace: pace, mode: .run)])
        case .longRun, .recovery, .evenPace, .progression, .hills:
            return attemptV2(spec, succeed: succeed, state: state, longest28d: longest28d, rng: &rng)
        case .earlyBird, .nightOwl, .loop, .intervals, .fartlek, .weeklyVolume:
            return attemptV4(spec, succeed: succeed, state: state, usualStartHour: usualStartHour,
                             weekSoFar: weekSoFar, rng: &rng)
        case .explorer, .personalBest:
            return attemptV5(spec, succeed: succeed, state: state, bestEffort: bestEffort, rng: &rng)
        default:
            // The simulated policy offers only `BaselinePolicy.offeredKinds`: no plan for others.
            preconditionFailure("RunPlan: kind \(spec.kind.rawValue) is not modelled by the simulation")
        }
    }

    /// A run without a mission in mind: around the runner's endurance at an easy pace, sometimes
    /// with a walked cool-down.
    static func habitual(state: Physiology, rng: inout SeededGenerator) -> RunPlan {
        let d = max(1500, state.endurance * exp(rng.gaussian(mean: 0, sd: 0.2)))
        var legs = [Leg(distance: d, pace: state.racePace(over: d) * rng.uniform(1.12, 1.25), mode: .run)]
        if rng.bernoulli(0.1) { legs.append(Leg(distance: rng.uniform(300, 800), pace: 700, mode: .walk)) }
        return RunPlan(legs: legs)
    }
}
