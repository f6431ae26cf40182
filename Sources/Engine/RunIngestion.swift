import RunusCore
import Tracking
import TrackFormats
import Missions

/// Errors of the engine's run ingestion, each naming the bad value.
public enum IngestError: Error, CustomStringConvertible, Equatable {
    case unknownUser(UserID)
    case emptyTrack(runID: String, points: Int)
    /// The fixes cannot be one run (docs/decisions/0230-run-plausibility.md).
    case refused(runID: String, RunRefusal)
    /// A summary's number cannot belong to a run (record 0232).
    case refusedSummary(runID: String, SummaryRefusal)
    /// The runner has a stored run with this id that no `runs.ingest` answered (an import).
    case runIDTaken(runID: String)
    /// The run's figures are ones no stored run may have (`RunRecord.checkedForReading`: nothing
    /// on the ground moves so), so it is refused rather than stored and skipped at every read.
    case impossible(runID: String, reason: String)

    public var description: String {
        switch self {
        case .unknownUser(let id): return "unknown user '\(id)'"
        case .emptyTrack(let id, let n):
            return "run '\(id)' has \(n) usable point(s) after cleaning; at least 2 with increasing times are needed"
        case .refused(let id, let refusal): return "run '\(id)': \(refusal)"
        case .refusedSummary(let id, let refusal): return "run '\(id)': \(refusal)"
        case .runIDTaken(let id): return "run id '\(id)' is already used by another stored run of this runner (an import); send it under another id"
        case .impossible(let id, let reason): return "run '\(id)' cannot be a run: \(reason) (record 0230)"
        }
    }
}

/// What a client sends for a finished run (record 0232).
public enum RunInput: Sendable {
    /// Fixes and the device's distance readings (record 0116). `recordTimes`: the time of every
    /// record in the order the client sent them, fixes and readings alike, for the order, gap
    /// and clock checks (their refusals index it); nil: the fixes' times (and the readings' when
    /// there are no fixes).
    case track(Track, recordTimes: [EpochSeconds]?)
    /// Totals only: an indoor run the phone did not track.
    case summary(RunSummary)
}

