import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentStartMinutes`, k of which
    /// would have completed `spec` (an early bird or a night owl): started inside its window
    /// (`MissionEvaluator.startFits`) and covered its distance's accepted share
    /// (`MissionTolerance.distanceFraction`); 0 without history or for another kind.
    static func runShareLogOdds(_ spec: MissionSpec, _ state: RunnerState) -> Double {
        let distance: Meters
        switch spec {
        case .earlyBird(_, let d), .nightOwl(_, let d): distance = d
        default: return 0
        }
        let accepted = distance * MissionTolerance.default.distanceFraction
        let runs = zip(state.recentStartMinutes, state.recentStartDistances)
        let k = runs.filter { minute, metres in MissionEvaluator.startFits(spec, minute: minute) == true && metres >= accepted }.count
        return shareLogOdds(k, of: min(state.recentStartMinutes.count, state.recentStartDistances.count))
    }

    /// Terms added with schema v12 (record 0659), zero for other kinds: how often the runner's
    /// recent runs would have completed the early-bird or night-owl mission asked, its window
    /// and its distance together. The start shares of schema v7 count the window alone; a runner
    /// whose early runs are short ones completes "6 km before 07:00" far less often than they
    /// start before 07:00.
    static let schemaV12MissionFeatures: [Feature] = [
        feature("run_share_early_bird", "log odds",
                "log((k + ½) / (n − k + ½)) for `early_bird` missions, else 0, where k of the last n ≤ 20 runs "
                  + "started inside the window asked and covered 99 % of the distance asked",
                missing: "0 without history") { spec, state in
            spec.kind == .earlyBird ? runShareLogOdds(spec, state) : 0
        },
        feature("run_share_night_owl", "log odds",
                "log((k + ½) / (n − k + ½)) for `night_owl` missions, else 0, where k of the last n ≤ 20 runs "
                  + "started inside the window asked and covered 99 % of the distance asked",
                missing: "0 without history") { spec, state in
            spec.kind == .nightOwl ? runShareLogOdds(spec, state) : 0
        },
    ]
}
