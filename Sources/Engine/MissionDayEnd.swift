import RunusCore

/// What becomes of a mission nobody completed once its day is over (record 0534; a streak's
/// window, record 0650): `failed` when the runner ran on its (offer) local day (a run that is
/// evidence of running, record 0230), `expired` when not. `runs.ingest` writes it for the days before a run's day (`RunIngestion.closeDays`);
/// until a later run arrives, `missions.history` shows the same status computed on read for
/// every day before the runner's today, so a "my missions" screen never shows yesterday's
/// missions as still open.
public enum MissionDayEnd {
    /// The status of a mission left open at the end of its day.
    public static func status(ranThatDay: Bool) -> MissionStatus { ranThatDay ? .failed : .expired }

    /// The local days (in `user`'s zone at each run's start) of `runs` that are evidence of running.
    public static func runDays(_ runs: [RunRecord], user: UserProfile, resolver: any UTCOffsetResolver) -> Set<CivilDate> {
        Set(runs.filter(\.isEvidence).map { user.localDay(at: $0.startTime, resolver: resolver) })
    }

    /// The status `a` shows when the runner's local day is `today`: the stored one, or, for a
    /// mission still `offered` whose window is over before `today` (`MissionWindow.isOver`), its
    /// day-end status, by whether the runner ran on its offer day.
    public static func shownStatus(_ a: MissionAssignment, today: CivilDate, runDays: Set<CivilDate>) -> MissionStatus {
        guard a.status == .offered, MissionWindow.isOver(a, today: today, runDays: runDays) else { return a.status }
        return status(ranThatDay: runDays.contains(a.day))
    }
}
