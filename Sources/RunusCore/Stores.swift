/// The store, as the engine sees it. `Storage` implements these on SQLite and `PostgresStorage`
/// on PostgreSQL; tests may use an in-memory implementation. Every write returns only after it is
/// durable (committed).

public protocol UserStore: Sendable {
    func upsertUser(_ profile: UserProfile) throws
    func user(id: UserID) throws -> UserProfile?
    /// All users ordered by id.
    func allUsers() throws -> [UserProfile]
    /// Deletes the runner and every record of theirs (runs, missions, rewards, badges, ingest
    /// answers) in one transaction; false when there was no such runner.
    func deleteUser(id: UserID) throws -> Bool
}

/// Runs are keyed by `(userID, id)` (docs/decisions/0405-per-runner-keys.md). A stored run whose
/// numbers no run can have (not finite, negative, longer than `RunRecord.maximumStoredElapsed`)
/// is left out of every answer with a logged warning, and one that only needs clamping is
/// repaired as it is read (`RunRecord.checkedForReading`), so that a run written by older code
/// cannot break the runner's later requests.
public protocol RunStore: Sendable {
    /// Inserts a run; returns false (and changes nothing) when the runner has a run with that id.
    @discardableResult
    func insertRun(_ run: RunRecord) throws -> Bool
    /// One run of `user` with its track, or nil.
    func run(user: UserID, id: String) throws -> RunRecord?
    /// A runner's runs with `startTime` in [from, to), ordered by start time then id, without tracks.
    func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord]
    /// The digests kept for a runner's runs (record 0648), in no particular order.
    func runDigests(user: UserID) throws -> [StoredRunDigest]
    /// Keeps digests of stored runs, replacing one kept for the same (user, run). A digest whose
    /// run is not stored is not kept.
    func storeRunDigests(_ digests: [StoredRunDigest]) throws
}

/// Derived data: a store that keeps no digests computes them again at every daemon start.
extension RunStore {
    public func runDigests(user: UserID) throws -> [StoredRunDigest] { [] }
    public func storeRunDigests(_ digests: [StoredRunDigest]) throws {}
}

/// A stored run's digest (best efforts and explorer cells, record 0648) in its stored form
/// (`RunDigestCodec`), with the run's start and distance as it was computed from: a digest
/// whose run was re-stored with other totals no longer matches and is computed again.
public struct StoredRunDigest: Sendable, Equatable {
    public let userID: UserID
    public let runID: String
    public let start: EpochSeconds
    public let distance: Meters
    public let bytes: [UInt8]

    public init(userID: UserID, runID: String, start: EpochSeconds, distance: Meters, bytes: [UInt8]) {
        self.userID = userID; self.runID = runID; self.start = start; self.distance = distance; self.bytes = bytes
    }

    /// Whether this digest was computed from `run` as it is stored now.
    public func matches(_ run: RunRecord) -> Bool {
        ExactText.same(run.userID, userID) && ExactText.same(run.id, runID) && run.startTime == start && run.distance == distance
    }
}

public protocol MissionStore: Sendable {
    func insertAssignment(_ assignment: MissionAssignment) throws
    /// Updates status, run id and progress of one of `user`'s assignments.
    func updateAssignment(user: UserID, id: String, status: MissionStatus, runID: String?, progress: Double?) throws
    /// A runner's assignments for one local day, in insertion order.
    func assignments(user: UserID, day: CivilDate) throws -> [MissionAssignment]
    /// A runner's assignments with day in [from, to], ordered by day then insertion.
    func assignments(user: UserID, from: CivilDate, to: CivilDate) throws -> [MissionAssignment]
    /// Every decided assignment (completed or failed), ordered by offeredAt, id, then user: training labels.
    func decidedAssignments() throws -> [MissionAssignment]
}

/// Whole histories, for offline training and evaluation (`Training`); the daemon reads runs by
/// range instead.
public protocol RunHistoryStore: Sendable {
    /// All of a runner's runs, ordered by start time then id, without tracks.
    func allRuns(user: UserID) throws -> [RunRecord]
}

