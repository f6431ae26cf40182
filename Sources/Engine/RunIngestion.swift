import RunusCore
import Tracking
import TrackFormats
import Missions

/// Errors of the engine's run ingestion, each naming the bad value.
public enum IngestError: Error, CustomStringConvertible, Equatable {
    case unknownUser(UserID)
    case emptyTrack(runID: String, points: Int)
    case runOwnedByAnotherUser(runID: String)

    public var description: String {
        switch self {
        case .unknownUser(let id): return "unknown user '\(id)'"
        case .emptyTrack(let id, let n):
            return "run '\(id)' has \(n) usable point(s) after cleaning; at least 2 with increasing times are needed"
        case .runOwnedByAnotherUser(let id): return "run id '\(id)' was already sent by another user"
        }
    }
}

/// After a run: metrics (vehicle parts removed), every open mission of the run's local day
/// checked, outcomes stored, XP and badges awarded, level updated; the answer lists all of it.
/// Everything is written in one transaction and the answer is stored with it, so sending the
/// same run again (same client run id) changes nothing and returns the same answer.
///
/// Mission status after a run (docs/decisions/0004-mission-labels.md, amendment): a run that
/// completes an open mission completes it; a mission the day's runs did not complete stays
/// `offered` with its best progress until the day is over, then becomes `failed` if the runner
/// ran that day and `expired` if not (closed when a later run or request arrives).
public final class RunIngestion: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    /// The stored id of a client's run: runs are keyed per user, so two users' apps may reuse ids.
    public static func storedRunID(user: UserID, clientRunID: String) -> String { "\(user):\(clientRunID)" }

    /// Ingests one run; returns the answer document (the same one on every repeat).
    public func ingest(user userID: UserID, clientRunID: String, track: Track, now: EpochSeconds) throws -> JSONValue {
        let runID = Self.storedRunID(user: userID, clientRunID: clientRunID)
        if let stored = try store.ingestAnswer(runID: runID) { return try JSONParser.parse(stored) }
        guard let user = try store.user(id: userID) else { throw IngestError.unknownUser(userID) }
        let metrics = RunMetrics(track: track, weightKg: user.weightKg)
        guard metrics.profile.times.count >= 2, metrics.elapsed > 0 else {
            throw IngestError.emptyTrack(runID: clientRunID, points: metrics.profile.times.count)
        }
        let run = RunRecord(id: runID, userID: userID, startTime: metrics.startTime, distance: metrics.distance,
                            elapsed: metrics.elapsed, moving: metrics.moving, elevationGain: metrics.elevationGain,
                            calories: metrics.calories, source: "app", track: CompactTrackCodec.encode(track))
        return try store.transaction {
            // A concurrent request may have ingested the same run since the first check.
            if let stored = try store.ingestAnswer(runID: runID) { return try JSONParser.parse(stored) }
            guard try store.insertRun(run) else { throw IngestError.runOwnedByAnotherUser(runID: clientRunID) }
            let day = user.localDay(at: run.startTime, resolver: resolver)
            try closeDays(before: day, user: user)
            let missions = try checkMissions(of: user, day: day, run: run,
                                             missionRun: MissionRun(track: track, metrics: metrics))
            let runXP = Levels.runXP(distance: run.distance)
            try store.insertReward(RewardEntry(id: "\(runID):run", userID: userID, time: run.startTime, xp: runXP,
                                               reason: RewardReason.run, refID: runID))
            let badges = try awardBadges(to: user, run: run)
            let total = try store.rewards(user: userID).reduce(0) { $0 + $1.xp }
            let answer = IngestAnswer(run: run, metrics: metrics, day: day, missions: missions, runXP: runXP,
                                      badges: badges, level: LevelStatus(xp: total), clientRunID: clientRunID)
            let json = answer.json
            try store.recordIngestAnswer(runID: runID, answerJSON: JSONWriter.string(json))
            return json
        }
    }

    /// Offers of days before `day` that are still open are decided: failed when the runner ran
    /// that day, expired otherwise.
    func closeDays(before day: CivilDate, user: UserProfile) throws {
        let open = try store.assignments(user: user.id, from: day.adding(days: -60), to: day.adding(days: -1))
            .filter { $0.status == .offered }
        guard !open.isEmpty else { return }
        let from = open.map(\.day).min()!.startInstant(utcOffset: user.utcOffsetSeconds) - 86_400
        let runDays = Set(try store.runs(user: user.id, from: from, to: day.startInstant(utcOffset: user.utcOffsetSeconds) + 86_400)
            .map { user.localDay(at: $0.startTime, resolver: resolver) })
        for a in open {
            try store.updateAssignment(id: a.id, status: runDays.contains(a.day) ? .failed : .expired,
                                       runID: a.runID, progress: a.progress)
        }
    }

    struct CheckedMission {
        let assignment: MissionAssignment
        let spec: MissionSpec?
        let evaluation: MissionEvaluation?
        let completedNow: Bool
    }

    /// Checks every offered mission of the run's local day against the run.
    /// Kinds that read the runner's earlier runs (long run, streak, weekly volume) get the runs of
    /// the year before this one, with the runner's UTC offset for calendar days.
    func checkMissions(of user: UserProfile, day: CivilDate, run: RunRecord, missionRun: MissionRun) throws -> [CheckedMission] {
        var out: [CheckedMission] = []
        var context: MissionContext?
        for a in try store.assignments(user: user.id, day: day) where a.status == .offered {
            guard let spec = try? MissionSpec(json: try JSONParser.parse(a.specJSON)) else {
                out.append(CheckedMission(assignment: a, spec: nil, evaluation: nil, completedNow: false)); continue
            }
            if context == nil { context = try missionContext(of: user, before: run) }
            let evaluation = MissionEvaluator.evaluate(spec, run: missionRun, context: context!)
            let completed = evaluation.status == .completed
            let progress = max(a.progress ?? 0, evaluation.progress)
            try store.updateAssignment(id: a.id, status: completed ? .completed : .offered,
                                       runID: completed ? run.id : a.runID, progress: progress)
            if completed {
                try store.insertReward(RewardEntry(id: "\(a.id):mission", userID: user.id, time: run.startTime,
                                                   xp: a.xp, reason: RewardReason.mission, refID: a.id))
            }
            var updated = a
            updated.status = completed ? .completed : .offered
            updated.progress = progress
            out.append(CheckedMission(assignment: updated, spec: spec, evaluation: evaluation, completedNow: completed))
        }
        return out
    }

    /// The runner's runs of the 365 days before `run`, each with the runner's offset at its start.
    func missionContext(of user: UserProfile, before run: RunRecord) throws -> MissionContext {
        // `runs(from:to:)` is [from, to): the run itself and any run starting with it are left out.
        let prior = try store.runs(user: user.id, from: run.startTime - 365 * 86_400, to: run.startTime)
            .map { PriorRun(start: $0.startTime, utcOffset: user.utcOffset(at: $0.startTime, resolver: resolver), distance: $0.distance) }
        return MissionContext(priorRuns: prior, utcOffset: user.utcOffset(at: run.startTime, resolver: resolver))
    }

    /// Evaluates the badge catalog on the runner's whole history and stores new badges.
    func awardBadges(to user: UserProfile, run: RunRecord) throws -> [Badge] {
        try BadgeAwarding(store: store, resolver: resolver).award(to: user, at: run.startTime, runID: run.id)
    }
}
