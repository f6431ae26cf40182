import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// The features of a (runner state, candidate mission) pair: which kind it is, how far its
/// target sits from what the runner currently does, and the runner's state as of the offer.
///
/// Each feature is defined once, in `features`, with its documentation and the function that
/// computes it: the schema, `docs/features.md` and the vectors all come from that list.
/// Kind-specific terms are interactions (zero for other kinds) so that a linear model can give
/// each kind its own slope. Schema v2: records 0620 (layout) and 0621 (state definitions);
/// v3 adds the race-pace terms of record 0619; v4 the kinds early bird, night owl, loop,
/// intervals, fartlek and weekly volume (record 0640); v5 explorer and personal best (records
/// 0645, 0646); v6 the race pace as a weighted median over 90 days (record 0651); v7 the share
/// of recent starts inside an early-bird or night-owl window (record 0653); v8 the race pace
/// without the runs that completed a mission of another effort (record 0654); v9 the share of
/// recent runs that climbed what a hills mission asks (record 0656); v10 the share of recent
/// runs whose fastest stretch of a distance-in-time mission's distance was within its time
/// (record 0657); v11 the share of recent runs with the surges a fartlek asks (record 0658); v12 the
/// share of recent runs that started in an early-bird or night-owl window and covered its
/// distance (record 0659); v13 the shares of recent runs that held an intervals mission's rep
/// pace over one rep and over all its reps in a row (record 0662); v14 the runner's record on the
/// kind offered as log odds (record 0664); v15 the share of recent runs as long as the mission
/// asks, per kind (record 0665).
public enum MissionFeatures {
    /// The kinds the schema models, in column order. Listed explicitly: a new mission kind changes
    /// nothing here (and no model) until it is added with a new schema version.
    public static let kinds: [MissionKind] = [
        .distance, .duration, .pace, .negativeSplit, .distanceInTime,
        .longRun, .recovery, .evenPace, .progression, .hills,
        .earlyBird, .nightOwl, .loop, .intervals, .fartlek, .weeklyVolume,
        .explorer, .personalBest,
    ]

    /// Whether a mission kind can be scored by models of this schema.
    public static func models(_ kind: MissionKind) -> Bool { kinds.contains(kind) }

    /// One feature: its documentation and how it is computed.
    public struct Feature: Sendable {
        public let definition: FeatureDefinition
        let value: @Sendable (MissionSpec, RunnerState) -> Double
    }

    public static let schema = FeatureSchema(version: 15, features: features.map(\.definition))

    /// Days assumed since the last run for a runner without history.
    public static let daysWithoutHistory = 30.0
    /// Spread of an even-pace mission the features measure against, s/km.
    public static let referenceSpread: SecondsPerKm = 10
    /// Climb per km of endurance a hills mission is measured against, m/km (record 0620).
    public static let referenceClimbPerKm = 10.0
    /// Finish-to-start gap a loop mission is measured against, metres (record 0640).
    public static let referenceGap: Meters = 100
    /// Rep volume and rest an intervals mission is measured against: 4 km, 120 s.
    public static let referenceRepVolume: Meters = 4000
    public static let referenceRest: Seconds = 120
    /// Surge seconds per km of endurance a fartlek mission is measured against.
    public static let referenceSurgePerKm: Seconds = 36
    /// Usual start hour assumed without history (noon: far from any early or late limit, so an
    /// early-bird or night-owl mission for a runner without history asks for a shift).
    public static let startHourWithoutHistory = 12.0

