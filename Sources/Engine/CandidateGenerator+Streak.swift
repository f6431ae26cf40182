import RunusCore
import Features
import Missions

extension CandidateGenerator {
    /// Days after today a streak candidate asks for, beyond the days in a row behind today and
    /// today's run (record 0650): 1 (run tomorrow too) … 5.
    static let streakDaysAhead: ClosedRange<Int> = 1...5
    /// Longest streak offered, days: the longest window an offer can have (`MissionWindow`).
    public static let maximumStreakDays = 14

    /// Streak candidates: the days in a row behind today, today, and 1…5 days more, between 2
    /// and `maximumStreakDays` days; none for a runner with less than
    /// `StreakForecast.minimumDaysKnown` days of record (too little to forecast from).
    static func addStreaks(state: RunnerState, _ add: (MissionSpec) -> Void) {
        guard StreakForecast.daysKnown(state) >= StreakForecast.minimumDaysKnown else { return }
        let behind = StreakForecast.daysBehind(state)
        for ahead in streakDaysAhead {
            let days = behind + 1 + ahead
            if days >= 2 && days <= maximumStreakDays { add(.streak(days: days)) }
        }
    }
}
