import RunusCore

/// Everything badge criteria look at: the runner's runs (including the one just ingested) with
/// their local days and hours, completed missions by kind, and race results.
public struct BadgeContext: Sendable {
    public struct Run: Sendable {
        public let distance: Meters
        public let elevationGain: Meters
        public let localDay: CivilDate
        /// Local start hour in [0, 24).
        public let localHour: Double
        /// Moving time, seconds.
        public let moving: Seconds

        public init(distance: Meters, elevationGain: Meters, localDay: CivilDate, localHour: Double, moving: Seconds = 0) {
            self.distance = distance; self.elevationGain = elevationGain; self.localDay = localDay
            self.localHour = localHour; self.moving = moving
        }
    }
    public let runs: [Run]
    /// Completed missions by kind (wire name).
    public let missionsByKind: [String: Int]
    public let raceWins: Int
    public let racePodiums: Int

    public init(runs: [Run], missionsByKind: [String: Int], raceWins: Int, racePodiums: Int) {
        self.runs = runs; self.missionsByKind = missionsByKind
        self.raceWins = raceWins; self.racePodiums = racePodiums
    }

    /// Missions of any kind, for contexts that do not know kinds.
    public init(runs: [Run], missionsCompleted: Int, raceWins: Int, racePodiums: Int) {
        self.init(runs: runs, missionsByKind: missionsCompleted > 0 ? ["": missionsCompleted] : [:],
                  raceWins: raceWins, racePodiums: racePodiums)
    }

    /// The measured value; `kind` narrows `missions`.
    func value(_ measure: BadgeMeasure, kind: String?) -> Double {
        switch measure {
        case .runs: return Double(runs.count)
        case .longestRun: return runs.map(\.distance).max() ?? 0
        case .totalDistance: return runs.reduce(0) { $0 + $1.distance }
        case .totalMoving: return runs.reduce(0) { $0 + $1.moving }
        case .longestMoving: return runs.map(\.moving).max() ?? 0
        case .bestWeek: return bestWeek
        case .streakDays: return Double(longestStreak)
        case .earlyRuns: return Double(runs.filter { $0.localHour < 7 }.count)
        case .lateRuns: return Double(runs.filter { $0.localHour >= 21 }.count)
        case .climb: return runs.map(\.elevationGain).max() ?? 0
        case .missions:
            return Double(kind.map { missionsByKind[$0] ?? 0 } ?? missionsByKind.values.reduce(0, +))
        case .raceWins: return Double(raceWins)
        case .racePodiums: return Double(racePodiums)
        }
    }

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
