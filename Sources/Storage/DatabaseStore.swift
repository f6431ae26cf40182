import RunusCore

/// A whole database as the command line opens one (`--db`): the engine's store and the
/// training reads, plus what commands do with the database as a whole. `SQLiteStore` and
/// `PostgresStore` implement it; `StoreLocation` says which one a `--db` argument opens.
public protocol DatabaseStore: EngineStore, RunHistoryStore {
    /// The file path, or the server and database without credentials, for messages.
    var location: String { get }

    func userCount() throws -> Int
    func runCount() throws -> Int
    func assignmentCount() throws -> Int
    func rewardCount() throws -> Int
    /// Counts and sums over every table, computed by the database (`runus db copy` checks a
    /// copy with them).
    func totals() throws -> StoreTotals

    /// A runner's runs exactly as stored, with their tracks, ordered by start time then id:
    /// unlike `RunStore` reads, nothing is repaired or left out (a copy keeps every row).
    func storedRuns(user: UserID) throws -> [RunRecord]
    /// A runner's assignments in insertion order.
    func storedAssignments(user: UserID) throws -> [MissionAssignment]
    /// A runner's stored ingest answers ordered by run id (bytes).
    func ingestAnswers(user: UserID) throws -> [StoredIngestAnswer]
    /// Every race, cancelled ones too, ordered by start time then id.
    func allRaces() throws -> [StoredRace]

    /// Deletes every record of every runner, in one transaction (`simulate --force` on a server
    /// database, where there is no file to replace).
    func removeAllRecords() throws
    /// Makes the database durable and releases it; any use afterwards throws
    /// `StorageError.closed`. Calling it twice is harmless.
    func close() throws
}

/// One row of the ingest ledger (`IngestLedger`).
public struct StoredIngestAnswer: Sendable, Equatable {
    public var runID: String
    public var answerJSON: String

    public init(runID: String, answerJSON: String) { self.runID = runID; self.answerJSON = answerJSON }
}

/// Counts and sums over a whole database: two databases holding the same records have equal
/// totals (the distance sum within `distanceRelativeTolerance`).
public struct StoreTotals: Sendable, Equatable {
    public var users = 0
    public var runs = 0
    public var runsWithTrack = 0
    /// Bytes of every stored track together.
    public var trackBytes = 0
    /// Sum of `distance_m` over every run, metres.
    public var distanceSum: Meters = 0
    public var assignments = 0
    public var completedAssignments = 0
    public var rewards = 0
    /// Sum of XP over the whole ledger.
    public var xpSum = 0
    public var badges = 0
    public var ingestAnswers = 0
    public var races = 0
    /// Accepted race commands (joins, leaves, positions).
    public var raceEntries = 0
    public var raceResults = 0

    public init() {}

    /// Each database adds the distances in its own order, and floating-point addition is not
    /// associative: two sums of the same 10^6 distances of ≤ 10^6 m may differ by a few units
    /// in the last place each step, far below 1e-9 of the total.
    public static let distanceRelativeTolerance = 1e-9

    /// Nothing stored at all.
    public var isEmpty: Bool {
        users == 0 && runs == 0 && assignments == 0 && rewards == 0 && badges == 0 && ingestAnswers == 0
            && races == 0 && raceEntries == 0 && raceResults == 0
    }

    /// Name and value of each figure, in a fixed order, for tables.
    public var figures: [(name: String, value: String)] {
        [("users", "\(users)"), ("runs", "\(runs)"), ("runs with a track", "\(runsWithTrack)"),
         ("track bytes", "\(trackBytes)"), (Self.distanceFigure, "\(distanceSum)"),
         ("assignments", "\(assignments)"), ("completed assignments", "\(completedAssignments)"),
         ("rewards", "\(rewards)"), ("XP sum", "\(xpSum)"), ("badges", "\(badges)"),
         ("ingest answers", "\(ingestAnswers)"), ("races", "\(races)"), ("race entries", "\(raceEntries)"),
         ("race results", "\(raceResults)")]
    }

    /// The names of the figures that differ from `other`'s, in `figures` order (empty: the
    /// same records). Counts must be equal; the distance sum within the tolerance.
    public func mismatches(_ other: StoreTotals) -> [String] {
        let scale = max(abs(distanceSum), abs(other.distanceSum), 1)
        let distancesAgree = abs(distanceSum - other.distanceSum) <= Self.distanceRelativeTolerance * scale
        return zip(figures, other.figures).compactMap { mine, theirs in
            if mine.name == Self.distanceFigure { return distancesAgree ? nil : mine.name }
            return mine.value == theirs.value ? nil : mine.name
        }
    }

    static let distanceFigure = "distance sum (m)"
}
