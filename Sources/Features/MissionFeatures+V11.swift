import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentSurges`, k of which had at
    /// least `surges` surges lasting what a fartlek surge of `minSurge` seconds needs (the
    /// check's detector and slack, `RunDigest.surgeCount`); 0 without such digests.
    static func surgeShareLogOdds(surges: Int, minSurge: Seconds, _ state: RunnerState) -> Double {
        shareLogOdds(state.recentSurges.filter { ($0.surgeCount(atLeast: minSurge) ?? 0) >= surges }.count, of: state.recentSurges.count)
    }

    /// Terms added with schema v11 (record 0658), zero for other kinds: how often the runner's
    /// recent runs already held the surges a fartlek asks. `load_fartlek` sizes the surges
    /// against the endurance, which says nothing of whether the runner ever changes pace.
    static let schemaV11MissionFeatures: [Feature] = [
        feature("surge_share_fartlek", "log odds",
                "log((k + ½) / (n − k + ½)) for `fartlek` missions, else 0, where k of the last n ≤ 20 runs with a track "
                  + "(and surges in their digest) had at least the surges asked, each at least as long as the check accepts "
                  + "(the time asked less 2 s)",
                missing: "0 without tracks, or with digests stored before schema v11") { spec, state in
            if case .fartlek(let n, let seconds) = spec { return surgeShareLogOdds(surges: n, minSurge: seconds, state) }
            return 0
        },
    ]
}
