import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// The shortest distance the digests keep a best effort over (`PriorRun.effortDistances`)
    /// that is at least `metres`; nil when none is.
    static func effortDistance(atLeast metres: Meters) -> Meters? {
        PriorRun.effortDistances.filter { $0 >= metres }.min()
    }

    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentEfforts`, k of which ran
    /// the shortest kept effort distance of at least `metres` at `maxPace` or faster (plus the
    /// check's pace slack); 0 without digests or when no kept distance is that long.
    static func paceShareLogOdds(over metres: Meters, maxPace: SecondsPerKm, _ state: RunnerState) -> Double {
        guard let distance = effortDistance(atLeast: metres) else { return 0 }
        let limit = (maxPace + MissionTolerance.default.paceSlack) * distance / 1000
        return effortShareLogOdds(over: distance, state) { $0 <= limit }
    }

    /// Terms added with schema v13 (record 0662), zero for other kinds: how often the runner's
    /// recent runs held an intervals mission's rep pace, over one rep and over all of them in a
    /// row. A run that holds the pace over every rep's metres without a break has done the reps
    /// with no rest, which the check accepts (record 0217); a runner who never runs a rep's
    /// distance that fast rarely completes the session.
    static let schemaV13MissionFeatures: [Feature] = [
        feature("rep_share_intervals", "log odds",
                "log((k + ½) / (n − k + ½)) for `intervals` missions, else 0, where k of the last n ≤ 20 runs with a track "
                  + "ran the shortest kept effort distance of at least 99 % of a rep (400 m, 1 km, 1 mile, 3, 5, 10 km, a half "
                  + "or a marathon) at the rep pace asked plus 1 s/km or faster",
                missing: "0 without tracks, or for a rep longer than a marathon") { spec, state in
            if case .intervals(_, let rep, let pace, _) = spec {
                return paceShareLogOdds(over: rep * MissionTolerance.default.distanceFraction, maxPace: pace, state)
            }
            return 0
        },
        feature("steady_share_intervals", "log odds",
                "log((k + ½) / (n − k + ½)) for `intervals` missions, else 0, where k of the last n ≤ 20 runs with a track "
                  + "ran the shortest kept effort distance of at least 99 % of all the reps' metres together at the rep pace "
                  + "asked plus 1 s/km or faster: the reps run without a rest",
                missing: "0 without tracks, or when the reps together are longer than a marathon") { spec, state in
            if case .intervals(let reps, let rep, let pace, _) = spec {
                return paceShareLogOdds(over: Double(reps) * rep * MissionTolerance.default.distanceFraction, maxPace: pace, state)
            }
            return 0
        },
    ]
}
