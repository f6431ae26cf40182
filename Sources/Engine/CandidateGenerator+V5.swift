import RunusCore
import Features
import Missions

extension CandidateGenerator {
    /// Shares of the distance on never-covered cells asked by explorer candidates (record 0645).
    static let newFractionLadder: [Double] = [0.1, 0.2, 0.3, 0.45, 0.6, 0.8]
    /// Personal-best distances: the effort distances from 1 km on (a 400 m best from GPS fixes is
    /// within the noise), up to this multiple of the endurance (record 0646).
    static let personalBestMinimum: Meters = 1000
    static let personalBestReach = 1.5

    /// Explorer and personal-best candidates (schema v5). Explorer needs the ground familiarity
    /// (two runs with positions: without them there is no known ground to leave); personal best
    /// one candidate per distance the runner has a best effort over (`RunnerState.bestEfforts`):
    /// beat it.
    static func addSchemaV5Kinds(state: RunnerState, _ add: (MissionSpec) -> Void) {
        let endurance = state.enduranceOrDefault
        func km(_ m: Meters) -> Meters { max(1000, (m / 500).rounded() * 500) }
        if state.groundFamiliarity != nil {
            for fraction in newFractionLadder {
                for f in clockDistanceLadder { add(.explorer(minNewFraction: fraction, minDistance: km(endurance * f))) }
            }
        }
        for d in PriorRun.effortDistances where d >= personalBestMinimum && d <= endurance * personalBestReach {
            if state.bestEfforts[d] != nil { add(.personalBest(distance: d)) }
        }
    }
}
