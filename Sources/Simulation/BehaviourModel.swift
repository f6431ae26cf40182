import RunusCore
import Missions

/// The ground truth: the probability that a runner who tries a mission completes it, given the
/// runner's true (latent) state. Learned models are judged by how well they recover it.
///
/// logit p = a(kind) − s_d(kind)·log(D / E) − s_p·log(r / 0.9) − 0.8·max(0, ACR − 1.2)
///
/// - D: the distance the mission asks for (for a duration mission, the distance the runner
///   covers in that time at an easy pace); E: the runner's current endurance (`Physiology`).
/// - r = (race-effort pace over D) / (mission pace): 1 means the mission asks for an all-out
///   effort; easy running is about 0.87. Only pace-bearing kinds have this term.
/// - ACR: acute:chronic load ratio; a runner who suddenly trains much more than usual is tired.
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

    /// True completion probability of `spec` for a runner in `state`, in (0, 1).
    static func probability(of spec: MissionSpec, state: Physiology) -> Double {
        let c = coefficients(spec.kind)
        let distance: Meters
        var paceRatio: Double?
        switch spec {
        case .distance(let d):
            distance = d
        case .duration(let t):
            distance = t / (state.racePace(over: state.endurance) * easyPaceFactor) * 1000
        case .pace(let maxPace, let d):
            distance = d
            paceRatio = state.racePace(over: d) / maxPace
        case .negativeSplit(let d):
            distance = d
        case .distanceInTime(let d, let maxDuration):
            distance = d
            paceRatio = state.racePace(over: d) / (maxDuration / d * 1000)
        default:
            // Unreachable: `coefficients` above already refuses kinds outside `offeredKinds`.
            preconditionFailure("BehaviourModel: kind \(spec.kind.rawValue) is not modelled")
        }
        var z = c.intercept - c.distanceSlope * log(distance / state.endurance)
        if let paceRatio { z -= c.paceSlope * log(paceRatio / 0.9) }
        z -= fatigueSlope * max(0, state.acuteChronicRatio - fatigueThreshold)
        return 1 / (1 + exp(-z))
    }
}

#if canImport(Glibc)
import Glibc
#endif
