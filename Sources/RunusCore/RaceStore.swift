/// Durable races (docs/decisions/0526-durable-races.md): a room is its settings plus an
/// append-only log of the commands it accepted, each committed before its answer; a daemon that
/// restarts rebuilds the room by replaying the log through the same pure state machine.

/// A race as created. Secrets are kept as SHA-256 digests (hex) only.
public struct StoredRace: Sendable, Equatable {
    public let id: String
    public let name: String
    /// Race distance, metres.
    public let distance: Meters
    /// Start instant, Unix seconds.
    public let startTime: EpochSeconds
    public let capacity: Int
    public let isPublic: Bool
    public let createdBy: UserID
    /// SHA-256 hex of the invite of a private race; nil for a public one.
    public let inviteDigest: String?
    /// When it was created, Unix seconds (server clock).
    public let createdAt: EpochSeconds
    /// When the host called it off, Unix seconds; nil while it stands.
    public var cancelledAt: EpochSeconds?

    public init(id: String, name: String, distance: Meters, startTime: EpochSeconds, capacity: Int, isPublic: Bool,
                createdBy: UserID, inviteDigest: String?, createdAt: EpochSeconds, cancelledAt: EpochSeconds? = nil) {
        self.id = id; self.name = name; self.distance = distance; self.startTime = startTime; self.capacity = capacity
        self.isPublic = isPublic; self.createdBy = createdBy; self.inviteDigest = inviteDigest
        self.createdAt = createdAt; self.cancelledAt = cancelledAt
    }
}

/// One command a room accepted, in the order it applied them.
public struct RaceLogEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case join, leave, position }
    public let raceID: String
    /// 1, 2, 3 … within the race: the order of application.
    public let seq: Int
    public let kind: Kind
    public let userID: UserID
    /// SHA-256 hex of the runner's participant token.
    public let tokenDigest: String
    /// The server's clock when the room applied it, Unix seconds.
    public let time: EpochSeconds
    /// The points of a `position`, in the compact track form (record 0105); nil otherwise.
    public let points: [UInt8]?

    public init(raceID: String, seq: Int, kind: Kind, userID: UserID, tokenDigest: String, time: EpochSeconds, points: [UInt8]?) {
        self.raceID = raceID; self.seq = seq; self.kind = kind; self.userID = userID
        self.tokenDigest = tokenDigest; self.time = time; self.points = points
    }
}

/// One runner's line in a finished race's results, with what it earned.
public struct StoredRaceResult: Sendable, Equatable {
    public let raceID: String
    public let rank: Int
    public let userID: UserID
    /// A `RankingEntry.Status` raw value.
    public let status: String
    /// Metres.
    public let distance: Meters
    /// Seconds from the start, finishers only.
    public let finishTime: Seconds?
    /// Elapsed pace, s/km.
    public let pace: SecondsPerKm?
    /// Metres behind the leader.
    public let gap: Meters
    /// Seconds behind the winner, finishers only.
    public let timeGap: Seconds?
    /// XP awarded for the race (finish, per km, podium).
    public let xp: Int
    /// Badge ids awarded when the race ended.
    public let badges: [String]
    /// When the race ended, Unix seconds.
    public let finishedAt: EpochSeconds

    public init(raceID: String, rank: Int, userID: UserID, status: String, distance: Meters, finishTime: Seconds?,
                pace: SecondsPerKm?, gap: Meters, timeGap: Seconds?, xp: Int, badges: [String], finishedAt: EpochSeconds) {
        self.raceID = raceID; self.rank = rank; self.userID = userID; self.status = status; self.distance = distance
        self.finishTime = finishTime; self.pace = pace; self.gap = gap; self.timeGap = timeGap; self.xp = xp
        self.badges = badges; self.finishedAt = finishedAt
    }
}

/// What a daemon does not know yet of a race that other daemons on the same database changed
/// (docs/decisions/0541-replicas.md): the entries after the last one it applied, and whether
/// the host called the race off.
public struct RaceLogTail: Sendable, Equatable {
    public let cancelled: Bool
    /// Entries after the given seq, in `seq` order.
    public let entries: [RaceLogEntry]

    public init(cancelled: Bool, entries: [RaceLogEntry]) { self.cancelled = cancelled; self.entries = entries }
}

