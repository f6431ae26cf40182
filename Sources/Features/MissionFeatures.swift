import RunusCore
import Missions

/// The features of a (runner state, candidate mission) pair: which kind it is, how far its
/// target sits from what the runner currently does, and the runner's freshness.
///
/// Kind-specific terms are interactions (zero for other kinds) so that a linear model can give
/// each kind its own slope.
public enum MissionFeatures {
    /// The kinds schema v1 models, in column order. Listed explicitly: a new mission kind changes
    /// nothing here (and no model) until it is added with a new schema version.
    public static let kinds: [MissionKind] = [.distance, .duration, .pace, .negativeSplit, .distanceInTime]

    /// Whether a mission kind can be scored by models of this schema.
    public static func models(_ kind: MissionKind) -> Bool { kinds.contains(kind) }

    public static let schema: FeatureSchema = {
        var features: [FeatureDefinition] = []
        for kind in kinds {
            features.append(FeatureDefinition(
                name: "kind_\(kind.rawValue)", unit: "0/1",
                meaning: "1 when the mission is of kind `\(kind.rawValue)`", missing: "never missing"))
        }
        for kind in kinds {
            features.append(FeatureDefinition(
                name: "rel_distance_\(kind.rawValue)", unit: "log ratio",
                meaning: "log(mission distance / runner's endurance) for `\(kind.rawValue)` missions, else 0; "
                    + "a duration is turned into distance at the runner's typical pace",
                missing: "endurance 4 km and pace 7:00/km without history"))
        }
        for kind in [MissionKind.pace, .distanceInTime] {
            features.append(FeatureDefinition(
                name: "rel_pace_\(kind.rawValue)", unit: "log ratio",
                meaning: "log(expected pace over the distance / mission pace) for `\(kind.rawValue)` missions, else 0; "
                    + "positive when the mission asks to run faster than usual",
                missing: "pace 7:00/km without history"))
        }
        features += [
            FeatureDefinition(name: "log_days_since_last_run", unit: "log(1 + days)",
                              meaning: "time since the previous run started", missing: "log(1 + 30)"),
            FeatureDefinition(name: "acute_chronic_ratio", unit: "ratio in [0, 4]",
                              meaning: "7-day volume over the weekly mean of the 28-day volume", missing: "1"),
            FeatureDefinition(name: "runs_28d", unit: "runs / 10",
                              meaning: "runs in the last 28 days, divided by 10", missing: "0"),
            FeatureDefinition(name: "has_history", unit: "0/1",
                              meaning: "1 when the runner has at least one earlier run", missing: "0"),
        ]
        return FeatureSchema(version: 1, features: features)
    }()

    /// Days assumed since the last run for a runner without history.
    public static let daysWithoutHistory = 30.0

    /// The distance a mission asks for, metres (durations at the runner's typical pace).
    public static func effectiveDistance(_ spec: MissionSpec, state: RunnerState) -> Meters {
        switch spec {
        case .distance(let d), .negativeSplit(let d), .pace(_, let d), .distanceInTime(let d, _):
            return d
        case .duration(let t):
            return t / state.typicalPaceOrDefault * 1000
        default:
            // Only `kinds` reach here: `vector` refuses the others before calling this, and the
            // candidate generator offers no other kind. Schema v1 does not model them.
            preconditionFailure("MissionFeatures: kind \(spec.kind.rawValue) is not modelled by schema v\(schema.version)")
        }
    }

    /// The feature vector in `schema` order.
    public static func vector(_ spec: MissionSpec, state: RunnerState) -> [Double] {
        var row = [Double](repeating: 0, count: schema.count)
        guard let k = kinds.firstIndex(of: spec.kind) else {
            preconditionFailure("MissionFeatures: kind \(spec.kind.rawValue) is not modelled by schema v\(schema.version)")
        }
        row[k] = 1
        let distance = effectiveDistance(spec, state: state)
        row[kinds.count + k] = log(distance / state.enduranceOrDefault)
        let paceBase = 2 * kinds.count
        switch spec {
        case .pace(let maxPace, let d):
            row[paceBase] = log(state.expectedPace(over: d) / maxPace)
        case .distanceInTime(let d, let maxDuration):
            row[paceBase + 1] = log(state.expectedPace(over: d) / (maxDuration / d * 1000))
        default:
            break
        }
        let s = paceBase + 2
        row[s] = log(1 + (state.daysSinceLastRun ?? daysWithoutHistory))
        row[s + 1] = state.acuteChronicRatio
        row[s + 2] = Double(state.runs28d) / 10
        row[s + 3] = state.totalRuns > 0 ? 1 : 0
        return row
    }
}

#if canImport(Glibc)
import Glibc
#endif
