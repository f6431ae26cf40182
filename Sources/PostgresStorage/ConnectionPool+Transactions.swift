import Storage

/// Transactions on PostgreSQL (record 0406).
///
/// - The outermost runs `BEGIN ISOLATION LEVEL SERIALIZABLE` … `COMMIT` on one connection bound
///   to the calling thread: the body sees the database as if transactions ran one at a time,
///   which is what the engine's check-then-write bodies (an ingest answer not yet stored,
///   today's missions not yet chosen) assume, on one server or many replicas.
/// - When the server refuses it as not serialisable (40001) or as a deadlock victim (40P01), or
///   the connection is lost before COMMIT was sent, the whole body runs again on a fresh
///   transaction, up to `transactionAttempts` times in all (`TransactionalStore` says a body
///   only writes through the store, so running it again is safe). A connection lost after
///   COMMIT was sent leaves the outcome unknown: that is reported, never retried.
/// - A nested call is a savepoint: if its body throws, only its writes are undone.
/// - A statement that fails aborts a PostgreSQL transaction (later commands are refused until a
///   rollback), where SQLite keeps it usable: a body that catches a store error and carries on
///   has its transaction rolled back and that error thrown at the end, never a commit of less
///   than the body believes it wrote.
extension ConnectionPool {
    func transaction<T>(isolation: Isolation = .serializable, _ body: () throws -> T) throws -> T {
        if let connection = boundConnection { return try savepoint(on: connection, body) }
        var attempt = 1
        while true {
            let connection = try checkOut()
            bind(connection)
            do {
                let result = try outermost(on: connection, isolation: isolation, body)
                unbind()
                checkIn(connection)
                return result
            } catch {
                let cause = connection.retryCause
                let retry = cause != nil || (connection.lostServer && !connection.commitSent)
                let depth = connection.depth
                connection.resetTransactionState()
                if !connection.isBroken, depth > 0 { _ = try? connection.execute("ROLLBACK") }
                unbind()
                checkIn(connection)
                guard retry else { throw error }
                guard attempt < configuration.transactionAttempts else {
                    let why = cause != nil ? "refused as not serialisable" : "cut off by a lost connection"
                    throw StorageError.unavailable(database: database, operation: "transaction",
                                                   reason: "\(attempt) attempts were \(why)", detail: "\(cause ?? error)")
                }
                attempt += 1
                // Growing, and random within it ("full jitter"): transactions that conflicted
                // together must not all run again at the same instant and conflict again
                // (8 concurrent ingests of different runners did, under a fixed schedule).
                SocketWait.sleep(seconds: Self.retryDelay(attempt: attempt))
            }
        }
    }

    /// A READ COMMITTED transaction that never runs twice: every statement sees what committed
    /// before it, and row locks (not serialisability) order the writers. For bodies that change
    /// the caller's memory as they go (the race log's locked appends, record 0541), which a
    /// retry would apply twice; any failure is thrown as it is, after a rollback. Inside another
    /// transaction it is a savepoint of that one.
    func readCommittedTransaction<T>(_ body: () throws -> T) throws -> T {
        if let connection = boundConnection { return try savepoint(on: connection, body) }
        let connection = try checkOut()
        bind(connection)
        defer {
            unbind()
            checkIn(connection)
        }
        do {
            return try outermost(on: connection, isolation: .readCommitted, body)
        } catch {
            let depth = connection.depth
            connection.resetTransactionState()
            if !connection.isBroken, depth > 0 { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The wait before attempt `attempt` (≥ 2) of a transaction, seconds: uniform in
    /// [0, min(0.1, 0.002 × 2^(attempt − 2))].
    static func retryDelay(attempt: Int) -> Double {
        let ceiling = min(0.1, 0.002 * Double(1 << min(max(attempt - 2, 0), 16)))
        return Double.random(in: 0...ceiling)
    }

    /// How an outermost transaction is isolated.
    enum Isolation: String {
        /// The engine's default: as if transactions ran one at a time.
        case serializable = "BEGIN ISOLATION LEVEL SERIALIZABLE"
        /// Each statement sees what committed before it; the body orders itself with locks
        /// (a runner's advisory lock, a race's row lock, record 0542).
        case readCommitted = "BEGIN ISOLATION LEVEL READ COMMITTED"
    }

    private func outermost<T>(on connection: PGConnection, isolation: Isolation, _ body: () throws -> T) throws -> T {
        try connection.execute(isolation.rawValue)
        connection.depth = 1
        let result = try body()
        if let cause = connection.retryCause { throw cause }
        if let abort = connection.abort { throw abort.error }
        connection.commitSent = true
        let tag = try connection.execute("COMMIT")
        // An aborted transaction's COMMIT answers ROLLBACK without an error; `abort` catches
        // every such case first, and this guards the rest.
        guard tag == "COMMIT" else {
            throw StorageError.postgres(operation: "COMMIT", sql: "COMMIT", state: "25P02",
                                        message: "the server rolled the transaction back (answered \(tag))")
        }
        connection.resetTransactionState()
        return result
    }

    private func savepoint<T>(on connection: PGConnection, _ body: () throws -> T) throws -> T {
        try connection.execute("SAVEPOINT nested")
        connection.depth += 1
        let level = connection.depth
        do {
            let result = try body()
            if let abort = connection.abort, abort.depth >= level { throw abort.error }
            try connection.execute("RELEASE SAVEPOINT nested")
            connection.depth = level - 1
            return result
        } catch {
            if !connection.isBroken,
               (try? connection.execute("ROLLBACK TO SAVEPOINT nested")) != nil,
               (try? connection.execute("RELEASE SAVEPOINT nested")) != nil,
               let abort = connection.abort, abort.depth >= level {
                connection.abort = nil  // rolled back to before the failed statement
            }
            connection.depth = level - 1
            throw error
        }
    }
}
