import RunusCore
import Features
import Engine

/// The walk the forecast calibrations share (`StreakCalibration`, `WeeklyVolumeCalibration`):
/// every runner of a store with evidence runs, and each local day with a run, with the runner's
/// state as of that day's start (the runs before it, at the runner's offset then).
struct RunDayAnchors {
    /// One runner's evidence runs, sorted by (start, id), and the local days they fall on.
    struct Runner {
        let user: UserProfile
        let runs: [RunRecord]
        let runDays: Set<CivilDate>
        let lastDay: CivilDate
    }

    /// The runners of `store` with at least one evidence run.
    static func runners(in store: any EngineStore, resolver: any UTCOffsetResolver) throws -> [Runner] {
        try store.allUsers().compactMap { user in
            let runs = try store.runs(user: user.id, from: -Double.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
                .filter(\.isEvidence).sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
            guard let last = runs.last else { return nil }
            return Runner(user: user, runs: runs, runDays: Set(runs.map { user.localDay(at: $0.startTime, resolver: resolver) }),
                          lastDay: user.localDay(at: last.startTime, resolver: resolver))
        }
    }

    /// Calls `body` with each of `runner`'s run days (ascending) that `include` keeps and the
    /// runner's state as of its start; the states are built from one pass over the runs.
    static func forEachDay(of runner: Runner, resolver: any UTCOffsetResolver, where include: (CivilDate) -> Bool,
                           _ body: (CivilDate, RunnerState) throws -> Void) rethrows {
        var past = 0
        for day in runner.runDays.sorted() where include(day) {
            let offset = runner.user.utcOffset(at: day.startInstant(utcOffset: runner.user.utcOffsetSeconds), resolver: resolver)
            let dayStart = day.startInstant(utcOffset: offset)
            while past < runner.runs.count, runner.runs[past].startTime < dayStart { past += 1 }
            try body(day, RunnerState(history: Array(runner.runs[..<past]), asOf: dayStart, utcOffset: offset))
        }
    }
}