/// After a run: the fixes checked against physical limits, metrics (vehicle parts removed),
/// every open mission of the run's local day checked, outcomes stored, XP and badges awarded,
/// level updated; the answer lists all of it. Everything is written in one transaction and the
/// answer is stored with it, so sending the same run again (same user and client run id)
/// changes nothing and returns the same answer.
///
/// A run is keyed by (user, client run id) (docs/decisions/0405-per-runner-keys.md). One whose
/// fixes cannot be one run is refused (`IngestError.refused`); one that is real but must not earn
/// (too old, too fast, too short) is stored with `rewarded: false` and the reason (record 0230);
/// one that overlaps a stored run of the runner in time is that run sent again from another
/// device: answered with `duplicate_of`, rewarded once (record 0231).
///
/// Mission status after a run (docs/decisions/0004-mission-labels.md, amendment): a run that
/// completes an open mission completes it, unless a refresh offered that mission after the run
/// ended (`mayComplete`: a runner cannot shop for missions that fit a run already done); a mission the day's runs did not
/// complete stays `offered` with its best progress until the day is over, then becomes `failed`
/// if the runner ran that day and `expired` if not (`MissionDayEnd`, record 0534: written when a
/// later run arrives, shown on read by `missions.history` before that). The answer lists every
/// mission that was open, with this run's verdict (`IngestAnswer.missionJSON`).
public final class RunIngestion: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver
    let rules: PlausibilityRules

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver(),
                rules: PlausibilityRules = PlausibilityRules()) {
        self.store = store; self.resolver = resolver; self.rules = rules
    }

    /// Ingests one run given by its fixes; returns the answer document (the same one on every
    /// repeat). `source` is what the run record says it came from: `app` for `runs.ingest`,
    /// `race` for a race runner's track (record 0526), with the runner's `race` result, which
    /// decides race missions (record 0649).
    public func ingest(user userID: UserID, clientRunID: String, track: Track, now: EpochSeconds,
                       source: String = "app", race: RaceResult? = nil) throws -> JSONValue {
        try ingest(user: userID, clientRunID: clientRunID, input: .track(track, recordTimes: nil), now: now, source: source,
                   race: race)
    }

    /// Ingests one run, fixes or a summary (record 0232); returns the answer document (the same
    /// one on every repeat). A summary passes the bounds of `PlausibilityRules.check(summary:)`,
    /// stores no track, and its missions are checked on its totals (`MissionEvaluator`).
    public func ingest(user userID: UserID, clientRunID: String, input: RunInput, now: EpochSeconds,
                       source: String = "app", race: RaceResult? = nil) throws -> JSONValue {
        let runID = clientRunID
        if let stored = try store.ingestAnswer(user: userID, runID: runID) { return try JSONParser.parse(stored) }
        guard let user = try store.user(id: userID) else { throw IngestError.unknownUser(userID) }
        let metrics: RunMetrics, trackBytes: [UInt8]?, missionRun: () -> MissionRun
        switch input {
        case .track(let track, let recordTimes):
            do {
                if let recordTimes { try rules.check(times: recordTimes, now: now) }
                else if track.points.isEmpty { try rules.check(times: track.deviceDistances.map(\.time), now: now) }
                else {
                    try rules.check(points: track.points, now: now)
                    if !track.deviceDistances.isEmpty { try rules.check(times: track.deviceDistances.map(\.time), now: now) }
                }
            } catch { throw IngestError.refused(runID: clientRunID, error) }
            let measured = RunMetrics(track: track, weightKg: user.weightKg)
            guard measured.profile.times.count >= 2, measured.elapsed > 0 else {
                throw IngestError.emptyTrack(runID: clientRunID, points: measured.profile.times.count)
            }
            metrics = measured
            trackBytes = CompactTrackCodec.encode(track)
            missionRun = { MissionRun(track: track, metrics: measured) }
        case .summary(let summary):
            do { try rules.check(summary: summary, now: now) } catch { throw IngestError.refusedSummary(runID: clientRunID, error) }
            let measured = RunMetrics(summary: summary, weightKg: user.weightKg)
            metrics = measured
            trackBytes = nil
            missionRun = { MissionRun(metrics: measured) }
        }
        let verdict = rules.rewardVerdict(start: metrics.startTime, distance: metrics.distance, moving: metrics.moving, now: now)
        var run = RunRecord(id: runID, userID: userID, startTime: metrics.startTime, distance: metrics.distance,
                            elapsed: metrics.elapsed, moving: metrics.moving, elevationGain: metrics.elevationGain,
                            calories: metrics.calories, source: source, track: trackBytes,
                            rewarded: verdict == nil, unrewardedReason: verdict?.code)
        // Stored only as every later read will take it: a run the read check would skip is
        // refused now, one it would repair is stored repaired (so no read logs it again).
        switch run.checkedForReading() {
        case .valid: break
        case .repaired(let repaired, _): run = repaired
        case .skipped(let reason): throw IngestError.impossible(runID: clientRunID, reason: reason)
        }
        return try store.transaction(runners: [userID]) {
            var run = run, verdict = verdict
            // A concurrent request may have ingested the same run since the first check.
            if let stored = try store.ingestAnswer(user: userID, runID: runID) { return try JSONParser.parse(stored) }
            let day = user.localDay(at: run.startTime, resolver: resolver)
            let total = { try self.store.rewards(user: userID).reduce(0) { $0 + $1.xp } }
            if let original = try DuplicateRun.original(of: run, among: store.runs(
                user: userID, from: run.startTime - RunRecord.maximumStoredElapsed, to: run.endTime + 1)) {
                let answer = IngestAnswer(run: run, metrics: metrics, day: day, missions: [], runXP: 0, badges: [],
                                          level: LevelStatus(xp: try total()), clientRunID: clientRunID,
                                          unrewarded: DuplicateRun.unrewarded(original), duplicateOf: original.id)
                try store.recordIngestAnswer(user: userID, runID: runID, answerJSON: JSONWriter.string(answer.json))
                return answer.json
            }
            // Inside the runner's transaction, so two runs sent at once are summed together.
            let reach = PlausibilityRules.volumeReach
            if run.rewarded, let over = PlausibilityRules.volumeVerdict(
                of: run, among: try store.runs(user: userID, from: run.startTime - reach, to: run.startTime + reach)) {
                run.rewarded = false
                run.unrewardedReason = over.code
                verdict = over
            }
            guard try store.insertRun(run) else { throw IngestError.runIDTaken(runID: clientRunID) }
            try closeDays(before: day, user: user)
            var missions: [CheckedMission] = [], runXP = 0, badges: [Badge] = []
            if run.rewarded {
                missions = try checkMissions(of: user, day: day, run: run, missionRun: missionRun(), race: race)
                runXP = Levels.runXP(distance: run.distance)
                try store.insertReward(RewardEntry(userID: userID, time: run.startTime, xp: runXP,
                                                   reason: RewardReason.run, ref: runID))
                badges = try awardBadges(to: user, run: run)
            }
            let answer = IngestAnswer(run: run, metrics: metrics, day: day, missions: missions, runXP: runXP,
                                      badges: badges, level: LevelStatus(xp: try total()), clientRunID: clientRunID,
                                      unrewarded: verdict.map { .init(reason: $0.code, message: $0.sentence) }, duplicateOf: nil)
            let json = answer.json
            try store.recordIngestAnswer(user: userID, runID: runID, answerJSON: JSONWriter.string(json))
            return json
        }
    }

    /// Offers of days before `day` that are still open and whose window is over
    /// (`MissionWindow.isOver`) are decided (`MissionDayEnd`): failed when the runner ran on
    /// their offer day, expired otherwise. A streak still running on `day` stays open.
    func closeDays(before day: CivilDate, user: UserProfile) throws {
        let open = try store.assignments(user: user.id, from: day.adding(days: -60), to: day.adding(days: -1))
            .filter { $0.status == .offered }
        guard let first = open.map(\.day).min() else { return }
        let from = first.startInstant(utcOffset: user.utcOffsetSeconds) - 86_400
        let runDays = MissionDayEnd.runDays(try store.runs(user: user.id, from: from, to: day.startInstant(utcOffset: user.utcOffsetSeconds) + 86_400),
                                            user: user, resolver: resolver)
        for a in open where MissionWindow.isOver(a, today: day, runDays: runDays) {
            try store.updateAssignment(user: user.id, id: a.id, status: MissionDayEnd.status(ranThatDay: runDays.contains(a.day)),
                                       runID: a.runID, progress: a.progress)
        }
    }

    struct CheckedMission {
        let assignment: MissionAssignment
        let spec: MissionSpec?
        let evaluation: MissionEvaluation?
        let completedNow: Bool
        /// Why there is no evaluation, when there is none.
        let note: String?
    }

    /// True when a run that ended at `end` may complete `a`, one of `dayOffers` (all of the
    /// runner's assignments of that day). The day's first set was chosen from the runner's state
    /// as of the day's start, so it may be completed by a run done before it was shown (a watch
    /// synced later); a set a refresh offered after the run ended was chosen knowing the run, and
    /// may not (record 0524); nor may a mission the runner set, or a race mission offered, after
    /// the run ended (records 0535 and 0649), and such missions do not make the day's first set a
    /// later one.
    public static func mayComplete(_ a: MissionAssignment, runEndingAt end: EpochSeconds, dayOffers: [MissionAssignment]) -> Bool {
        guard a.offeredAt > end else { return true }
        guard a.role.isPolicyOffer else { return false }
        return !dayOffers.contains { $0.role.isPolicyOffer && $0.offeredAt < a.offeredAt }
    }

    /// Checks every offered mission of the run's local day, and every offer of an earlier day
    /// whose window reaches it (a streak, `MissionWindow`), against the run, but those a refresh
    /// offered after the run ended (`mayComplete`).
    /// Kinds that read the runner's earlier runs (long run, streak, weekly volume) get the runs of
    /// the year before this one, with the runner's UTC offset for calendar days; race kinds the
    /// run's `race` result (none: the run was no race, and they stay open).
    func checkMissions(of user: UserProfile, day: CivilDate, run: RunRecord, missionRun: MissionRun,
                       race: RaceResult? = nil) throws -> [CheckedMission] {
        var out: [CheckedMission] = []
        var context: MissionContext?
        // The day's offers, then those of earlier days whose window is still open (closed by
        // `closeDays` before this check when over).
        let recent = try store.assignments(user: user.id, from: day.adding(days: 1 - MissionWindow.maximumDays), to: day)
        let offers = recent.filter { $0.day == day }
        let carried = recent.filter { $0.day < day && $0.status == .offered && MissionWindow.lastDay(of: $0) >= day }
        for a in offers.filter({ $0.status == .offered }) + carried {
            let ownDay = a.day == day ? offers : recent.filter { $0.day == a.day }
            guard Self.mayComplete(a, runEndingAt: run.endTime, dayOffers: ownDay) else {
                out.append(CheckedMission(assignment: a, spec: try? MissionSpec(json: try JSONParser.parse(a.specJSON)),
                                          evaluation: nil, completedNow: false,
                                          note: a.role == .custom ? Self.setAfterRun
                                              : a.role == .race ? Self.joinedAfterRun : Self.offeredAfterRun))
                continue
            }
            guard let spec = try? MissionSpec(json: try JSONParser.parse(a.specJSON)) else {
                out.append(CheckedMission(assignment: a, spec: nil, evaluation: nil, completedNow: false,
                                          note: "the stored mission spec could not be read"))
                continue
            }
            var missionContext = try context ?? missionContext(of: user, before: run, offers: offers)
            missionContext.race = race
            context = missionContext
            let evaluation = MissionEvaluator.evaluate(spec, run: missionRun, context: missionContext)
            let completed = evaluation.status == .completed
            let progress = max(a.progress ?? 0, evaluation.progress.clamped(to: 0...1, nan: 0))
            try store.updateAssignment(user: user.id, id: a.id, status: completed ? .completed : .offered,
                                       runID: completed ? run.id : a.runID, progress: progress)
            if completed {
                try store.insertReward(RewardEntry(userID: user.id, time: run.startTime, xp: a.xp,
                                                   reason: RewardReason.mission, ref: a.id))
            }
            var updated = a
            updated.status = completed ? .completed : .offered
            updated.progress = progress
            out.append(CheckedMission(assignment: updated, spec: spec, evaluation: evaluation, completedNow: completed, note: nil))
        }
        return out
    }

    /// Evidence of a mission the run could not complete because a refresh offered it after the run.
    public static let offeredAfterRun = "offered by a refresh after this run ended: a run completes only the missions offered before it ended, or the day's first set"
    /// Evidence of a race mission the run could not complete because its race was joined after the run.
    public static let joinedAfterRun = "offered when you joined a race after this run ended: only that race's run can complete it"
    /// Evidence of a custom mission the run could not complete because it was set after the run.
    public static let setAfterRun = "set after this run ended: a mission you set counts for the runs that end after you set it"

    /// The runner's runs of the history window before `run`, each with the runner's offset at its start;
    /// when one of `offers` is an explorer or personal-best mission, with the best efforts and the
    /// covered cells of their tracks (each stored track decoded, as `missions.progress` does:
    /// only then, records 0645 and 0646).
    func missionContext(of user: UserProfile, before run: RunRecord, offers: [MissionAssignment] = []) throws -> MissionContext {
        let trackKinds = [MissionKind.explorer.rawValue, MissionKind.personalBest.rawValue]
        if offers.contains(where: { $0.status == .offered && trackKinds.contains($0.kind) }) {
            return try MissionProgressService(store: store, resolver: resolver)
                .priorRuns(of: user, before: run.startTime, withTracks: true)
                .context(start: run.startTime, utcOffset: user.utcOffset(at: run.startTime, resolver: resolver))
        }
        // `runs(from:to:)` is [from, to): the run itself and any run starting with it are left out.
        let prior = try HistoryWindow.runs(of: user.id, before: run.startTime, store: store).map { PriorRun(start: $0.startTime, utcOffset: user.utcOffset(at: $0.startTime, resolver: resolver), distance: $0.distance) }
        return MissionContext(priorRuns: prior, utcOffset: user.utcOffset(at: run.startTime, resolver: resolver))
    }

    /// Evaluates the badge catalog on the runner's whole history and stores new badges.
    func awardBadges(to user: UserProfile, run: RunRecord) throws -> [Badge] {
        try BadgeAwarding(store: store, resolver: resolver).award(to: user, at: run.startTime, runID: run.id)
    }
}