    /// The distance a mission asks for, metres: durations at the runner's typical pace, a long
    /// run as its multiple of the longest run of 28 days (the endurance without one), a recovery
    /// run's duration at the slower of its pace floor and the typical pace, a progression's
    /// kilometres, a hills or fartlek mission the endurance (its difficulty is in
    /// `rel_climb_hills`, `load_fartlek`), intervals the reps × the rep distance, a weekly volume
    /// what is left of it after the week's runs so far (at least 100 m), an explorer mission its
    /// distance, a personal best the distance of the effort.
    public static func effectiveDistance(_ spec: MissionSpec, state: RunnerState) -> Meters {
        switch spec {
        case .distance(let d), .negativeSplit(let d), .pace(_, let d), .distanceInTime(let d, _), .evenPace(let d, _):
            return d
        case .earlyBird(_, let d), .nightOwl(_, let d), .loop(_, let d), .explorer(_, let d), .personalBest(let d):
            return d
        case .intervals(let reps, let rep, _, _):
            return Double(reps) * rep
        case .fartlek:
            return state.enduranceOrDefault
        case .weeklyVolume(let target):
            return max(100, target - state.volumeThisWeek)
        case .duration(let t):
            return t / state.typicalPaceOrDefault * 1000
        case .longRun(let multiple):
            return multiple * (state.longest28d > 0 ? state.longest28d : state.enduranceOrDefault)
        case .recovery(let minPace, let t, _):
            return t / max(minPace, state.typicalPaceOrDefault) * 1000
        case .progression(let n):
            return Double(n) * 1000
        case .hills:
            return state.enduranceOrDefault
        default:
            preconditionFailure("MissionFeatures: kind \(spec.kind.rawValue) is not modelled by schema v\(schema.version)")
        }
    }

    /// log(mission climb / (10 m/km × endurance in km)): climbing relative to how far the runner
    /// can go (the terrain habit is the separate state feature `climb_per_km`).
    static func relativeClimb(_ ascent: Meters, state: RunnerState) -> Double {
        log(ascent / (referenceClimbPerKm * state.enduranceOrDefault / 1000))
    }

    /// The feature vector in `schema` order. Every value is finite: a degenerate history (runs of
    /// 0 m, a moving time of 0) can make a log ratio infinite or NaN, and one such value would
    /// make the probability NaN; NaN becomes 0 (the "missing" value of the log ratios) and ±∞
    /// becomes ±`featureBound` (record 0230). Finite values pass unchanged, so models trained
    /// on ordinary histories score exactly as before.
    public static func vector(_ spec: MissionSpec, state: RunnerState) -> [Double] {
        precondition(models(spec.kind),
                     "MissionFeatures: kind \(spec.kind.rawValue) is not modelled by schema v\(schema.version)")
        return features.map { $0.value(spec, state).clamped(to: -featureBound...featureBound, nan: 0) }
    }

    /// Largest magnitude of a feature value: far beyond any ordinary one (log ratios of a few
    /// units, counts of a few hundred), small enough that a linear model stays finite.
    public static let featureBound = 1e4

    static func feature(_ name: String, _ unit: String, _ meaning: String, missing: String,
                        _ value: @escaping @Sendable (MissionSpec, RunnerState) -> Double) -> Feature {
        Feature(definition: FeatureDefinition(name: name, unit: unit, meaning: meaning, missing: missing), value: value)
    }

    /// Every feature in column order: mission terms first, then the runner's state.
    public static let features: [Feature] = missionFeatures + stateFeatures

