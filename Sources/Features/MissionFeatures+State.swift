import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

extension MissionFeatures {
    /// The runner's state as of the offer (`RunnerState`), the same for every candidate.
    static let stateFeatures: [Feature] = [
        feature("log_days_since_last_run", "log(1 + days)", "time since the previous run started",
                missing: "log(1 + 30)") { _, s in log(1 + (s.daysSinceLastRun ?? daysWithoutHistory)) },
        feature("acute_chronic_ratio", "ratio in [0, 4]", "7-day volume over the weekly mean of the 28-day volume",
                missing: "1") { _, s in s.acuteChronicRatio },
        feature("runs_7d", "runs / 7", "runs in the last 7 days, divided by 7", missing: "0") { _, s in Double(s.runs7d) / 7 },
        feature("runs_28d", "runs / 10", "runs in the last 28 days, divided by 10", missing: "0") { _, s in Double(s.runs28d) / 10 },
        feature("runs_90d", "runs / 30", "runs in the last 90 days, divided by 30", missing: "0") { _, s in Double(s.runs90d) / 30 },
        feature("volume_7d", "10 km", "distance run in the last 7 days", missing: "0") { _, s in s.volume7d / 10_000 },
        feature("volume_28d_weekly", "10 km / week", "weekly mean of the distance run in the last 28 days",
                missing: "0") { _, s in s.volume28d / 4 / 10_000 },
        feature("volume_90d_weekly", "10 km / week", "weekly mean of the distance run in the last 90 days",
                missing: "0") { _, s in s.volume90d / (90.0 / 7) / 10_000 },
        feature("log_endurance", "log(km / 5)", "log of the endurance (EWMA of run distances, weight 0.15) over 5 km",
                missing: "endurance 4 km") { _, s in log(s.enduranceOrDefault / 5000) },
        feature("rel_longest_90d", "log ratio", "log(longest run of 90 days / endurance)",
                missing: "0 without a run in 90 days") { _, s in
            s.longest90d > 0 ? log(s.longest90d / s.enduranceOrDefault) : 0
        },
        feature("typical_pace", "min/km − 6", "median moving pace of the last 10 runs, minutes per km minus 6",
                missing: "7:00/km, so 1") { _, s in s.typicalPaceOrDefault / 60 - 6 },
        feature("best_pace_5k_ratio", "log ratio",
                "log(fastest whole-run moving pace of a ≥ 5 km run in 90 days / typical pace), ≤ 0 mostly",
                missing: "0 without such a run") { _, s in
            s.bestPaces[5000].map { log($0 / s.typicalPaceOrDefault) } ?? 0
        },
        feature("best_pace_10k_ratio", "log ratio",
                "log(fastest whole-run moving pace of a ≥ 10 km run in 90 days / typical pace)",
                missing: "0 without such a run") { _, s in
            s.bestPaces[10_000].map { log($0 / s.typicalPaceOrDefault) } ?? 0
        },
        feature("estimated_5k", "log(t / 30 min)", "personal 5 km race-time estimate (best ≥ 3 km run of 90 days, "
                    + "Riegel 1.06), log of the time over 30 minutes",
                missing: "7:00/km over 5 km (35 min)") { _, s in
            log((s.estimated5k ?? RunnerState.defaultPace * 5) / 1800)
        },
        feature("pace_variability", "coefficient of variation", "sd / mean of the last 10 moving paces",
                missing: "0 with fewer than 3 paces") { _, s in s.paceVariability ?? 0 },
        feature("consistency_8w", "fraction in [0, 1]", "share of the last 8 weeks with at least one run",
                missing: "0") { _, s in s.consistency8w },
        feature("week_streak", "weeks / 8", "consecutive weeks back from the offer with a run, capped at 52, / 8",
                missing: "0") { _, s in Double(min(s.weekStreak, 52)) / 8 },
        feature("day_streak", "days / 7", "consecutive local days with a run up to the offer, capped at 30, / 7",
                missing: "0") { _, s in Double(min(s.dayStreak, 30)) / 7 },
        feature("start_hour_sin", "sin in [-1, 1]", "sine of the usual local start hour on the 24 h circle",
                missing: "0") { _, s in s.usualStartHour.map { sin(2 * .pi * $0 / 24) } ?? 0 },
        feature("start_hour_cos", "cos in [-1, 1]", "cosine of the usual local start hour on the 24 h circle",
                missing: "0") { _, s in s.usualStartHour.map { cos(2 * .pi * $0 / 24) } ?? 0 },
        feature("start_hour_regularity", "length in [0, 1]", "mean resultant length of the last 20 start hours",
                missing: "0") { _, s in s.startHourRegularity },
        feature("weekday_share", "fraction in [0, 1]", "share of the last 90 days' runs on the offer's local weekday",
                missing: "0") { _, s in s.weekdayShare },
        feature("climb_per_km", "10 m/km", "median elevation gain per km of the last 10 runs",
                missing: "0") { _, s in (s.climbPerKm ?? 0) / 10 },
        feature("past_completion_rate", "rate in (0, 1)",
                "completion rate of the runner's missions decided in the last 90 days, (completed + 1) / (tried + 2)",
                missing: "1/2 without outcomes") { _, s in s.completionRate(nil) },
        feature("log_past_tries", "log(1 + missions)", "missions the runner tried in the last 90 days",
                missing: "0") { _, s in log(1 + Double(s.tried(nil))) },
        feature("has_history", "0/1", "1 when the runner has at least one earlier run", missing: "0") { _, s in
            s.totalRuns > 0 ? 1 : 0
        },
    ]
}
