/// The store, as the engine sees it. `Storage` implements these on SQLite; tests may use an
/// in-memory implementation. Every write returns only after it is durable (committed).

public protocol UserStore: Sendable {
    func upsertUser(_ profile: UserProfile) throws
    func user(id: UserID) throws -> UserProfile?
    /// All users ordered by id.
    func allUsers() throws -> [UserProfile]
}

public protocol RunStore: Sendable {
    /// Inserts a run; returns false (and changes nothing) when a run with that id exists.
    @discardableResult
    func insertRun(_ run: RunRecord) throws -> Bool
    /// One run with its track, or nil.
    func run(id: String) throws -> RunRecord?
    /// A runner's runs with `startTime` in [from, to), ordered by start time, without tracks.
    func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord]
}

public protocol MissionStore: Sendable {
    func insertAssignment(_ assignment: MissionAssignment) throws
    /// Updates status, run id and progress of an assignment.
    func updateAssignment(id: String, status: MissionStatus, runID: String?, progress: Double?) throws
    /// A runner's assignments for one local day, in insertion order.
    func assignments(user: UserID, day: CivilDate) throws -> [MissionAssignment]
    /// A runner's assignments with day in [from, to], ordered by day then insertion.
    func assignments(user: UserID, from: CivilDate, to: CivilDate) throws -> [MissionAssignment]
    /// Every decided assignment (completed or failed), ordered by offeredAt then id: training labels.
    func decidedAssignments() throws -> [MissionAssignment]
}

public protocol RewardStore: Sendable {
    func insertReward(_ reward: RewardEntry) throws
    /// A runner's ledger ordered by time then id.
    func rewards(user: UserID) throws -> [RewardEntry]
}

/// Everything the engine needs from storage.
public typealias EngineStore = UserStore & RunStore & MissionStore & RewardStore & BadgeStore & IngestLedger
    & TransactionalStore

public protocol BadgeStore: Sendable {
    /// Records a badge; returns false (and changes nothing) when the runner already has it.
    @discardableResult
    func insertBadge(_ award: BadgeAward) throws -> Bool
    /// A runner's badges ordered by award time then badge id.
    func badges(user: UserID) throws -> [BadgeAward]
}

/// The answers given to ingested runs, so that sending a run again returns the same answer.
public protocol IngestLedger: Sendable {
    /// Stores the answer for a run (the run must exist).
    func recordIngestAnswer(runID: String, answerJSON: String) throws
    /// The answer stored for a run, or nil.
    func ingestAnswer(runID: String) throws -> String?
}

/// Runs a body in one transaction: everything it writes commits together or not at all, and
/// the call returns only after the commit.
public protocol TransactionalStore: Sendable {
    func transaction<T>(_ body: () throws -> T) throws -> T
}