    static let missionFeatures: [Feature] = {
        var out: [Feature] = []
        for kind in kinds {
            out.append(feature("kind_\(kind.rawValue)", "0/1", "1 when the mission is of kind `\(kind.rawValue)`",
                               missing: "never missing") { spec, _ in spec.kind == kind ? 1 : 0 })
        }
        for kind in kinds {
            out.append(feature("rel_distance_\(kind.rawValue)", "log ratio",
                               "log(mission distance / runner's endurance) for `\(kind.rawValue)` missions, else 0 "
                                 + "(distance as in `MissionFeatures.effectiveDistance`)",
                               missing: "endurance 4 km and pace 7:00/km without history") { spec, state in
                spec.kind == kind ? log(effectiveDistance(spec, state: state) / state.enduranceOrDefault) : 0
            })
        }
        out.append(feature("rel_pace_pace", "log ratio",
                           "log(expected pace over the distance / mission pace) for `pace` missions, else 0; "
                             + "positive when the mission asks to run faster than usual",
                           missing: "pace 7:00/km without history") { spec, state in
            if case .pace(let p, let d) = spec { return log(state.expectedPace(over: d) / p) }
            return 0
        })
        out.append(feature("rel_pace_distance_in_time", "log ratio",
                           "log(expected pace over the distance / pace the time limit asks) for `distance_in_time` "
                             + "missions, else 0", missing: "pace 7:00/km without history") { spec, state in
            if case .distanceInTime(let d, let t) = spec { return log(state.expectedPace(over: d) / (t / d * 1000)) }
            return 0
        })
        out.append(feature("rel_race_pace_pace", "log ratio",
                           "log(recent race pace over the distance / mission pace) for `pace` missions, else 0; the "
                             + "race pace is the recency-weighted median 5 km-equivalent pace of the last 90 days' runs (records 0619, 0651)",
                           missing: "the typical-pace estimate of `rel_pace_pace` without a run of ≥ 1 km in 90 days") { spec, state in
            if case .pace(let p, let d) = spec { return log(state.expectedRacePace(over: d) / p) }
            return 0
        })
        out.append(feature("rel_race_pace_distance_in_time", "log ratio",
                           "log(recent race pace over the distance / pace the time limit asks) for `distance_in_time` "
                             + "missions, else 0 (race pace as in `rel_race_pace_pace`)",
                           missing: "the typical-pace estimate without a run of ≥ 1 km in 90 days") { spec, state in
            if case .distanceInTime(let d, let t) = spec { return log(state.expectedRacePace(over: d) / (t / d * 1000)) }
            return 0
        })
        out.append(feature("rel_pace_recovery", "log ratio",
                           "log(pace floor / typical pace) for `recovery` missions, else 0; positive when the "
                             + "mission asks to run slower than usual", missing: "pace 7:00/km without history") { spec, state in
            if case .recovery(let p, _, _) = spec { return log(p / state.typicalPaceOrDefault) }
            return 0
        })
        out.append(feature("spread_even_pace", "log ratio",
                           "log(allowed split spread / 10 s/km) for `even_pace` missions, else 0",
                           missing: "never missing") { spec, _ in
            if case .evenPace(_, let s) = spec { return log(s / referenceSpread) }
            return 0
        })
        out.append(feature("km_progression", "km / 10",
                           "kilometres asked to get faster, divided by 10, for `progression` missions, else 0",
                           missing: "never missing") { spec, _ in
            if case .progression(let n) = spec { return Double(n) / 10 }
            return 0
        })
        out.append(feature("multiple_long_run", "log ratio",
                           "log(multiple of the longest 28-day run) for `long_run` missions, else 0",
                           missing: "never missing") { spec, _ in
            if case .longRun(let m) = spec { return log(m) }
            return 0
        })
        out.append(feature("rel_climb_hills", "log ratio",
                           "log(climb asked / (10 m/km × endurance in km)) for `hills` missions, else 0",
                           missing: "endurance 4 km without history") { spec, state in
            if case .hills(let a) = spec { return relativeClimb(a, state: state) }
            return 0
        })
        out += schemaV4MissionFeatures
        out += schemaV5MissionFeatures
        out += schemaV7MissionFeatures
        out += schemaV9MissionFeatures
        out += schemaV10MissionFeatures
        out += schemaV11MissionFeatures
        out += schemaV12MissionFeatures
        out += schemaV13MissionFeatures
        out += schemaV14MissionFeatures
        out += schemaV15MissionFeatures
        out.append(feature("rel_longest", "log ratio",
                           "log(mission distance / longest run of the last 28 days), any kind",
                           missing: "0 without a run in 28 days") { spec, state in
            state.longest28d > 0 ? log(effectiveDistance(spec, state: state) / state.longest28d) : 0
        })
        out.append(feature("past_completion_rate_kind", "rate in (0, 1)",
                           "completion rate of the runner's missions of this kind, (completed + 1) / (tried + 2), "
                             + "decided by runs in the 90 days before the offer", missing: "1/2 without outcomes") { spec, state in
            state.completionRate(spec.kind)
        })
        return out
    }()
}
