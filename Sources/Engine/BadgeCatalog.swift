import RunusCore

/// What a badge measures in a runner's history (`BadgeContext`).
public enum BadgeMeasure: String, Sendable, CaseIterable {
    /// Runs finished.
    case runs
    /// Longest run, metres.
    case longestRun = "longest_run_m"
    /// Distance of all runs, metres.
    case totalDistance = "total_distance_m"
    /// Moving time of all runs, seconds.
    case totalMoving = "total_moving_s"
    /// Longest moving time of one run, seconds.
    case longestMoving = "longest_moving_s"
    /// Most distance in one week (Monday to Sunday, local days), metres.
    case bestWeek = "best_week_m"
    /// Longest run of consecutive local days with a run.
    case streakDays = "streak_days"
    /// Runs started before 07:00 local time.
    case earlyRuns = "early_runs"
    /// Runs started at 21:00 local time or later.
    case lateRuns = "late_runs"
    /// Most climb in one run, metres.
    case climb = "climb_m"
    /// Missions completed (of `kind` when the badge names one).
    case missions
    /// Live races won.
    case raceWins = "race_wins"
    /// Live races finished in the top three.
    case racePodiums = "race_podiums"
}

/// What a badge looks like to the runner, and what earns it: `measure` reaching `target`
/// (docs/decisions/0007-xp-levels-badges.md).
public struct Badge: Sendable, Equatable {
    /// Stable id, stored and sent on the wire.
    public let id: String
    public let name: String
    public let description: String
    /// Icon identifier the app maps to artwork.
    public let icon: String
    /// bronze, silver, gold or platinum: how far most runners are from it.
    public let tier: Tier
    public let measure: BadgeMeasure
    /// The value of `measure` that earns it (a distance accepts 99 % of it: GPS tolerance).
    public let target: Double
    /// The mission kind `missions` counts; nil: every kind.
    public let kind: String?

    public enum Tier: String, Sendable { case bronze, silver, gold, platinum }

    public init(_ id: String, _ name: String, _ description: String, icon: String, tier: Tier,
                _ measure: BadgeMeasure, _ target: Double, kind: String? = nil) {
        self.id = id; self.name = name; self.description = description; self.icon = icon
        self.tier = tier; self.measure = measure; self.target = target; self.kind = kind
    }

    /// The value the criterion compares: for distances, with the GPS tolerance of record 0201
    /// applied to the target rather than to the value.
    var threshold: Double {
        switch measure {
        case .longestRun, .totalDistance, .bestWeek: return target * BadgeCatalog.distanceTolerance
        default: return target
        }
    }

    /// How far `context` is towards the badge, in [0, 1] (1: earned).
    public func progress(_ context: BadgeContext) -> Double {
        let value = context.value(measure, kind: kind)
        return value >= threshold ? 1 : max(0, min(1, value / threshold))
    }

    public func isEarned(_ context: BadgeContext) -> Bool { context.value(measure, kind: kind) >= threshold }

    public static func == (a: Badge, b: Badge) -> Bool { a.id == b.id }
}

/// The badge catalog (docs/decisions/0007-xp-levels-badges.md). Distance thresholds accept the
/// missions' GPS tolerance (99 % of the distance, record 0201), so a watch-measured 5 km that GPS
/// reads as 4.96 km still earns "First 5K". Ids never change (they are stored).
public enum BadgeCatalog {
    /// Share of a distance threshold a run must reach (GPS tolerance, record 0201).
    static let distanceTolerance = 0.99

