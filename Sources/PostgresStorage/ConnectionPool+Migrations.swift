import Storage

extension ConnectionPool {
    /// `pg_advisory_xact_lock`'s key for migrations: the bytes of "runus" as a number. One key
    /// per database (every schema of it shares it: migrations of different schemas only wait
    /// for each other).
    static let migrationLockKey: Int64 = 0x72_75_6E_75_73

    /// Longest wait for another replica's migration (seconds): a migration may rewrite tables.
    static let migrationTimeout = 600.0

    /// Brings the database up to the last of `migrations`, every missing step in one
    /// transaction (DDL is transactional in PostgreSQL: all or nothing). Replicas that start
    /// together are safe: each takes a transaction-scoped advisory lock first, so one migrates
    /// while the others wait, then read the version it left (READ COMMITTED, so the read after
    /// the lock sees the other's commit; a serialisable snapshot would predate it).
    ///
    /// Throws `StorageError.schemaTooNew` for a database a newer build migrated.
    func migrate(_ migrations: [Migration]) throws -> (from: Int, to: Int) {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw StorageError.invalidValue(table: "runus_schema", column: "version", value: "\(migration.version)",
                                            expected: "migration \(offset + 1): versions 1, 2, 3, …")
        }
        let latest = migrations.count
        return try withConnection(idempotent: false) { connection in
            let timeout = connection.requestTimeout
            connection.requestTimeout = Self.migrationTimeout
            defer { connection.requestTimeout = timeout }
            try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            do {
                connection.depth = 1
                try connection.run(PGQuery("SELECT set_config('statement_timeout', $1, true)", [.text]),
                                   [.text(milliseconds(Self.migrationTimeout))], prepare: false)
                try connection.run(PGQuery("SELECT pg_advisory_xact_lock($1)", [.int8]), [.int64(Self.migrationLockKey)],
                                   prepare: false)
                try connection.execute(PostgresSchema.versionTable)
                let rows = try connection.run(PGQuery("SELECT coalesce(max(version), 0) FROM runus_schema"), [], prepare: false)
                let found = try rows.int(0, 0)
                if found > latest { throw StorageError.schemaTooNew(path: database, found: found, supported: latest) }
                for migration in migrations where migration.version > found {
                    do {
                        try connection.execute(migration.sql)
                    } catch let StorageError.postgres(_, sql, state, message) {
                        throw StorageError.postgres(operation: "migration to version \(migration.version) of \(database)",
                                                    sql: sql, state: state, message: message)
                    }
                    try connection.run(PGQuery("""
                        INSERT INTO runus_schema (version, applied_at) VALUES ($1, extract(epoch FROM clock_timestamp()))
                        """, [.int8]), [.int64(Int64(migration.version))], prepare: false)
                }
                connection.depth = 0
                try connection.execute("COMMIT")
                connection.resetTransactionState()
                return (found, latest)
            } catch {
                connection.resetTransactionState()
                if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }
}
