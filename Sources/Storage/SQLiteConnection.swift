import CSQLite

/// One SQLite database handle, safe to share between threads.
///
/// Every use of the handle goes through one recursive lock (SQLite itself is opened in
/// multi-thread mode, `SQLITE_OPEN_NOMUTEX`, which is safe exactly because of that lock): a
/// statement is bound, stepped and reset without interleaving, the error message read after a
/// failure is the one for that failure, and a transaction holds the lock
/// from BEGIN to COMMIT so that another thread's write waits instead of joining it. Readers
/// therefore wait while a write transaction is open (see docs/decisions/0403-one-connection.md).
///
/// All SQL given to this type must be constant text; values go through `Statement.bind`.
public final class SQLiteConnection: @unchecked Sendable {
    /// The path it was opened with (`:memory:` for a private in-memory database).
    public let path: String
    private var db: OpaquePointer?
    private let lock = RecursiveLock()
    private var cache: [String: Statement] = [:]
    /// 0 outside a transaction, 1 inside the outermost, +1 for each nested (savepoint) level.
    private var transactionDepth = 0

    /// Opens (creating if needed) the database at `path` and applies the connection pragmas:
    /// WAL journal, `synchronous=FULL`, foreign keys on, 5000 ms busy timeout.
    ///
    /// With `maximumSchemaVersion`, a file whose `user_version` is above it is refused with
    /// `StorageError.schemaTooNew` before anything is written to it (switching to WAL writes the
    /// file header).
    public init(path: String, maximumSchemaVersion: Int? = nil) throws {
        self.path = path
        var handle: OpaquePointer?
        // NOMUTEX ("multi-thread" mode): SQLite's own per-call mutex is redundant because every
        // use of the handle holds `lock`; dropping it saved ~5% of a batch insert.
        // See docs/decisions/0403-one-connection.md.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StorageError.sqlite(operation: "open \(path)", sql: nil, code: rc, message: message)
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        if let maximumSchemaVersion {
            let found = try userVersion()
            if found > maximumSchemaVersion {
                throw StorageError.schemaTooNew(path: path, found: found, supported: maximumSchemaVersion)
            }
        }
        try configure()
    }

    deinit {
        cache.removeAll()  // finalizes the statements before the handle goes
        if let db { sqlite3_close_v2(db) }
    }

    /// Busy timeout in milliseconds: how long a write waits for another process's lock before
    /// failing with SQLITE_BUSY.
    public static let busyTimeoutMilliseconds: Int32 = 5000

    private func configure() throws {
        // WAL: readers never block the writer. In-memory databases answer "memory" and stay so.
        let mode = try withStatement("PRAGMA journal_mode=WAL") { s in try s.step() ? s.string(at: 0) : "" }
        if path != ":memory:" && mode.lowercased() != "wal" {
            throw StorageError.sqlite(operation: "enable WAL on \(path)", sql: "PRAGMA journal_mode=WAL",
                                      code: SQLITE_ERROR, message: "journal mode stayed \"\(mode)\"")
        }
        // FULL, not NORMAL: in WAL mode NORMAL may lose the last commits on power loss, and the
        // design says a write is acknowledged only after it is durable.
        // See docs/decisions/0400-sqlite-synchronous-full.md.
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
        // Up to 64 MiB of page cache (negative = KiB), allocated only as used: a batch of 100k
        // assignments dirties ~25 MB of pages, and with the 2 MiB default SQLite spills and
        // re-reads them mid-transaction, which measured ~40% slower.
        // See docs/decisions/0404-batch-insert-speed.md.
        try execute("PRAGMA cache_size=-65536")
    }

    // MARK: Running SQL

