import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// The ground truth: the probability that a runner who tries a mission completes it, given the
/// runner's true (latent) state. Learned models are judged by how well they recover it.
///
/// logit p = a(kind) − s_d(kind)·log(D / E) − s_p·log(r / 0.9) − term(kind) − 0.8·max(0, ACR − 1.2)
///
/// - D: the distance the mission asks for (for a duration mission, the distance the runner
///   covers in that time at an easy pace); E: the runner's current endurance (`Physiology`).
/// - r = (race-effort pace over D) / (mission pace): 1 means the mission asks for an all-out
///   effort; easy running is about 0.87. Only pace-bearing kinds have this term.
/// - ACR: acute:chronic load ratio; a runner who suddenly trains much more than usual is tired.
/// - term(kind), for the kinds added with feature schema v2 (docs/simulation.md, record 0623):
///   long run: D = multiple × the longest measured run of the 28 days before;
///   recovery: D = duration at the slower of the pace floor and the easy pace, and
///   8·max(0, log(floor / easy pace)) for being asked to hold back;
///   even pace: −2·log(spread / 10 s/km) (a looser spread is easier);
///   progression: D = kilometres, and 0.3·(kilometres − 3);
///   hills: no distance term, 2.5·log(climb / (10 m/km × E in km)).
/// - and for the kinds of feature schema v4 (record 0642): early bird / night owl: D = the
///   distance, 1.2 per hour the start must move from the usual hour (with a 0.5 h margin);
///   loop: D = the distance, 0.8·log(100 m / gap); intervals: D = reps × rep distance (slope 1),
///   r over the rep distance (slope 12), −0.5·log(rest / 120 s); fartlek: no distance term,
///   1.5·log(surges × surge s / (36 s × E in km)); weekly volume: D = target − the week's
///   distance so far.
/// - and for schema v5 (records 0645, 0646): explorer: D = the distance, 1.2·log(share / 0.3)
///   and 3·(ground familiarity − 0.3); personal best: D = the distance (slope 1), r = race pace
///   over it / the best effort's pace (slope 12).
///
/// Coefficients are chosen so that the exploring policy's offers span p ≈ 0.1 … 0.95.
enum BehaviourModel {
    struct Coefficients: Sendable {
        let intercept: Double
        let distanceSlope: Double
        let paceSlope: Double
    }

    static func coefficients(_ kind: MissionKind) -> Coefficients {
        switch kind {
        case .distance: return Coefficients(intercept: 2.2, distanceSlope: 4.0, paceSlope: 0)
        case .duration: return Coefficients(intercept: 2.3, distanceSlope: 4.0, paceSlope: 0)
        case .pace: return Coefficients(intercept: 2.0, distanceSlope: 2.0, paceSlope: 25)
        case .negativeSplit: return Coefficients(intercept: 1.3, distanceSlope: 4.0, paceSlope: 0)
        case .distanceInTime: return Coefficients(intercept: 1.7, distanceSlope: 2.0, paceSlope: 25)
        case .longRun: return Coefficients(intercept: 2.6, distanceSlope: 4.0, paceSlope: 0)
        case .recovery: return Coefficients(intercept: 2.6, distanceSlope: 4.0, paceSlope: 0)
        case .evenPace: return Coefficients(intercept: 1.8, distanceSlope: 4.0, paceSlope: 0)
        case .progression: return Coefficients(intercept: 2.4, distanceSlope: 3.0, paceSlope: 0)
        case .hills: return Coefficients(intercept: 1.8, distanceSlope: 0, paceSlope: 0)
        case .earlyBird, .nightOwl: return Coefficients(intercept: 2.6, distanceSlope: 4.0, paceSlope: 0)
        case .loop: return Coefficients(intercept: 2.4, distanceSlope: 4.0, paceSlope: 0)
        case .intervals: return Coefficients(intercept: 1.6, distanceSlope: 1.0, paceSlope: 12)
        case .fartlek: return Coefficients(intercept: 1.7, distanceSlope: 0, paceSlope: 0)
        case .weeklyVolume: return Coefficients(intercept: 2.2, distanceSlope: 4.0, paceSlope: 0)
        case .explorer: return Coefficients(intercept: 1.6, distanceSlope: 4.0, paceSlope: 0)
        case .personalBest: return Coefficients(intercept: 1.2, distanceSlope: 1.0, paceSlope: 12)
        default:
            // The simulated policy offers only `BaselinePolicy.offeredKinds`; other kinds are not
            // modelled by the ground truth and never reach it.
            preconditionFailure("BehaviourModel: kind \(kind.rawValue) is not modelled")
        }
    }

