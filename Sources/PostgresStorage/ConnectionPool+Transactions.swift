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
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if let connection = boundConnection { return try savepoint(on: connection, body) }
        var attempt = 1
        while true {
            let connection = try checkOut()
            bind(connection)
            do {
                let result = try outermost(on: connection, body)
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
                // Short and growing: the transaction that won has committed by now (SSI
                // lets it), so the next attempt sees its writes.
                SocketWait.sleep(seconds: 0.001 * Double(attempt * attempt))
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
            try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            connection.depth = 1
            let result = try body()
            if let abort = connection.abort { throw abort.error }
            connection.commitSent = true
            let tag = try connection.execute("COMMIT")
            guard tag == "COMMIT" else {
                throw StorageError.postgres(operation: "COMMIT", sql: "COMMIT", state: "25P02",
                                            message: "the server rolled the transaction back (answered \(tag))")
            }
            connection.resetTransactionState()
            return result
        } catch {
            let depth = connection.depth
            connection.resetTransactionState()
            if !connection.isBroken, depth > 0 { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func outermost<T>(on connection: PGConnection, _ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
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