/// Everything training and evaluation read from storage (they write nothing).
public typealias TrainingStore = UserStore & RunStore & MissionStore & RunHistoryStore

public protocol RewardStore: Sendable {
    func insertReward(_ reward: RewardEntry) throws
    /// A runner's ledger ordered by time then id. Inserting a second award for the same
    /// `(userID, reason, refID)` throws: XP is awarded once.
    func rewards(user: UserID) throws -> [RewardEntry]
}

/// Everything the engine needs from storage.
public typealias EngineStore = UserStore & RunStore & MissionStore & RewardStore & BadgeStore & IngestLedger
    & RaceStore & RaceHoldStore & TransactionalStore & GenerationStore

/// What lets a daemon's caches stay true when other daemons write the same database
/// (docs/decisions/0541-replicas.md).
public protocol GenerationStore: Sendable {
    /// A number that changes at every write to `user`'s profile, runs or missions, by any
    /// daemon, and never comes back; nil when only this daemon writes the store (its own
    /// writes invalidate its caches directly).
    func generation(user: UserID) throws -> Int64?
    /// `generation(user:)` of each of `users` in one read (record 0545), in their order; nil
    /// when only this daemon writes the store.
    func generations(of users: [UserID]) throws -> [Int64]?
}

extension GenerationStore {
    public func generation(user: UserID) throws -> Int64? { nil }
    public func generations(of users: [UserID]) throws -> [Int64]? { nil }
}

public protocol BadgeStore: Sendable {
    /// Records a badge; returns false (and changes nothing) when the runner already has it.
    @discardableResult
    func insertBadge(_ award: BadgeAward) throws -> Bool
    /// A runner's badges ordered by award time then badge id.
    func badges(user: UserID) throws -> [BadgeAward]
}

/// The answers given to ingested runs, so that sending a run again returns the same answer.
/// Keyed by the runner and the client's run id; a run answered as a duplicate of another has an
/// answer but no run of its own.
public protocol IngestLedger: Sendable {
    /// Stores the answer for `user`'s run `runID`.
    func recordIngestAnswer(user: UserID, runID: String, answerJSON: String) throws
    /// The answer stored for `user`'s run `runID`, or nil.
    func ingestAnswer(user: UserID, runID: String) throws -> String?
}

/// Runs a body in one transaction: everything it writes commits together or not at all, and
/// the call returns only after the commit. Transactions are serialisable: the body sees the
/// store as if no other transaction ran at the same time. A server store (PostgreSQL) keeps that
/// promise by running `body` again when the server refuses a commit as not serialisable
/// (docs/decisions/0406-postgresql-store.md), so a body writes only through the store and hands
/// everything else back in its result: changes to outside state belong after the call. A nested
/// call joins the outer transaction; if its body throws, only its own writes are undone.
public protocol TransactionalStore: Sendable {
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// A transaction whose checks and writes concern the rows of `runners` only (an ingest, a
    /// day's missions, a profile): a store may order such transactions by runner, with a lock
    /// per runner, instead of by serialisability (PostgreSQL, record 0542), so that different
    /// runners' transactions never wait for or abort each other. The same contract otherwise.
    func transaction<T>(runners: [UserID], _ body: () throws -> T) throws -> T
}

extension TransactionalStore {
    public func transaction<T>(runners: [UserID], _ body: () throws -> T) throws -> T { try transaction(body) }
}

/// An error a store throws when its database cannot serve a request now (the server is down,
/// unreachable, did not answer in time, or refused the transaction too often): the same request
/// may succeed later. The daemon answers such a request `unavailable` instead of `internal`.
public protocol StoreFailure: Error {
    /// One sentence for a client when the database is unavailable (no addresses, no
    /// credentials); nil when the error is of another kind.
    var unavailableReason: String? { get }
}
