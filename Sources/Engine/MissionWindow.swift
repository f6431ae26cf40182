import RunusCore
import Missions

/// The local days an assignment is open (record 0650). A mission the daily policy offers is open
/// for `MissionSpec.offerWindowDays` days from its offer day: a streak of n days for n days, the
/// others on their day only; a mission the runner set or a race offered is open on its day only
/// (the window is read from the spec and the role, so rows of every version keep their meaning:
/// no earlier version offered a streak). A streak's window also ends at the end of the first of
/// its days without a run (`MissionSpec.endsOnRestDay`). Until it is over, every run of its
/// window checks it; once over, a mission nobody completed is failed when the runner ran on its
/// offer day and expired when not (`MissionDayEnd`), as a one-day offer is.
public enum MissionWindow {
    /// The longest window, days (`CandidateGenerator.maximumStreakDays`): how far back
    /// `MissionService` and `RunIngestion` look for offers still open.
    public static let maximumDays = CandidateGenerator.maximumStreakDays

    /// The spec as the window reads it: nil for a one-day role or a spec this version cannot read.
    static func windowSpec(_ a: MissionAssignment) -> MissionSpec? {
        guard a.role.isPolicyOffer, a.kind == MissionKind.streak.rawValue else { return nil }
        return try? MissionSpec(json: try JSONParser.parse(a.specJSON))
    }

    /// Days the assignment is open for, its day included, 1…`maximumDays`.
    public static func days(of a: MissionAssignment) -> Int {
        min(maximumDays, windowSpec(a)?.offerWindowDays ?? 1)
    }

    /// The last local day the assignment can be open.
    public static func lastDay(of a: MissionAssignment) -> CivilDate { a.day.adding(days: days(of: a) - 1) }

    /// Whether `a`'s window is over at the start of the runner's local day `today`: its last day
    /// is before `today`, or it ends on a rest day and one of its days before `today` had no run
    /// (`runDays`: the local days with a run that is evidence of running).
    public static func isOver(_ a: MissionAssignment, today: CivilDate, runDays: Set<CivilDate>) -> Bool {
        guard a.day < today else { return false }
        let spec = windowSpec(a)
        let last = a.day.adding(days: min(maximumDays, spec?.offerWindowDays ?? 1) - 1)
        if last < today { return true }
        guard spec?.endsOnRestDay == true else { return false }
        var d = a.day
        while d < today {
            if !runDays.contains(d) { return true }
            d = d.adding(days: 1)
        }
        return false
    }

    /// Whether `a` lasts more than its offer day.
    public static func isMultiDay(_ a: MissionAssignment) -> Bool { days(of: a) > 1 }
}
