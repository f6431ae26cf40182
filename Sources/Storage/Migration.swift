/// One step of the schema: the SQL that takes a database from `version - 1` to `version`.
/// Versions start at 1 and have no gaps; the applied version is kept in SQLite's `user_version`
/// pragma (0 in a new file). See docs/decisions/0402-schema-v1.md.
public struct Migration: Sendable, Equatable {
    /// 1, 2, 3, …
    public let version: Int
    /// Constant DDL (several statements separated by `;`), never built from values.
    public let sql: String

    public init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
    }
}

extension SQLiteConnection {
    /// Brings the database up to the last of `migrations`, applying every missing step in one
    /// transaction (all or nothing). Returns the versions before and after.
    ///
    /// Throws `StorageError.schemaTooNew` when the file is at a version above the last one
    /// given: it was written by newer code, and reading it could misinterpret columns.
    @discardableResult
    public func migrate(_ migrations: [Migration]) throws -> (from: Int, to: Int) {
        for (offset, migration) in migrations.enumerated() {
            precondition(migration.version == offset + 1,
                         "migration \(offset + 1) has version \(migration.version); versions must be 1, 2, 3, …")
        }
        let latest = migrations.count
        let found = try userVersion()
        if found > latest { throw StorageError.schemaTooNew(path: path, found: found, supported: latest) }
        if found == latest { return (found, found) }
        return try transaction {
            // Read again under the write lock: another process may have migrated meanwhile.
            let current = try userVersion()
            if current > latest { throw StorageError.schemaTooNew(path: path, found: current, supported: latest) }
            for migration in migrations where migration.version > current {
                do {
                    try execute(migration.sql)
                } catch let StorageError.sqlite(_, sql, code, message) {
                    throw StorageError.sqlite(operation: "migration to version \(migration.version) of \(path)",
                                              sql: sql, code: code, message: message)
                }
            }
            try setUserVersion(latest)
            return (current, latest)
        }
    }
}
