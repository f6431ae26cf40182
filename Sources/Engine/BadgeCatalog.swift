import RunusCore

/// What a badge looks like to the runner.
public struct Badge: Sendable, Equatable {
    /// Stable id, stored and sent on the wire.
    public let id: String
    public let name: String
    public let description: String
    /// Icon identifier the app maps to artwork.
    public let icon: String
    let criterion: @Sendable (BadgeContext) -> Bool

    public static func == (a: Badge, b: Badge) -> Bool { a.id == b.id }
}

/// Everything badge criteria look at: the runner's runs (including the one just ingested) with
/// their local days and hours, and counts of completed missions and race results.
public struct BadgeContext: Sendable {
    public struct Run: Sendable {
        public let distance: Meters
        public let elevationGain: Meters
        public let localDay: CivilDate
        /// Local start hour in [0, 24).
        public let localHour: Double
    }
    public let runs: [Run]
    public let missionsCompleted: Int
    public let raceWins: Int
    public let racePodiums: Int

    public init(runs: [Run], missionsCompleted: Int, raceWins: Int, racePodiums: Int) {
        self.runs = runs; self.missionsCompleted = missionsCompleted
        self.raceWins = raceWins; self.racePodiums = racePodiums
    }

    var totalDistance: Meters { runs.reduce(0) { $0 + $1.distance } }
    var longestRun: Meters { runs.map(\.distance).max() ?? 0 }

    /// Longest run of consecutive local days with at least one run.
    var longestStreak: Int {
        let days = Set(runs.map { $0.localDay.daysSinceEpoch }).sorted()
        var best = 0, current = 0, previous: Int?
        for d in days {
            current = previous.map { d == $0 + 1 ? current + 1 : 1 } ?? 1
            best = max(best, current)
            previous = d
        }
        return best
    }

    /// Most distance in one ISO week (Monday to Sunday, local days), metres.
    var bestWeek: Meters {
        var weeks: [Int: Meters] = [:]
        for run in runs {
            let monday = run.localDay.daysSinceEpoch - (run.localDay.isoWeekday - 1)
            weeks[monday, default: 0] += run.distance
        }
        return weeks.values.max() ?? 0
    }
}

/// The badge catalog (docs/decisions/0007-xp-levels-badges.md). Distance thresholds accept the
/// missions' GPS tolerance (99 % of the distance, record 0201), so a watch-measured 5 km that GPS
/// reads as 4.96 km still earns "First 5K".
public enum BadgeCatalog {
    /// Share of a distance threshold a run must reach (GPS tolerance, record 0201).
    static let distanceTolerance = 0.99

    static func ran(_ meters: Meters) -> @Sendable (BadgeContext) -> Bool {
        { $0.longestRun >= meters * distanceTolerance }
    }
    static func total(_ meters: Meters) -> @Sendable (BadgeContext) -> Bool {
        { $0.totalDistance >= meters * distanceTolerance }
    }

    public static let all: [Badge] = [
        Badge(id: "first_run", name: "First Steps", description: "Finish your first run.", icon: "shoe", criterion: { !$0.runs.isEmpty }),
        Badge(id: "first_5k", name: "First 5K", description: "Run 5 km in one go.", icon: "medal-5k", criterion: ran(5000)),
        Badge(id: "first_10k", name: "First 10K", description: "Run 10 km in one go.", icon: "medal-10k", criterion: ran(10_000)),
        Badge(id: "half_marathon", name: "Half Marathoner", description: "Run a half marathon distance (21.1 km) in one go.", icon: "medal-half", criterion: ran(21_097.5)),
        Badge(id: "marathon", name: "Marathoner", description: "Run a marathon distance (42.2 km) in one go.", icon: "medal-full", criterion: ran(42_195)),
        Badge(id: "total_50k", name: "50 km Club", description: "Run 50 km in total.", icon: "road-50", criterion: total(50_000)),
        Badge(id: "total_100k", name: "Century", description: "Run 100 km in total.", icon: "road-100", criterion: total(100_000)),
        Badge(id: "total_500k", name: "500 km Club", description: "Run 500 km in total.", icon: "road-500", criterion: total(500_000)),
        Badge(id: "total_1000k", name: "Thousand Kilometres", description: "Run 1,000 km in total.", icon: "road-1000", criterion: total(1_000_000)),
        Badge(id: "runs_10", name: "Regular", description: "Finish 10 runs.", icon: "count-10", criterion: { $0.runs.count >= 10 }),
        Badge(id: "runs_50", name: "Habit Formed", description: "Finish 50 runs.", icon: "count-50", criterion: { $0.runs.count >= 50 }),
        Badge(id: "runs_100", name: "Hundred Runs", description: "Finish 100 runs.", icon: "count-100", criterion: { $0.runs.count >= 100 }),
        Badge(id: "streak_3", name: "Three in a Row", description: "Run on 3 days in a row.", icon: "flame-3", criterion: { $0.longestStreak >= 3 }),
        Badge(id: "streak_7", name: "Week Streak", description: "Run on 7 days in a row.", icon: "flame-7", criterion: { $0.longestStreak >= 7 }),
        Badge(id: "streak_30", name: "Month Streak", description: "Run on 30 days in a row.", icon: "flame-30", criterion: { $0.longestStreak >= 30 }),
        Badge(id: "early_bird", name: "Early Bird", description: "Start a run before 7:00.", icon: "sunrise", criterion: { $0.runs.contains { $0.localHour < 7 } }),
        Badge(id: "night_owl", name: "Night Owl", description: "Start a run at 21:00 or later.", icon: "moon", criterion: { $0.runs.contains { $0.localHour >= 21 } }),
        Badge(id: "climber", name: "Climber", description: "Climb 500 m in one run.", icon: "mountain", criterion: { $0.runs.contains { $0.elevationGain >= 500 } }),
        Badge(id: "weekly_50k", name: "Big Week", description: "Run 50 km in one week (Monday to Sunday).", icon: "calendar-50", criterion: { $0.bestWeek >= 50_000 * distanceTolerance }),
        Badge(id: "mission_1", name: "Mission Accomplished", description: "Complete your first mission.", icon: "target-1", criterion: { $0.missionsCompleted >= 1 }),
        Badge(id: "mission_10", name: "Mission Specialist", description: "Complete 10 missions.", icon: "target-10", criterion: { $0.missionsCompleted >= 10 }),
        Badge(id: "mission_50", name: "Mission Master", description: "Complete 50 missions.", icon: "target-50", criterion: { $0.missionsCompleted >= 50 }),
        Badge(id: "race_podium", name: "Podium", description: "Finish a live race in the top three.", icon: "podium", criterion: { $0.racePodiums >= 1 }),
        Badge(id: "race_winner_3", name: "Triple Winner", description: "Win three live races.", icon: "trophy-3", criterion: { $0.raceWins >= 3 }),
    ]

    public static func badge(id: String) -> Badge? { all.first { $0.id == id } }

    /// Badges whose criteria `context` meets and that are not in `owned`, in catalog order.
    public static func newlyEarned(_ context: BadgeContext, owned: Set<String>) -> [Badge] {
        all.filter { !owned.contains($0.id) && $0.criterion(context) }
    }
}
