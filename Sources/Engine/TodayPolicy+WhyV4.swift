import RunusCore
import Features
import Missions

extension TodayPolicy {
    /// The sentence of the kinds of schema v4: what the mission asks, against what the runner does.
    static func whyV4(_ spec: MissionSpec, state: RunnerState) -> String {
        let endurance = state.enduranceOrDefault
        let usual = DistanceFormat.kilometres(endurance)
        let usualClock = state.usualStartHour.map { MissionTitle.clock(Int(saturating: ($0 * 60).rounded()) % 1440) }
        func far(_ d: Meters) -> String {
            let p = Int(saturating: (abs(d / endurance - 1) * 100).rounded())
            if p < 5 { return "about your usual \(usual)" }
            return d > endurance ? "\(p) % more than your usual \(usual)" : "\(p) % less than your usual \(usual)"
        }
        switch spec {
        case .earlyBird(let before, let d):
            let when = usualClock.map { "you usually start around \($0)" } ?? "your start time is new to us"
            return "An early start before \(MissionTitle.clock(before)), \(DistanceFormat.kilometres(d)) (\(far(d))); \(when)."
        case .nightOwl(let after, let d):
            let when = usualClock.map { "you usually start around \($0)" } ?? "your start time is new to us"
            return "An evening run from \(MissionTitle.clock(after)), \(DistanceFormat.kilometres(d)) (\(far(d))); \(when)."
        case .loop(let gap, let d):
            return "Plan a round route: \(DistanceFormat.kilometres(d)) (\(far(d))) finishing within "
                + "\(Int(saturating: gap.rounded())) m of where you started."
        case .intervals(let reps, let rep, let pace, let rest):
            let expected = state.expectedPace(over: rep)
            return "Speed work: \(reps) × \(MissionTitle.metres(rep)) at \(Pace.format(pace))/km or faster, "
                + "rests up to \(DistanceFormat.duration(rest)); you usually hold about \(Pace.format(expected))/km "
                + "over that distance, so this asks for \(paceChange(expected, pace))."
        case .fartlek(let n, let seconds):
            return "Play with speed: \(n) surges of \(Int(saturating: seconds.rounded())) s or more, well above your "
                + "average speed, on a run of about your usual \(usual)."
        case .weeklyVolume(let target):
            // Open to the end of the week (record 0655); read on a later day of it, from that
            // day's state: what is left then.
            let left = max(0, target - state.volumeThisWeek)
            let today = CivilDate(instant: state.asOf, utcOffset: state.utcOffset)
            let by = state.daysLeftInWeek <= 1 ? "today" : "by Sunday (\(today.adding(days: state.daysLeftInWeek - 1)))"
            let usual = "your last four weeks averaged \(DistanceFormat.kilometres(state.volume28d / 4)) a week."
            guard state.volumeThisWeek > 0 else {
                return "Your week from today: \(DistanceFormat.kilometres(target)) \(by), where " + usual
            }
            return "You have run \(DistanceFormat.kilometres(state.volumeThisWeek)) this week, so \(DistanceFormat.kilometres(target)) "
                + "\(by) asks for \(DistanceFormat.kilometres(left)) more; " + usual
        default:
            return "\(MissionTitle.title(for: spec)): picked to be challenging yet achievable for you."
        }
    }
}
