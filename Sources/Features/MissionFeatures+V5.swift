import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// New-ground share an explorer mission is measured against (record 0645).
    public static let referenceNewFraction = 0.3

    /// The best-effort pace over `distance` a personal-best mission asks to beat, s/km; nil
    /// without a best effort there (`RunnerState.bestEfforts`).
    public static func bestPace(over distance: Meters, state: RunnerState) -> SecondsPerKm? {
        guard distance > 0, let t = state.bestEfforts[distance], t > 0 else { return nil }
        return t / distance * 1000
    }

    /// Mission terms of the kinds added with schema v5 (records 0645, 0646), zero for other kinds.
    static let schemaV5MissionFeatures: [Feature] = [
        feature("new_fraction_explorer", "log ratio",
                "log(share of the distance asked on never-covered cells / 0.3) for `explorer` missions, else 0",
                missing: "never missing") { spec, _ in
            if case .explorer(let f, _) = spec { return log(f / referenceNewFraction) }
            return 0
        },
        feature("familiarity_explorer", "share in [0, 1]",
                "ground familiarity for `explorer` missions, else 0: of the cells of the runner's last 10 runs with "
                  + "positions, the share one of the 20 tracked runs before each had covered (`RunDigest.groundFamiliarity`)",
                missing: "0 (no known ground) with fewer than two runs with positions") { spec, state in
            spec.kind == .explorer ? (state.groundFamiliarity ?? 0) : 0
        },
        feature("rel_race_pace_personal_best", "log ratio",
                "log(recent race pace over the distance / pace of the best effort to beat) for `personal_best` "
                  + "missions, else 0 (race pace as in `rel_race_pace_pace`); positive when the best is faster than "
                  + "the runner's current race pace", missing: "0 without a best effort over the distance") { spec, state in
            if case .personalBest(let d) = spec, let best = bestPace(over: d, state: state) {
                return log(state.expectedRacePace(over: d) / best)
            }
            return 0
        },
        feature("rel_pace_personal_best", "log ratio",
                "log(expected pace over the distance / pace of the best effort to beat) for `personal_best` missions, "
                  + "else 0", missing: "0 without a best effort over the distance") { spec, state in
            if case .personalBest(let d) = spec, let best = bestPace(over: d, state: state) {
                return log(state.expectedPace(over: d) / best)
            }
            return 0
        },
    ]
}
