#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// The engine's store on one SQLite file: implements every store protocol
/// (Sources/RunusCore/Stores.swift) and `DatabaseStore`. Safe to share between threads (one
/// serialised connection). Every write outside `transaction` commits before it returns.
public final class SQLiteStore: Sendable {
    /// The underlying connection, for queries this type does not offer.
    public let connection: SQLiteConnection
    /// Receives one JSON line per stored row that had to be repaired or left out when read
    /// (`RunRecord.checkedForReading`). Default: standard error.
    let log: @Sendable (String) -> Void

    /// Opens or creates the database at `path` (`:memory:` for a private in-memory database) and
    /// migrates it to `Schema.currentVersion`. Throws `StorageError.schemaTooNew` for a file
    /// written by newer code.
    public convenience init(path: String, log: @escaping @Sendable (String) -> Void = SQLiteStore.logToStandardError) throws {
        try self.init(path: path, migrations: Schema.migrations, log: log)
    }

    /// Opens with an explicit migration list (tests use it to build older or newer schemas).
    public init(path: String, migrations: [Migration],
                log: @escaping @Sendable (String) -> Void = SQLiteStore.logToStandardError) throws {
        self.log = log
        connection = try SQLiteConnection(path: path, maximumSchemaVersion: migrations.count)
        do {
            try connection.migrate(migrations)
        } catch {
            try? connection.close()
            throw error
        }
    }

    public var path: String { connection.path }

    /// Runs `body` in one transaction (see `SQLiteConnection.transaction`): batch many inserts
    /// for speed (one fsync at COMMIT instead of one per row); all of them or none are stored.
    /// It `throws` rather than `rethrows` because BEGIN and COMMIT can fail on their own
    /// (disk full, a deferred foreign-key violation).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction(body)
    }

    /// Copies the WAL into the database file and truncates it (`PRAGMA wal_checkpoint(TRUNCATE)`).
    public func checkpoint() throws { try connection.checkpoint() }

    /// Checkpoints and closes; afterwards the file alone holds everything, byte-identical for
    /// identical write sequences (docs/decisions/0401-deterministic-database-file.md).
    public func close() throws { try connection.close() }

    /// One line to standard error with a single `write` (no stdio buffering).
    public static let logToStandardError: @Sendable (String) -> Void = { text in
        var line = Array(text.utf8)
        line.append(0x0A)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    // MARK: Counts

    public func userCount() throws -> Int { try count(StoreSQL.userCount) }
    public func runCount() throws -> Int { try count(StoreSQL.runCount) }
    public func assignmentCount() throws -> Int { try count(StoreSQL.assignmentCount) }
    public func rewardCount() throws -> Int { try count(StoreSQL.rewardCount) }

    private func count(_ sql: String) throws -> Int {
        try connection.withStatement(sql) { s in try s.step() ? s.int(at: 0) : 0 }
    }
}