    /// Easy pace as a multiple of race pace, used to turn durations into distances.
    static let easyPaceFactor = 1.15
    static let fatigueThreshold = 1.2
    static let fatigueSlope = 0.8
    /// Recovery: logit cost per unit of log(pace floor / easy pace) above 0.
    static let holdBackSlope = 8.0
    /// Even pace: logit gain per unit of log(spread / `referenceSpread`).
    static let spreadSlope = 2.0
    static let referenceSpread: SecondsPerKm = 10
    /// Progression: logit cost per kilometre beyond 3.
    static let progressionSlope = 0.3
    /// Hills: logit cost per unit of log(climb / (`referenceClimbPerKm` × endurance km)).
    static let climbSlope = 2.5
    static let referenceClimbPerKm = 10.0
    /// Early bird and night owl: logit cost per hour the start must move from the usual start
    /// hour, and the margin (hours) a runner keeps before the limit (record 0642).
    static let shiftSlope = 1.2
    static let shiftMargin = 0.5
    /// Loop: logit cost per unit of log(100 m / allowed gap) (a tighter gap is harder).
    static let gapSlope = 0.8
    static let referenceGap: Meters = 100
    /// Intervals: logit gain per unit of log(allowed rest / 120 s).
    static let restSlope = 0.5
    static let referenceRest: Seconds = 120
    /// Fartlek: logit cost per unit of log(total surge time / (36 s × endurance km)).
    static let surgeLoadSlope = 1.5
    static let surgeSecondsPerKm: Seconds = 36
    /// Explorer: logit cost per unit of log(new share asked / 0.3), and per unit of ground
    /// familiarity above `referenceFamiliarity` (record 0645: a runner who keeps to known ground
    /// has to go out of their way to find new streets).
    static let newFractionSlope = 1.2
    static let referenceNewFraction = 0.3
    static let familiaritySlope = 3.0
    static let referenceFamiliarity = 0.3

    /// The runner's easy pace over the endurance distance, s/km.
    static func easyPace(_ state: Physiology) -> SecondsPerKm {
        state.racePace(over: state.endurance) * easyPaceFactor
    }

    /// True completion probability of `spec` for a runner in `state`, in (0, 1). `longest28d` is
    /// the longest measured run of the 28 days before (metres, > 0 for a long-run mission).
    /// `usualStartHour` is the runner's habitual local start hour (early bird, night owl);
    /// `weekSoFar` the measured distance of the runner's local calendar week before the offer
    /// (weekly volume), metres.
    /// `familiarity`: the runner's measured ground familiarity (`RunDigest.groundFamiliarity`,
    /// nil: no known ground, 0), explorer; `bestEffort`: the fastest measured time over a
    /// personal-best mission's distance before the offer, seconds (> 0 for such a mission).
    static func probability(of spec: MissionSpec, state: Physiology, longest28d: Meters = 0,
                            usualStartHour: Double = 12, weekSoFar: Meters = 0,
                            familiarity: Double? = nil, bestEffort: Seconds? = nil) -> Double {
        let c = coefficients(spec.kind)
        var distance = state.endurance
        var paceRatio: Double?
        var extra = 0.0
        switch spec {
        case .distance(let d), .negativeSplit(let d):
            distance = d
        case .duration(let t):
            distance = t / easyPace(state) * 1000
        case .pace(let maxPace, let d):
            distance = d
            paceRatio = state.racePace(over: d) / maxPace
        case .distanceInTime(let d, let maxDuration):
            distance = d
            paceRatio = state.racePace(over: d) / (maxDuration / d * 1000)
        case .longRun(let multiple):
            precondition(longest28d > 0, "BehaviourModel: a long run needs a run in the 28 days before")
            distance = multiple * longest28d
        case .recovery(let minPace, let t, _):
            let easy = easyPace(state)
            distance = t / max(minPace, easy) * 1000
            extra = holdBackSlope * max(0, log(minPace / easy))
        case .evenPace(let d, let spread):
            distance = d
            extra = -spreadSlope * log(spread / referenceSpread)
        case .progression(let n):
            distance = Double(n) * 1000
            extra = progressionSlope * Double(n - 3)
        case .hills(let ascent):
            extra = climbSlope * log(ascent / (referenceClimbPerKm * state.endurance / 1000))
        case .earlyBird(let before, let d):
            distance = d
            extra = shiftSlope * max(0, usualStartHour - Double(before) / 60 + shiftMargin)
        case .nightOwl(let after, let d):
            distance = d
            extra = shiftSlope * max(0, Double(after) / 60 + shiftMargin - usualStartHour)
        case .loop(let gap, let d):
            distance = d
            extra = gapSlope * log(referenceGap / gap)
        case .intervals(let reps, let rep, let maxPace, let rest):
            distance = Double(reps) * rep
            paceRatio = state.racePace(over: rep) / maxPace
            extra = -restSlope * log(rest / referenceRest)
        case .fartlek(let surges, let minSurge):
            extra = surgeLoadSlope * log(Double(surges) * minSurge / (surgeSecondsPerKm * state.endurance / 1000))
        case .weeklyVolume(let target):
            distance = max(100, target - weekSoFar)
        case .explorer(let fraction, let d):
            distance = d
            extra = newFractionSlope * log(fraction / referenceNewFraction)
                + familiaritySlope * ((familiarity ?? 0) - referenceFamiliarity)
        case .personalBest(let d):
            // The simulator tries a personal best only with an earlier effort; without one (or a
            // degenerate one) the pace term is neutral (r = 0.9).
            distance = d
            let best = bestEffort.flatMap { $0 > 0 && $0.isFinite ? $0 / d * 1000 : nil }
            paceRatio = best.map { state.racePace(over: d) / $0 } ?? 0.9
        default:
            // Unreachable: `coefficients` above already refuses kinds outside `offeredKinds`.
            preconditionFailure("BehaviourModel: kind \(spec.kind.rawValue) is not modelled")
        }
        var z = c.intercept - c.distanceSlope * log(distance / state.endurance) - extra
        if let paceRatio { z -= c.paceSlope * log(paceRatio / 0.9) }
        z -= fatigueSlope * max(0, state.acuteChronicRatio - fatigueThreshold)
        return 1 / (1 + exp(-z))
    }
}
