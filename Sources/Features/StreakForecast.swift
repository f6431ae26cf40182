#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Missions

/// The chance that a runner who runs today completes a streak offered today (record 0650): the
/// product, over the days after today that the streak still needs, of the runner's chance of
/// running on that day. That chance is read from the runner's active weeks (7-day windows back
/// from yesterday with a run: a runner who runs today is not on a break) of the last 12 weeks:
/// the share of that weekday's days with a run, each week weighing 0.5^(weeks back /
/// `recencyHalfLifeWeeks`), shrunk by `priorWeight` days toward the share of its class, the
/// runner's usual days (weekdays run on at least half the time) or the others.
/// Pure: reads `RunnerState.runDaysBack` only.
///
/// The trained models do not score streaks: their labels are single runs, and a streak is
/// decided by whether the runner runs on the next days, which the schedule says more about
/// than any run's features.
public enum StreakForecast {
    /// Days of the class's share that a weekday's share is shrunk toward.
    public static let priorWeight = 16.0
    /// Age in weeks at which a day counts half in the shares: run days cluster (training
    /// blocks, holidays, injuries), so recent weeks say more about the next days.
    public static let recencyHalfLifeWeeks = 3.0
    /// Days of record (since the first run's day) before a streak is forecast: with fewer, one
    /// or two of each weekday say too little (record 0650).
    public static let minimumDaysKnown = 28
    /// Share of a weekday's days with a run from which it is one of the runner's usual days.
    public static let usualShare = 0.5
    /// Days without a run in a row from which they are a break and left out of the shares
    /// (nil: every day of a 7-day window with a run counts).
    public static let breakGapDays: Int? = nil

    /// Consecutive local days with a run ending yesterday (within `RunnerState.runDayWindow`).
    public static func daysBehind(_ state: RunnerState) -> Int {
        var k = 0
        while k + 1 < state.runDaysBack.count, state.runDaysBack[k + 1] { k += 1 }
        return k
    }

    /// Days after today a streak of `days` still needs when the runner runs today: the days in
    /// a row behind today count (0: today's run completes it).
    public static func daysNeeded(_ days: Int, state: RunnerState) -> Int {
        max(0, days - 1 - daysBehind(state))
    }

    /// The runner's chance of running on the local day `ahead` days after today (≥ 1), in [0, 1];
    /// 0 without an active week.
    /// `weight`: the days of the class's share it is shrunk by; `halfLifeWeeks`: the age at
    /// which a week counts half (nil: every week the same). Both are the shipped constants
    /// unless evaluating.
    public static func dayProbability(ahead: Int, state: RunnerState, weight: Double = priorWeight,
                                      halfLifeWeeks: Double? = recencyHalfLifeWeeks, breakDays: Int? = breakGapDays) -> Double {
        let weekdays = (0..<7).map { weightedCount(ahead: $0, state: state, halfLifeWeeks: halfLifeWeeks, breakDays: breakDays) }
        let own = weekdays[((ahead % 7) + 7) % 7]
        func usual(_ c: (ran: Double, seen: Double)) -> Bool { c.seen > 0 && c.ran >= usualShare * c.seen }
        let isUsual = usual(own)
        let mates = weekdays.filter { $0.seen > 0 && usual($0) == isUsual }
        let seen = mates.reduce(0) { $0 + $1.seen }
        guard seen > 0 else { return 0 }
        let classShare = mates.reduce(0) { $0 + $1.ran } / seen
        return (own.ran + weight * classShare) / (own.seen + weight)
    }

    /// `weekdayCount`, each day weighing 0.5^(w / `halfLifeWeeks`) (1 without one), w being
    /// the whole weeks between it and yesterday's week (0 for the last 7 days).
    static func weightedCount(ahead: Int, state: RunnerState, halfLifeWeeks: Double?, breakDays: Int? = breakGapDays)
        -> (ran: Double, seen: Double) {
        var seen = 0.0, ran = 0.0
        for day in weekdays(ahead: ahead, state: state, breakDays: breakDays) {
            let w = halfLifeWeeks.map { pow(0.5, Double(day.weeksBack) / $0) } ?? 1
            seen += w
            if day.ran { ran += w }
        }
        return (ran, seen)
    }

    /// The chance of completing a streak of `days` offered today, given that the runner runs
    /// today, in [0, 1]: 1 when today's run completes it.
    public static func probability(days: Int, state: RunnerState) -> Double {
        let needed = daysNeeded(days, state: state)
        guard needed > 0 else { return 1 }
        var p = 1.0
        for ahead in 1...needed { p *= dayProbability(ahead: ahead, state: state) }
        return p
    }

    /// Of the days before today in active weeks since the first run's day (at most 12 weeks) on
    /// the weekday of the day `ahead` days on (b ≡ −ahead mod 7 days back): how many had a run,
    /// and how many there were.
    public static func weekdayCount(ahead: Int, state: RunnerState) -> (ran: Int, seen: Int) {
        let days = weekdays(ahead: ahead, state: state)
        return (days.filter(\.ran).count, days.count)
    }

    /// The days `weekdayCount` reads, newest first: whole weeks between each and yesterday's
    /// week, and whether it had a run.
    static func weekdays(ahead: Int, state: RunnerState, breakDays: Int? = breakGapDays) -> [(weeksBack: Int, ran: Bool)] {
        let span = daysKnown(state)
        let rest = ((ahead % 7) + 7) % 7
        let first = rest == 0 ? 7 : 7 - rest
        guard first <= span else { return [] }
        let kept: (Int) -> Bool
        if let breakDays {
            let breaks = breakDaysBack(state, longest: breakDays)
            kept = { !breaks[$0] }
        } else {
            kept = { isActiveWeek(containing: $0, state: state) }
        }
        return stride(from: first, through: span, by: 7).filter(kept).map { b in ((b - 1) / 7, state.runDaysBack[b]) }
    }

    /// Days back (index b, as `runDaysBack`) that lie in a break: a run of at least `longest`
    /// days without a run, between two run days (today counts as one: the forecast is given a
    /// run today) or reaching the end of the record.
    static func breakDaysBack(_ state: RunnerState, longest: Int) -> [Bool] {
        let days = state.runDaysBack
        var out = [Bool](repeating: false, count: days.count)
        var b = 1
        while b < days.count {
            guard !days[b] else { b += 1; continue }
            var end = b
            while end + 1 < days.count, !days[end + 1] { end += 1 }
            if end - b + 1 >= longest { for k in b...end { out[k] = true } }
            b = end + 1
        }
        return out
    }

    /// Days before today the runner's record covers: since the first run's day, at most `RunnerState.runDayWindow`.
    public static func daysKnown(_ state: RunnerState) -> Int {
        max(0, min(state.daysSinceFirstRunDay - 1, RunnerState.runDayWindow, state.runDaysBack.count - 1))
    }

    /// Whether the 7-day window back from yesterday holding day `b` (days back, ≥ 1) had a run.
    static func isActiveWeek(containing b: Int, state: RunnerState) -> Bool {
        let first = (b - 1) / 7 * 7 + 1
        let last = min(first + 6, state.runDaysBack.count - 1)
        return first <= last && state.runDaysBack[first...last].contains(true)
    }
}
