import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// The check's share of the asked climb a run must reach (`MissionTolerance.ascentFraction`).
    static let climbShareTolerance = MissionTolerance.default.ascentFraction

    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentClimbs`, k of which
    /// climbed at least what a hills mission of `ascent` metres accepts (the check's tolerance);
    /// 0 without history.
    static func climbShareLogOdds(_ ascent: Meters, _ state: RunnerState) -> Double {
        let accepted = ascent * climbShareTolerance
        return shareLogOdds(state.recentClimbs.filter { $0 >= accepted }.count, of: state.recentClimbs.count)
    }

    /// Terms added with schema v9 (record 0656), zero for other kinds: how often the runner's
    /// recent runs already climbed what a hills mission asks. `rel_climb_hills` measures the
    /// climb against the endurance and `climb_per_km` the runner's median, neither of which says
    /// whether the runner's ground has hills of that size; the share of runs that reached it does.
    static let schemaV9MissionFeatures: [Feature] = [
        feature("climb_share_hills", "log odds",
                "log((k + ½) / (n − k + ½)) for `hills` missions, else 0, where k of the last n ≤ 20 runs "
                  + "climbed at least the ascent the check accepts (95 % of the climb asked)",
                missing: "0 without history") { spec, state in
            if case .hills(let ascent) = spec { return climbShareLogOdds(ascent, state) }
            return 0
        },
    ]
}
