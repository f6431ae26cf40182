import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// The usual local start hour, or `startHourWithoutHistory`.
    static func usualHour(_ state: RunnerState) -> Double { state.usualStartHour ?? startHourWithoutHistory }

    /// Mission terms of the kinds added with schema v4 (record 0640), zero for other kinds.
    static let schemaV4MissionFeatures: [Feature] = [
        feature("shift_early_bird", "hours / 4",
                "max(0, usual start hour − latest start asked) / 4 for `early_bird` missions, else 0: how much "
                  + "earlier than usual the runner must start", missing: "usual hour 12:00 without history") { spec, state in
            if case .earlyBird(let before, _) = spec { return max(0, usualHour(state) - Double(before) / 60) / 4 }
            return 0
        },
        feature("shift_night_owl", "hours / 4",
                "max(0, earliest start asked − usual start hour) / 4 for `night_owl` missions, else 0",
                missing: "usual hour 12:00 without history") { spec, state in
            if case .nightOwl(let after, _) = spec { return max(0, Double(after) / 60 - usualHour(state)) / 4 }
            return 0
        },
        feature("gap_loop", "log ratio", "log(allowed finish-to-start gap / 100 m) for `loop` missions, else 0",
                missing: "never missing") { spec, _ in
            if case .loop(let gap, _) = spec { return log(gap / referenceGap) }
            return 0
        },
        feature("rel_pace_intervals", "log ratio",
                "log(expected pace over the rep distance / rep pace asked) for `intervals` missions, else 0",
                missing: "pace 7:00/km without history") { spec, state in
            if case .intervals(_, let rep, let pace, _) = spec { return log(state.expectedPace(over: rep) / pace) }
            return 0
        },
        feature("rel_race_pace_intervals", "log ratio",
                "log(recent race pace over the rep distance / rep pace asked) for `intervals` missions, else 0 "
                  + "(race pace as in `rel_race_pace_pace`)",
                missing: "the typical-pace estimate without a run of ≥ 1 km in 90 days") { spec, state in
            if case .intervals(_, let rep, let pace, _) = spec { return log(state.expectedRacePace(over: rep) / pace) }
            return 0
        },
        feature("rest_intervals", "log ratio", "log(longest rest allowed / 120 s) for `intervals` missions, else 0",
                missing: "never missing") { spec, _ in
            if case .intervals(_, _, _, let rest) = spec { return log(rest / referenceRest) }
            return 0
        },
        feature("load_fartlek", "log ratio",
                "log(surges × shortest surge / (36 s × endurance in km)) for `fartlek` missions, else 0",
                missing: "endurance 4 km without history") { spec, state in
            if case .fartlek(let n, let seconds) = spec {
                return log(Double(n) * seconds / (referenceSurgePerKm * state.enduranceOrDefault / 1000))
            }
            return 0
        },
        feature("days_left_weekly_volume", "days / 7",
                "local days left in the week, today included, / 7, for `weekly_volume` missions, else 0 (a day's "
                  + "offer is decided by that day's runs: what is left of the target is in `rel_distance_weekly_volume`)",
                missing: "never missing") { spec, state in
            spec.kind == .weeklyVolume ? Double(state.daysLeftInWeek) / 7 : 0
        },
    ]
}