public protocol RaceStore: Sendable {
    /// Whether other daemons may write the same races at the same time (PostgreSQL replicas):
    /// a daemon then catches its rooms up from the log before it uses them. False for a store
    /// only one daemon may serve (SQLite: `ServeLock`).
    var racesAreShared: Bool { get }
    /// The race with this id, cancelled or not; nil when there is none.
    func race(id: String) throws -> StoredRace?
    /// The entries of race `race` after `seq` and whether it was cancelled; nil for no such race.
    func raceTail(race: String, after seq: Int) throws -> RaceLogTail?
    /// Appends the next command of race `race` while holding the race's lock, which every
    /// daemon on the database takes for its commands, in one transaction: `build` receives the
    /// tail after `seq` (commands other daemons appended since, to apply first) and returns the
    /// entry to append (numbered after the tail's last), or nil to append nothing; other writes
    /// it makes through this store join the transaction. Throws what `build` throws (nothing is
    /// written then). Returns whether an entry was appended.
    @discardableResult
    func appendRaceEntry(race: String, after seq: Int, _ build: (RaceLogTail) throws -> RaceLogEntry?) throws -> Bool
    /// Appends a command at the end of its race's log, whatever other daemons appended since
    /// `after` (the seq the caller's room has applied), under the same lock as
    /// `appendRaceEntry(race:after:_:)`, in one round trip on PostgreSQL (record 0543). The
    /// entry's own `seq` is ignored: it gets the next one. Returns the entries after `after`,
    /// the appended one last with its seq; nil (nothing written) when the race is unknown or
    /// called off. For commands whose effect the log's replay decides alone (positions).
    func appendRaceEntryAtEnd(_ entry: RaceLogEntry, after: Int) throws -> [RaceLogEntry]?
    /// `raceTail` of several races at once (one round trip on PostgreSQL): what a daemon reads
    /// when another announces commands in many races (record 0543). Races that do not exist
    /// are absent from the answer.
    func raceTails(_ known: [(race: String, after: Int)]) throws -> [String: RaceLogTail]
    /// Stores a new race; throws when the id exists (ids are never reused).
    func insertRace(_ race: StoredRace) throws
    /// Runs `body` so that no other daemon on the database runs a `creatingRace` body
    /// alongside: what a daemon counts of the open races there and the race it inserts after
    /// are then one step, so replicas creating at once cannot pass a cap together. On a shared
    /// store it is one transaction (nothing `body` wrote is kept when it throws); the daemon
    /// orders its own calls. Throws what `body` throws.
    func creatingRace<T>(_ body: () throws -> T) throws -> T
    /// Marks a race called off at `time`.
    func cancelRace(id: String, at time: EpochSeconds) throws
    /// Races not cancelled whose start time is at or after `from`, ordered by start time then id:
    /// what a starting daemon resumes.
    func activeRaces(startingFrom from: EpochSeconds) throws -> [StoredRace]
    /// Appends one accepted command; throws when `(raceID, seq)` exists.
    func appendRaceEntry(_ entry: RaceLogEntry) throws
    /// A race's log in `seq` order.
    func raceEntries(race: String) throws -> [RaceLogEntry]
    /// Stores a finished race's results (all rows in one call); throws when they exist.
    func insertRaceResults(_ results: [StoredRaceResult]) throws
    /// A finished race's results by rank (empty when not finished or unknown).
    func raceResults(race: String) throws -> [StoredRaceResult]
    /// Races a runner took part in (joined at least once), with their results row when finished:
    /// what `users.export` and history read.
    func races(user: UserID) throws -> [StoredRace]
}

extension RaceStore {
    /// One `raceTail` after another.
    public func raceTails(_ known: [(race: String, after: Int)]) throws -> [String: RaceLogTail] {
        var tails: [String: RaceLogTail] = [:]
        for (race, after) in known { tails[race] = try raceTail(race: race, after: after) }
        return tails
    }

    /// Through `appendRaceEntry(race:after:_:)` (reads and the append in one transaction).
    public func appendRaceEntryAtEnd(_ entry: RaceLogEntry, after: Int) throws -> [RaceLogEntry]? {
        guard try race(id: entry.raceID) != nil else { return nil }
        var appended: [RaceLogEntry]?
        try appendRaceEntry(race: entry.raceID, after: after) { tail in
            guard !tail.cancelled else { return nil }
            let last = RaceLogEntry(raceID: entry.raceID, seq: (tail.entries.last?.seq ?? after) + 1, kind: entry.kind,
                                    userID: entry.userID, tokenDigest: entry.tokenDigest, time: entry.time, points: entry.points)
            appended = tail.entries + [last]
            return last
        }
        return appended
    }
}
