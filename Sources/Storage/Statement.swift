import CSQLite

/// `SQLITE_TRANSIENT` is a C macro (`(sqlite3_destructor_type)-1`) and does not import: it tells
/// SQLite to copy the bound bytes before the bind call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement. Parameters are bound by 1-based index, columns are read by 0-based
/// index (SQLite's conventions). A statement belongs to one `SQLiteConnection` and is only used
/// inside `SQLiteConnection.withStatement`, which holds the connection's lock and resets the
/// statement afterwards; it is therefore not `Sendable`.
public final class Statement {
    let handle: OpaquePointer
    /// The SQL text it was prepared from (the statement-cache key).
    public let sql: String
    /// True while a `withStatement` body is using it (a nested use of the same SQL gets a
    /// fresh statement instead).
    var inUse = false

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding (index 1...parameterCount)

    /// Number of `?` parameters in the SQL.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value), "bind integer at \(index)")
    }

    public func bind(_ value: Int, at index: Int32) throws {
        try bind(Int64(value), at: index)
    }

    /// Binds a double. SQLite stores NaN as NULL, so a NaN read back is nil (or fails a NOT NULL
    /// constraint).
    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value), "bind real at \(index)")
    }

    /// Binds the UTF-8 bytes of `value` with their exact length (embedded NULs survive).
    public func bind(_ value: String, at index: Int32) throws {
        // `withContiguousStorageIfAvailable` reads native strings in place (small ones from a
        // stack copy); the implicit String-to-pointer conversion would heap-allocate a C string
        // for every small string, which dominated batch inserts (docs/decisions/0404).
        let rc = value.utf8.withContiguousStorageIfAvailable { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                // A nil pointer would bind NULL; an empty string must stay an empty string.
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return sqlite3_bind_text64(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                       sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
        } ?? sqlite3_bind_text64(handle, index, value, sqlite3_uint64(value.utf8.count), sqliteTransient,
                                 UInt8(SQLITE_UTF8))  // bridged (non-native) strings
        try check(rc, "bind text at \(index)")
    }

    /// Binds a blob; an empty array is stored as a zero-length blob, not NULL.
    public func bind(_ value: [UInt8], at index: Int32) throws {
        let rc = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), sqliteTransient)
        }
        try check(rc, "bind blob at \(index)")
    }

    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index), "bind null at \(index)")
    }

    public func bind(_ value: Int64?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: Int?, at index: Int32) throws {
        if let value { try bind(Int64(value), at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: Double?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: String?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: [UInt8]?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    // MARK: Stepping

    /// Advances the statement: true when a row is available, false when it is done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(rc, "step")
        }
    }

    /// Rewinds the statement and clears its bindings so it can be run again.
    public func reset() {
        // sqlite3_reset repeats the last step's error code, which `step` already reported.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns (index 0..<columnCount)

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column as an integer (NULL reads as 0).
    public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int(at column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    /// The column as a double (NULL reads as 0).
    public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column's UTF-8 text (NULL reads as "").
    public func string(at column: Int32) -> String {
        // Text first, then its byte count, as SQLite's documentation prescribes.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's bytes (NULL and zero-length blobs read as []).
    public func blob(at column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func optionalInt(at column: Int32) -> Int? { isNull(at: column) ? nil : int(at: column) }
    public func optionalDouble(at column: Int32) -> Double? { isNull(at: column) ? nil : double(at: column) }
    public func optionalString(at column: Int32) -> String? { isNull(at: column) ? nil : string(at: column) }
    public func optionalBlob(at column: Int32) -> [UInt8]? { isNull(at: column) ? nil : blob(at: column) }

    // MARK: Errors

    /// The operation text is only built on failure (an interpolated string per bind would cost
    /// more than the bind itself).
    private func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws {
        if rc != SQLITE_OK { throw error(rc, operation()) }
    }

    func error(_ rc: Int32, _ operation: String) -> StorageError {
        let db = sqlite3_db_handle(handle)
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        let code = db.map { sqlite3_extended_errcode($0) } ?? rc
        return .sqlite(operation: operation, sql: sql, code: code, message: message)
    }
}
