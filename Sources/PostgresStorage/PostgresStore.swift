#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Storage

/// The engine's store on a PostgreSQL server: every store protocol (Sources/RunusCore/Stores.swift)
/// and `DatabaseStore`, with SQLiteStore's semantics: the same keys and constraints, the same
/// orderings, `RunRecord.checkedForReading` on reads, writes durable when they return
/// (docs/decisions/0406-postgresql-store.md).
///
/// Safe to share between threads: a small pool of connections (`PostgresConfiguration.poolSize`)
/// lets concurrent requests run side by side; a transaction keeps one connection for its
/// thread. When the server is down or does not answer, calls throw `StorageError.unavailable`
/// within the configured timeouts, and the pool reconnects with backoff when it returns.
public final class PostgresStore: Sendable {
    let pool: ConnectionPool
    /// Receives one JSON line per stored row that had to be repaired or left out when read.
    let log: @Sendable (String) -> Void

    /// Connects to `uri` (libpq's URI syntax) and migrates the database to
    /// `PostgresSchema.currentVersion` under an advisory lock. Throws
    /// `StorageError.unavailable` naming the server and database (never the password) when it
    /// cannot connect, `StorageError.schemaTooNew` for a database a newer build migrated.
    public convenience init(uri: String, configuration: PostgresConfiguration = .daemon,
                            log: @escaping @Sendable (String) -> Void = SQLiteStore.logToStandardError) throws {
        try self.init(uri: uri, configuration: configuration, migrations: PostgresSchema.migrations, log: log)
    }

    /// Opens with an explicit migration list (tests build older or newer schemas with it).
    init(uri: String, configuration: PostgresConfiguration, migrations: [Migration],
         log: @escaping @Sendable (String) -> Void) throws {
        let info = try PostgresConnectionInfo(uri: uri, connectTimeout: configuration.connectTimeout)
        pool = ConnectionPool(info: info, configuration: configuration)
        self.log = log
        do {
            _ = try pool.migrate(migrations)
        } catch {
            pool.close()
            throw error
        }
    }

    /// The schema version this build reads and writes.
    public static var currentSchemaVersion: Int { PostgresSchema.currentVersion }

    /// The server and database, without credentials.
    public var location: String { pool.database }

    /// Connections the pool holds now (idle or in use), for tests and the benchmark.
    public var openConnections: Int { pool.openConnections }

    /// True when called from inside a `transaction` body on this thread.
    public var isInTransaction: Bool { pool.boundConnection != nil }

    /// Runs `body` in one serialisable transaction (see `ConnectionPool.transaction`): all of its
    /// writes commit together or none do; a body the server refuses as not serialisable runs
    /// again.
    /// Runs `body` in one transaction ordered by runner (record 0542): READ COMMITTED, after
    /// taking an advisory lock per runner (sorted, so two such transactions never deadlock), held
    /// to the commit. Different runners' transactions run side by side; one runner's run one
    /// after the other, each seeing what the previous committed, which is what the engine's
    /// check-then-write bodies need; the ledger's unique constraints stay the last word. Run
    /// again, like `transaction`, when the connection is lost before COMMIT or on a deadlock.
    public func transaction<T>(runners: [UserID], _ body: () throws -> T) throws -> T {
        try pool.transaction(isolation: .readCommitted) {
            for runner in Set(runners).sorted() { _ = try rows(PostgresSQL.lockRunner, [.text(runner)]) }
            return try body()
        }
    }

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try pool.transaction(body)
    }

    /// Every write has been committed when it returned (`synchronous_commit` is the server's
    /// to keep on); closing releases the connections. Harmless twice.
    public func close() throws { pool.close() }

    // MARK: Statements

    /// A read: retried once on a new connection when a reused one had lost its server.
    func rows(_ query: PGQuery, _ values: [PGValue] = []) throws -> PGRows {
        try pool.withConnection(idempotent: true) { try $0.run(query, values) }
    }

    /// A write; returns the rows it changed. Never retried by the store outside a transaction
    /// (a lost answer may hide a commit).
    @discardableResult
    func write(_ query: PGQuery, _ values: [PGValue]) throws -> Int {
        try pool.withConnection(idempotent: false) { try $0.run(query, values).changes }
    }

    func count(_ query: PGQuery) throws -> Int {
        let rows = try rows(query)
        return rows.count == 0 ? 0 : try rows.int(0, 0)
    }

    /// The run as `RunRecord.checkedForReading` lets the engine see it (logged when repaired
    /// or left out).
    func checked(_ run: RunRecord) -> RunRecord? { StoredRunCheck.checked(run, log: log) }
}

extension PostgresStore: TransactionalStore {}
