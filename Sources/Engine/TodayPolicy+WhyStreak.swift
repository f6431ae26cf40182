import RunusCore
import Features
import Missions

extension TodayPolicy {
    /// The sentence of a streak (record 0650), from the state as of the day's start: the days in
    /// a row behind the runner, the days still needed (today and after), and how often the runner
    /// ran on those weekdays lately. Shown for a streak offered earlier too, from that day's state.
    static func whyStreak(days: Int, state: RunnerState) -> String {
        let behind = StreakForecast.daysBehind(state)
        let needed = StreakForecast.daysNeeded(days, state: state)
        let streak = "\(days) days in a row"
        let behindText = behind == 0 ? "" : "With \(behind) day\(behind == 1 ? "" : "s") in a row behind you, "
        guard needed > 0 else {
            return behindText + "a run today makes it \(streak)."
        }
        let today = CivilDate(instant: state.asOf, utcOffset: state.utcOffset)
        var ran = 0, seen = 0
        for ahead in 1...needed {
            let c = StreakForecast.weekdayCount(ahead: ahead, state: state)
            ran += c.ran; seen += c.seen
        }
        let ask = (needed == 1 ? "run today and tomorrow (\(today.adding(days: 1))) "
                   : "run today and on each of the next \(needed) days (to \(today.adding(days: needed))) ")
            + "for \(streak)"
        let record = seen == 0 ? "we know little yet of the days you run"
            : "you ran on \(ran) of the last \(seen) of those weekdays"
        let sentence = behindText + ask + "; " + record + "."
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }
}