    /// Runs constant SQL without parameters (DDL, pragmas, transaction control); several
    /// statements separated by `;` are allowed. Never build `sql` from values.
    public func execute(_ sql: String) throws {
        try lock.withLock {
            let db = try handle(for: "execute")
            var message: UnsafeMutablePointer<CChar>?
            let rc = sqlite3_exec(db, sql, nil, nil, &message)
            if rc != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
                sqlite3_free(message)
                throw StorageError.sqlite(operation: "execute", sql: sql,
                                          code: sqlite3_extended_errcode(db), message: text)
            }
        }
    }

    /// Runs `body` (one autocommit write) with `synchronous=NORMAL` instead of FULL, holding the
    /// lock so that no other write commits in between: in WAL mode the commit survives the
    /// process being killed, and only a power loss or OS crash before the next FULL commit or
    /// checkpoint can lose it (race positions, record 0526 amendment). Inside a transaction the
    /// setting is left alone (the outer commit decides).
    public func withRelaxedSync<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock {
            guard transactionDepth == 0 else { return try body() }
            try execute("PRAGMA synchronous=NORMAL")
            defer { try? execute("PRAGMA synchronous=FULL") }
            return try body()
        }
    }

    /// Runs `body` with the cached prepared statement for `sql` (prepared on first use), holding
    /// the connection lock; the statement is reset and its bindings cleared afterwards, so no
    /// read transaction stays open.
    public func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        try lock.withLock {
            if db == nil { throw StorageError.closed(operation: "statement \(sql)") }
            let statement: Statement
            if let cached = cache[sql], !cached.inUse {
                statement = cached
            } else {
                statement = try prepare(sql)
                if cache[sql] == nil { cache[sql] = statement }
            }
            statement.inUse = true
            defer {
                statement.reset()
                statement.inUse = false
            }
            return try body(statement)
        }
    }

    /// Runs a statement that returns no rows, binding `values` to parameters 1, 2, …; returns
    /// the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: SQLValue...) throws -> Int {
        try withStatement(sql) { s in
            for (offset, value) in values.enumerated() { try value.bind(to: s, at: Int32(offset + 1)) }
            while try s.step() {}
            return changes
        }
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE on this connection (read it while
    /// holding the lock, i.e. inside `withStatement` or `transaction`).
    public var changes: Int {
        lock.withLock { db.map { Int(sqlite3_changes64($0)) } ?? 0 }
    }

    /// The `user_version` pragma: the schema version this database is at (0 for a new file).
    public func userVersion() throws -> Int {
        try withStatement("PRAGMA user_version") { s in try s.step() ? s.int(at: 0) : 0 }
    }

    /// Sets `user_version`. Pragmas take no bound parameters, so the integer is formatted into
    /// the text; it is an `Int`, never caller-supplied text.
    func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    private func prepare(_ sql: String) throws -> Statement {
        let db = try handle(for: "prepare")
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw StorageError.sqlite(operation: "prepare", sql: sql, code: sqlite3_extended_errcode(db),
                                      message: String(cString: sqlite3_errmsg(db)))
        }
        return Statement(handle: statement, sql: sql)
    }

    private func handle(for operation: String) throws -> OpaquePointer {
        guard let db else { throw StorageError.closed(operation: operation) }
        return db
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` (takes the write lock up front, so a
    /// transaction never fails half-way with SQLITE_BUSY on upgrade), `COMMIT` when `body`
    /// returns, `ROLLBACK` when it throws (or when COMMIT fails, e.g. a deferred foreign key).
    /// Other threads wait until it ends. A nested call on the same thread joins the outer
    /// transaction through a savepoint: if the inner body throws, only its own writes are undone
    /// and the error propagates; nothing is durable until the outermost COMMIT.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock {
            _ = try handle(for: "transaction")
            if transactionDepth == 0 {
                try execute("BEGIN IMMEDIATE")
                transactionDepth = 1
                defer { transactionDepth = 0 }
                do {
                    let result = try body()
                    try execute("COMMIT")
                    return result
                } catch {
                    // Fails harmlessly when SQLite already rolled back (e.g. SQLITE_FULL).
                    try? execute("ROLLBACK")
                    throw error
                }
            } else {
                // One fixed savepoint name: SQLite resolves a repeated name to the innermost.
                try execute("SAVEPOINT nested")
                transactionDepth += 1
                defer { transactionDepth -= 1 }
                do {
                    let result = try body()
                    try execute("RELEASE nested")
                    return result
                } catch {
                    try? execute("ROLLBACK TO nested")
                    try? execute("RELEASE nested")
                    throw error
                }
            }
        }
    }

    /// True when called from inside a `transaction` body. (Another thread asking waits for the
    /// transaction to end, so it sees false.)
    public var isInTransaction: Bool { lock.withLock { transactionDepth > 0 } }

    // MARK: Checkpoint and close

    /// Copies the whole WAL into the database file and truncates the WAL to zero bytes.
    public func checkpoint() throws {
        try withStatement("PRAGMA wal_checkpoint(TRUNCATE)") { s in
            // Row: (busy, wal frames, checkpointed frames); busy = 1 means a reader held it back.
            if try s.step(), s.int(at: 0) != 0 {
                throw StorageError.sqlite(operation: "checkpoint \(path)", sql: s.sql, code: SQLITE_BUSY,
                                          message: "another connection kept the checkpoint from finishing")
            }
        }
    }

    /// Checkpoints, switches the file back to a rollback journal (which removes the `-wal` and
    /// `-shm` files and leaves one self-contained, deterministic file; see
    /// docs/decisions/0401-deterministic-database-file.md) and closes the handle. Calling it
    /// twice is harmless; any other use afterwards throws `StorageError.closed`.
    public func close() throws {
        try lock.withLock {
            guard let db else { return }
            precondition(transactionDepth == 0, "SQLiteConnection.close() called inside a transaction")
            // The handle is closed even when the checkpoint fails; the first error is reported.
            var firstError: Error?
            if path != ":memory:" {
                do {
                    try checkpoint()
                    try withStatement("PRAGMA journal_mode=DELETE") { s in _ = try s.step() }
                } catch {
                    firstError = error
                }
            }
            cache.removeAll()
            let rc = sqlite3_close_v2(db)
            self.db = nil
            if let firstError { throw firstError }
            if rc != SQLITE_OK {
                throw StorageError.sqlite(operation: "close \(path)", sql: nil, code: rc,
                                          message: String(cString: sqlite3_errstr(rc)))
            }
        }
    }
}
