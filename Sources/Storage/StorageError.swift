import CSQLite
import RunusCore

/// Everything that can go wrong at the storage boundary. Messages name the operation, the SQL
/// (when there is one), the database's result code and its message.
public enum StorageError: Error, Equatable, CustomStringConvertible {
    /// SQLite refused an operation. `code` is the extended result code (e.g. 2067 =
    /// SQLITE_CONSTRAINT_UNIQUE); `sql` is the statement text when one was involved.
    case sqlite(operation: String, sql: String?, code: Int32, message: String)
    /// The database file was written by newer code: its schema version is above what this build
    /// knows how to read.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// A stored value could not be turned back into a record field.
    case invalidValue(table: String, column: String, value: String, expected: String)
    /// An update named a row that does not exist.
    case notFound(table: String, id: String)
    /// The connection was closed before this operation.
    case closed(operation: String)
    /// PostgreSQL refused an operation. `state` is the SQLSTATE (e.g. 23505 = unique_violation);
    /// `sql` is the statement text when one was involved.
    case postgres(operation: String, sql: String?, state: String, message: String)
    /// The database server cannot serve now: refused or lost the connection, did not answer
    /// within the timeout, or kept refusing a transaction as not serialisable. `database` names
    /// it without credentials (`StoreLocation.description`); `reason` is one sentence without
    /// addresses, for clients. The daemon answers `unavailable` (record 0406).
    case unavailable(database: String, operation: String, reason: String, detail: String)
    /// Another daemon serves this file (`ServeLock`); `holder` is what it wrote in the lock file.
    case alreadyServed(path: String, holder: String)
    /// The serve lock file could not be opened or locked (errno).
    case lockFailed(path: String, errno: Int32)

    /// SQLite's primary result code (the low byte of the extended code), or nil for errors that
    /// did not come from SQLite.
    public var sqliteCode: Int32? {
        if case let .sqlite(_, _, code, _) = self { return code & 0xFF }
        return nil
    }

    /// PostgreSQL's SQLSTATE, or nil for errors that did not come from a PostgreSQL server.
    public var postgresState: String? {
        if case let .postgres(_, _, state, _) = self { return state }
        return nil
    }

    /// True for a refused write that broke a constraint (unique, primary or foreign key, not
    /// null, check), on either database: SQLITE_CONSTRAINT, or SQLSTATE class 23.
    public var isConstraintViolation: Bool {
        sqliteCode == SQLITE_CONSTRAINT || postgresState?.hasPrefix("23") == true
    }

    public var description: String {
        switch self {
        case let .sqlite(operation, sql, code, message):
            let name = String(cString: sqlite3_errstr(code))
            let statement = sql.map { "; SQL: \($0)" } ?? ""
            return "storage: \(operation) failed with SQLite code \(code) (\(name)): \(message)\(statement)"
        case let .schemaTooNew(path, found, supported):
            return "storage: database \(path) has schema version \(found), but this build supports "
                + "versions up to \(supported); upgrade runus to open it"
        case let .invalidValue(table, column, value, expected):
            return "storage: \(table).\(column) holds \"\(value)\", expected \(expected)"
        case let .notFound(table, id):
            return "storage: no row in \(table) with id \"\(id)\""
        case let .closed(operation):
            return "storage: \(operation) called after the connection was closed"
        case let .postgres(operation, sql, state, message):
            let statement = sql.map { "; SQL: \($0)" } ?? ""
            return "storage: \(operation) failed with SQLSTATE \(state): \(message)\(statement)"
        case let .unavailable(database, operation, reason, detail):
            return "storage: \(database) is unavailable: \(operation): \(reason)\(detail.isEmpty ? "" : " (\(detail))")"
        case let .alreadyServed(path, holder):
            return "storage: \(path) is already served by another runus serve (\(holder)); one daemon per SQLite file: "
                + "stop it first, or use PostgreSQL for several replicas"
        case let .lockFailed(path, errno):
            return "storage: cannot lock \(path) (errno \(errno))"
        }
    }
}

extension StorageError: StoreFailure {
    /// The client's sentence for `.unavailable`; nil for every other case.
    public var unavailableReason: String? {
        if case let .unavailable(_, _, reason, _) = self { return "the database is unavailable: \(reason)" }
        return nil
    }
}
