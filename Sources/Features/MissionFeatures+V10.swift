import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentEfforts`, k of which
    /// covered `distance` metres within what a distance-in-time mission of `maxDuration`
    /// seconds accepts (its time plus the check's pace slack per km, against the fastest stretch
    /// of the distance's accepted share: `MissionTolerance`); a run shorter than the distance
    /// counts in n only. 0 without digests, or for a distance that is not one of
    /// `PriorRun.effortDistances` (the digests keep no effort over it).
    static func effortShareLogOdds(distance: Meters, maxDuration: Seconds, _ state: RunnerState) -> Double {
        guard PriorRun.effortDistances.contains(distance) else { return 0 }
        let tolerance = MissionTolerance.default
        let limit = maxDuration + tolerance.paceSlack * distance / 1000
        // The digest's effort is over the whole distance; the check times its accepted share.
        return effortShareLogOdds(over: distance, state) { $0 * tolerance.distanceFraction <= limit }
    }

    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentEfforts`, k of which kept
    /// a finite best effort over `distance` (seconds) that `counts` accepts.
    static func effortShareLogOdds(over distance: Meters, _ state: RunnerState, counts: (Seconds) -> Bool) -> Double {
        let k = state.recentEfforts.filter { efforts in efforts[distance].map { $0.isFinite && counts($0) } ?? false }.count
        return shareLogOdds(k, of: state.recentEfforts.count)
    }

    /// Terms added with schema v10 (record 0657), zero for other kinds: how often the runner's
    /// recent runs already held the pace a distance-in-time mission asks over its distance. The
    /// race pace (`rel_race_pace_distance_in_time`) is one estimate from whole runs; the share
    /// of runs whose fastest stretch made the time says how often the runner runs that hard.
    static let schemaV10MissionFeatures: [Feature] = [
        feature("effort_share_distance_in_time", "log odds",
                "log((k + ½) / (n − k + ½)) for `distance_in_time` missions, else 0, where k of the last n ≤ 20 runs "
                  + "with a track covered the distance (99 % of it, timed as the fastest stretch of the whole distance × 0.99) "
                  + "within the time asked plus 1 s/km",
                missing: "0 without tracks, or for a distance other than 400 m, 1 km, 1 mile, 3, 5, 10 km, a half or a marathon") { spec, state in
            if case .distanceInTime(let d, let t) = spec { return effortShareLogOdds(distance: d, maxDuration: t, state) }
            return 0
        },
    ]
}
