import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// log((k + ½) / (n − k + ½)) for the n runs of `RunnerState.recentStartDistances` (the last
    /// 20), k of which went as long as `spec` asks: a duration or recovery mission's time in
    /// moving seconds (`MissionTolerance.durationFraction` of it), any other kind
    /// `effectiveDistance` in metres (`MissionTolerance.distanceFraction` of it). 0 without history.
    static func reachShareLogOdds(_ spec: MissionSpec, _ state: RunnerState) -> Double {
        let tolerance = MissionTolerance.default
        switch spec {
        case .duration(let t), .recovery(_, let t, _):
            let accepted = t * tolerance.durationFraction
            return shareLogOdds(state.recentMovingTimes.filter { $0 >= accepted }.count, of: state.recentMovingTimes.count)
        default:
            let accepted = effectiveDistance(spec, state: state) * tolerance.distanceFraction
            return shareLogOdds(state.recentStartDistances.filter { $0 >= accepted }.count,
                                of: state.recentStartDistances.count)
        }
    }

    /// The per-kind offsets of schema v15: one kind's refinement of a shared term, penalised
    /// harder than the rest by a factor chosen on held-out people (`OffsetPenalty`, record 0666).
    public static let kindOffsetNames: Set<String> = Set(schemaV15MissionFeatures.map(\.definition.name))

    /// Terms added with schema v15 (record 0665), one per kind and zero for the others: how often
    /// the runner's last 20 runs went as long as the mission asks. `rel_distance_<kind>` compares
    /// the mission with one number, the endurance (a weighted mean); a runner whose runs are all
    /// 5 km and one who alternates 2 and 8 km have the same endurance, but a 6 km mission is
    /// beyond every run of the first and within half the runs of the second. One term per kind,
    /// because how much of a mission's difficulty is its length differs by kind (all of it for a
    /// distance, little for an even pace).
    static let schemaV15MissionFeatures: [Feature] = kinds.map { kind in
        let measure = (kind == .duration || kind == .recovery)
            ? "lasted 99 % of the moving time asked" : "covered 99 % of the distance asked (as in `MissionFeatures.effectiveDistance`)"
        return feature("reach_share_\(kind.rawValue)", "log odds",
                       "log((k + ½) / (n − k + ½)) for `\(kind.rawValue)` missions, else 0, where k of the last n ≤ 20 runs "
                         + measure,
                       missing: "0 without history") { spec, state in
            spec.kind == kind ? reachShareLogOdds(spec, state) : 0
        }
    } + kinds.map { kind in
        feature("past_log_odds_\(kind.rawValue)", "log odds",
                "`past_log_odds_kind` for `\(kind.rawValue)` missions, else 0: the runner's own record on this kind, "
                  + "with a slope of its own",
                missing: "0 without outcomes") { spec, state in
            spec.kind == kind ? state.completionLogOdds(kind) : 0
        }
    }
}
