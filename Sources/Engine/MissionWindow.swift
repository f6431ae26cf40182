import RunusCore
import Missions

/// The local days an assignment is open (records 0650 and 0655). A mission the daily policy
/// offers is open for `MissionSpec.policyOfferWindow` days from its offer day: a streak of n
/// days for n days, a weekly volume until the end of its calendar week, the others on their day
/// only; a mission the runner set or a race offered is open on its day only (the window is read
/// from the spec, the role and the offer day, so no column stores it). A streak's window also
/// ends at the end of the first of its days without a run (`MissionSpec.endsOnRestDay`). Until
/// it is over, every run of its window checks it; once over, a mission nobody completed is
/// failed when the runner ran on its offer day and expired when not (`MissionDayEnd`), as a
/// one-day offer is.
///
/// Rows written before record 0655 with a policy's weekly volume were one-day offers; read now,
/// one still `offered` (no later run closed it) stays open to the end of its week. Its target is
/// the week's total either way, so a later run of that week completing it is what it asked.
public enum MissionWindow {
    /// The longest window, days (`CandidateGenerator.maximumStreakDays`; a weekly volume's is at
    /// most 7): how far back `MissionService` and `RunIngestion` look for offers still open.
    public static let maximumDays = CandidateGenerator.maximumStreakDays

    /// Kinds whose policy offers may last more than their day.
    static let windowKinds: Set<String> = [MissionKind.streak.rawValue, MissionKind.weeklyVolume.rawValue]

    /// The spec as the window reads it: nil for a one-day role, a one-day kind or a spec this
    /// version cannot read.
    static func windowSpec(_ a: MissionAssignment) -> MissionSpec? {
        guard a.role.isPolicyOffer, windowKinds.contains(a.kind) else { return nil }
        return try? MissionSpec(json: try JSONParser.parse(a.specJSON))
    }

    /// Days `spec`'s window holds from `day`, 1…`maximumDays` (a longer stored streak, a
    /// tampered or foreign row, is read as `maximumDays`).
    static func days(_ spec: MissionSpec?, from day: CivilDate) -> Int {
        min(maximumDays, max(1, spec?.policyOfferWindow(offeredOn: day) ?? 1))
    }

    /// Days the assignment is open for, its day included, 1…`maximumDays`.
    public static func days(of a: MissionAssignment) -> Int { days(windowSpec(a), from: a.day) }

    /// The last local day the assignment can be open.
    public static func lastDay(of a: MissionAssignment) -> CivilDate { a.day.adding(days: days(of: a) - 1) }

    /// Whether `a`'s window is over at the start of the runner's local day `today`: its last day
    /// is before `today`, or it ends on a rest day and one of its days before `today` had no run
    /// (`runDays`: the local days with a run that is evidence of running).
    public static func isOver(_ a: MissionAssignment, today: CivilDate, runDays: Set<CivilDate>) -> Bool {
        guard a.day < today else { return false }
        let spec = windowSpec(a)
        let last = a.day.adding(days: days(spec, from: a.day) - 1)
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