    public static let all: [Badge] = [
        Badge("first_run", "First Steps", "Finish your first run.", icon: "shoe", tier: .bronze, .runs, 1),
        Badge("first_5k", "First 5K", "Run 5 km in one go.", icon: "medal-5k", tier: .bronze, .longestRun, 5000),
        Badge("first_10k", "First 10K", "Run 10 km in one go.", icon: "medal-10k", tier: .silver, .longestRun, 10_000),
        Badge("half_marathon", "Half Marathoner", "Run a half marathon distance (21.1 km) in one go.", icon: "medal-half",
              tier: .gold, .longestRun, 21_097.5),
        Badge("marathon", "Marathoner", "Run a marathon distance (42.2 km) in one go.", icon: "medal-full",
              tier: .platinum, .longestRun, 42_195),
        Badge("total_50k", "50 km Club", "Run 50 km in total.", icon: "road-50", tier: .bronze, .totalDistance, 50_000),
        Badge("total_100k", "Century", "Run 100 km in total.", icon: "road-100", tier: .silver, .totalDistance, 100_000),
        Badge("total_500k", "500 km Club", "Run 500 km in total.", icon: "road-500", tier: .gold, .totalDistance, 500_000),
        Badge("total_1000k", "Thousand Kilometres", "Run 1,000 km in total.", icon: "road-1000", tier: .platinum,
              .totalDistance, 1_000_000),
        Badge("moving_10h", "Ten Hours", "Run for 10 hours in total.", icon: "clock-10", tier: .bronze, .totalMoving, 36_000),
        Badge("moving_100h", "Hundred Hours", "Run for 100 hours in total.", icon: "clock-100", tier: .gold, .totalMoving, 360_000),
        Badge("long_2h", "Two Hours on Your Feet", "Run for 2 hours in one go.", icon: "hourglass", tier: .gold, .longestMoving, 7200),
        Badge("runs_10", "Regular", "Finish 10 runs.", icon: "count-10", tier: .bronze, .runs, 10),
        Badge("runs_50", "Habit Formed", "Finish 50 runs.", icon: "count-50", tier: .silver, .runs, 50),
        Badge("runs_100", "Hundred Runs", "Finish 100 runs.", icon: "count-100", tier: .gold, .runs, 100),
        Badge("streak_3", "Three in a Row", "Run on 3 days in a row.", icon: "flame-3", tier: .bronze, .streakDays, 3),
        Badge("streak_7", "Week Streak", "Run on 7 days in a row.", icon: "flame-7", tier: .silver, .streakDays, 7),
        Badge("streak_14", "Fortnight Streak", "Run on 14 days in a row.", icon: "flame-14", tier: .gold, .streakDays, 14),
        Badge("streak_30", "Month Streak", "Run on 30 days in a row.", icon: "flame-30", tier: .platinum, .streakDays, 30),
        Badge("early_bird", "Early Bird", "Start a run before 7:00.", icon: "sunrise", tier: .bronze, .earlyRuns, 1),
        Badge("early_bird_10", "Dawn Patrol", "Start 10 runs before 7:00.", icon: "sunrise-10", tier: .silver, .earlyRuns, 10),
        Badge("night_owl", "Night Owl", "Start a run at 21:00 or later.", icon: "moon", tier: .bronze, .lateRuns, 1),
        Badge("night_owl_10", "Night Shift", "Start 10 runs at 21:00 or later.", icon: "moon-10", tier: .silver, .lateRuns, 10),
        Badge("climber", "Climber", "Climb 500 m in one run.", icon: "mountain", tier: .gold, .climb, 500),
        Badge("weekly_50k", "Big Week", "Run 50 km in one week (Monday to Sunday).", icon: "calendar-50", tier: .gold, .bestWeek, 50_000),
        Badge("mission_1", "Mission Accomplished", "Complete your first mission.", icon: "target-1", tier: .bronze, .missions, 1),
        Badge("mission_10", "Mission Specialist", "Complete 10 missions.", icon: "target-10", tier: .silver, .missions, 10),
        Badge("mission_50", "Mission Master", "Complete 50 missions.", icon: "target-50", tier: .gold, .missions, 50),
        Badge("mission_100", "Mission Legend", "Complete 100 missions.", icon: "target-100", tier: .platinum, .missions, 100),
        Badge("negative_splitter", "Negative Splitter", "Complete 5 negative-split missions.", icon: "split",
              tier: .silver, .missions, 5, kind: "negative_split"),
        Badge("hill_repeater", "Hill Repeater", "Complete 5 hills missions.", icon: "hills", tier: .silver, .missions, 5, kind: "hills"),
        Badge("long_hauler", "Long Hauler", "Complete 5 long-run missions.", icon: "long-road", tier: .silver, .missions, 5, kind: "long_run"),
        Badge("explorer", "Explorer", "Complete 3 explorer missions: run on new ground.", icon: "compass",
              tier: .silver, .missions, 3, kind: "explorer"),
        Badge("steady", "Steady Pacer", "Complete 5 even-pace missions.", icon: "metronome", tier: .silver, .missions, 5, kind: "even_pace"),
        Badge("race_win_1", "First Victory", "Win a live race.", icon: "trophy-1", tier: .silver, .raceWins, 1),
        Badge("race_winner_3", "Triple Winner", "Win three live races.", icon: "trophy-3", tier: .gold, .raceWins, 3),
        Badge("race_win_5", "Five-Time Winner", "Win five live races.", icon: "trophy-5", tier: .gold, .raceWins, 5),
        Badge("race_win_25", "Champion", "Win 25 live races.", icon: "trophy-25", tier: .platinum, .raceWins, 25),
        Badge("race_podium", "Podium", "Finish a live race in the top three.", icon: "podium", tier: .bronze, .racePodiums, 1),
    ]

    public static func badge(id: String) -> Badge? { all.first { $0.id == id } }

    /// Badges whose criteria `context` meets and that are not in `owned`, in catalog order.
    public static func newlyEarned(_ context: BadgeContext, owned: Set<String>) -> [Badge] {
        all.filter { !owned.contains($0.id) && $0.isEarned(context) }
    }
}
