import RunusCore
import Features
import Missions

/// Candidate missions around a runner's current ability, for every kind of `TodayPolicy.kinds`: a ladder of targets
/// from easy to hard, rounded to values people like to read (0.5 km, 5 minutes, whole seconds).
public enum CandidateGenerator {
    /// Multipliers of the runner's endurance for distance-like targets.
    static let distanceLadder: [Double] = [0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.85, 2.0, 2.2]
    /// Multipliers of the expected pace for pace targets (< 1 is faster), 2 % apart so that
    /// some candidate lands in each band.
    static let paceLadder: [Double] = [0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98, 1.0, 1.02]

    /// What a weekly-volume candidate is: the daily policy's offer for the rest of the week
    /// (record 0655), or the one-day mission the model learnt (the week's distance so far plus
    /// what one run adds, checked against one run: history labels, record 0600).
    public enum WeeklyVolumeOffer: Sendable { case week, day }

    /// The candidates for `state`, the weekly volumes of `weeklyVolume`'s meaning.
    public static func candidates(for state: RunnerState, weeklyVolume: WeeklyVolumeOffer = .week) -> [MissionSpec] {
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
        addSchemaV2Kinds(state: state, add)
        addSchemaV4Kinds(state: state, add)
        switch weeklyVolume {
        case .week: addWeekVolumes(state: state, add)
        case .day: addDayVolumes(state: state, add)
        }
        addSchemaV5Kinds(state: state, add)
        addStreaks(state: state, add)
        // An extreme history can push a ladder past the catalog's ranges; such a spec could be
        // stored but never read back (MissionSpec(json:) refuses it), so it is not offered.
        return out.filter(\.isWithinCatalog)
    }

    /// Multiples of the longest run of 28 days for long-run targets (the check's range is 1…3).
    static let longRunLadder: [Double] = [1.0, 1.05, 1.1, 1.15, 1.2, 1.3, 1.4, 1.5]
    /// Multiples of the typical pace for recovery floors (≥ 1: slower than usual).
    static let recoveryPaceLadder: [Double] = [1.0, 1.05, 1.1, 1.15, 1.2]
    /// Multiples of the endurance for even-pace distances. The rungs above 1.3 (record 0622) keep
    /// a candidate near the band when the model finds even pace easy at every spread ≥ 15 s/km.
    static let evenPaceDistanceLadder: [Double] = [0.7, 0.85, 1.0, 1.15, 1.3, 1.5, 1.7]
    /// Allowed split spreads of even-pace targets, s/km.
    static let spreadLadder: [Double] = [15, 20, 25, 30]
    /// Multiples of 10 m/km × endurance in km for hills targets.
    static let climbLadder: [Double] = [0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 2.5]
    /// Smallest hills target, metres: below it GPS height noise decides (docs/simulation.md).
    static let minimumClimb: Meters = 80

    /// Long run, recovery, even pace, progression and hills candidates (feature schema v2).
    static func addSchemaV2Kinds(state: RunnerState, _ add: (MissionSpec) -> Void) {
        let endurance = state.enduranceOrDefault
        let pace = state.typicalPaceOrDefault
        func km(_ m: Meters) -> Meters { max(1000, (m / 500).rounded() * 500) }
        // A long run needs a run in the last 28 days to be measured against.
        if state.longest28d > 0 {
            for m in longRunLadder { add(.longRun(multiple: m)) }
        }
        for f in [0.6, 0.8, 1.0, 1.2] {
            let minutes = max(10, (endurance * f * pace / 1000 / 60 / 5).rounded() * 5)
            for p in recoveryPaceLadder {
                add(.recovery(minPace: (pace * p).rounded(), minDuration: minutes * 60, maxHeartRate: nil))
            }
        }
        for f in evenPaceDistanceLadder {
            for spread in spreadLadder { add(.evenPace(minDistance: max(2000, km(endurance * f)), maxSpread: spread)) }
        }
        let most = min(10, max(3, Int(saturating: endurance / 1000 * 1.5)))
        for n in 2...most { add(.progression(kilometres: n)) }
        for f in climbLadder {
            let ascent = (endurance / 1000 * MissionFeatures.referenceClimbPerKm * f / 10).rounded() * 10
            add(.hills(minAscent: max(minimumClimb, ascent)))
        }
    }
}
