#if canImport(Glibc)
import Glibc
#endif
import CLibPQ
import RunusCore
import Storage

/// One libpq connection in non-blocking mode, used by one thread at a time (the pool hands it
/// out; a transaction keeps it for its whole length). Every exchange with the server has a
/// deadline: libpq's socket is waited on with `SocketWait`, so a server that stops answering
/// costs a request at most its timeout (record 0406).
///
/// Statements are prepared once per connection, by SQL text, with their declared parameter
/// types; values are bound in binary format (`PGParameters`), never written into SQL.
final class PGConnection {
    private let handle: OpaquePointer
    /// The server and database without credentials (`PostgresConnectionInfo.description`).
    let database: String
    /// Prepared statement names by SQL text: `s1`, `s2`, … in order of first use.
    private var prepared: [String: String] = [:]

    /// The connection can no longer be used (lost, or given up mid-exchange): the pool drops it.
    private(set) var isBroken = false
    /// The server went away (as opposed to a request timing out): other idle connections to it
    /// are probably dead too.
    private(set) var lostServer = false
    /// Times the pool handed it out; 1 while a fresh connection is on its first use.
    var uses = 0
    /// The client's deadline for one exchange (`PostgresConfiguration.requestTimeout`); a
    /// migration waiting for another replica's lock raises it for its length.
    var requestTimeout: Double

    // Transaction state (ConnectionPool+Transactions.swift).
    /// 0 outside a transaction, 1 inside the outermost, +1 for each savepoint.
    var depth = 0
    /// The first server error of the open transaction at the depth it happened: PostgreSQL has
    /// aborted the transaction, and only a rollback (to a savepoint above that depth) revives it.
    var abort: (error: StorageError, depth: Int)?
    /// The serialisation failure (40001) or deadlock (40P01) the server reported in this
    /// transaction, even if a savepoint rollback revived it since: it must run again from the start.
    var retryCause: StorageError?
    /// COMMIT was sent: a connection lost now leaves the outcome unknown.
    var commitSent = false

    private init(handle: OpaquePointer, database: String, requestTimeout: Double) {
        self.handle = handle
        self.database = database
        self.requestTimeout = requestTimeout
    }

    deinit { PQfinish(handle) }

    // MARK: Connecting

    /// Connects with libpq's keyword/value parameters (`PostgresConnectionInfo.parameters`)
    /// within `timeout` seconds, then sets the session's `statement_timeout` and
    /// `idle_in_transaction_session_timeout` (seconds).
    static func connect(_ info: PostgresConnectionInfo, timeout: Double, requestTimeout: Double,
                        statementTimeout: Double, idleInTransactionTimeout: Double) throws -> PGConnection {
        let deadline = SocketWait.deadline(after: timeout)
        let pairs = info.parameters
        let handle: OpaquePointer? = withCStrings(pairs.map(\.0)) { keywords in
            withCStrings(pairs.map(\.1)) { values in PQconnectStartParams(keywords, values, 0) }
        }
        guard let handle else {
            throw StorageError.unavailable(database: info.description, operation: "connect", reason: "out of memory", detail: "")
        }
        let connection = PGConnection(handle: handle, database: info.description, requestTimeout: requestTimeout)
        // The server's notices ("no transaction in progress", "drop cascades to …") would go
        // to stderr by default; nothing in them is the store's to report.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try connection.finishConnecting(deadline: deadline, timeout: timeout)
        guard PQsetnonblocking(handle, 1) == 0 else {
            throw connection.unavailable("connect", "cannot switch to non-blocking mode", detail: connection.libpqMessage)
        }
        // Server-side limits: a statement stuck behind a lock, or a transaction whose client
        // froze, is ended by the server itself.
        let settings = PGQuery("""
            SELECT set_config('statement_timeout', $1, false),
                   set_config('idle_in_transaction_session_timeout', $2, false)
            """, [.text, .text])
        _ = try connection.run(settings, [.text(milliseconds(statementTimeout)), .text(milliseconds(idleInTransactionTimeout))],
                               prepare: false)
        return connection
    }

    /// `PQconnectPoll` until connected, failed or past `deadline`.
    private func finishConnecting(deadline: Int64, timeout: Double) throws {
        if PQstatus(handle) == CONNECTION_BAD { throw unavailable("connect", "connection refused", detail: libpqMessage) }
        var state = PGRES_POLLING_WRITING
        while true {
            switch state {
            case PGRES_POLLING_OK:
                return
            case PGRES_POLLING_FAILED:
                isBroken = true
                throw unavailable("connect", "the server refused or could not be reached", detail: libpqMessage)
            default:
                switch SocketWait.wait(PQsocket(handle), reading: state == PGRES_POLLING_READING,
                                       writing: state == PGRES_POLLING_WRITING, until: deadline) {
                case .ready: break
                case .timedOut:
                    isBroken = true
                    throw unavailable("connect", "no connection within \(seconds(timeout))", detail: "")
                case .failed(let why):
                    isBroken = true
                    throw unavailable("connect", why, detail: libpqMessage)
                }
            }
            state = PQconnectPoll(handle)
        }
    }

    // MARK: Running statements

    /// Runs constant SQL without parameters (transaction control, DDL; several statements
    /// separated by `;` are allowed). Never build `sql` from values.
    /// Returns the last statement's command tag ("COMMIT", "ROLLBACK", …).
    @discardableResult
    func execute(_ sql: String) throws -> String {
        try exchange(sql, operation: sql.count <= 40 ? sql : "execute") { PQsendQuery(handle, sql) }?.tag ?? ""
    }

    /// Runs `query` with `values`: prepared on first use on this connection (`prepare`), or as
    /// an unnamed statement (a one-off such as the migration lock).
    @discardableResult
    func run(_ query: PGQuery, _ values: [PGValue], prepare: Bool = true) throws -> PGRows {
        let parameters: PGParameters
        do {
            parameters = try PGParameters(values, for: query)
        } catch let error as PGBindError {
            throw StorageError.postgres(operation: "bind parameter $\(error.index)", sql: query.sql,
                                        state: Self.characterNotInRepertoire, message: error.problem)
        }
        let types = query.parameters.map(\.rawValue)
        let count = Int32(query.parameters.count)
        let formats = [Int32](repeating: 1, count: query.parameters.count)
        if !prepare {
            return try send(query.sql, parameters) { values, lengths in
                PQsendQueryParams(handle, query.sql, count, types, values, lengths, formats, 1)
            }
        }
        let name: String
        if let known = prepared[query.sql] {
            name = known
        } else {
            name = "s\(prepared.count + 1)"
            try exchange(query.sql, operation: "prepare") { PQsendPrepare(handle, name, query.sql, count, types) }
            prepared[query.sql] = name
        }
        return try send(query.sql, parameters) { values, lengths in
            PQsendQueryPrepared(handle, name, count, values, lengths, formats, 1)
        }
    }

    /// Sends with the parameters' pointers, then collects the answer.
    private func send(_ sql: String, _ parameters: PGParameters,
                      _ call: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?) -> Int32) throws -> PGRows {
        var rows: PGRows?
        try parameters.bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress)
            let pointers: [UnsafePointer<CChar>?] = zip(parameters.offsets, parameters.lengths).map { offset, length in
                length < 0 ? nil : base.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
            }
            try pointers.withUnsafeBufferPointer { values in
                try parameters.lengths.withUnsafeBufferPointer { lengths in
                    rows = try exchange(sql, operation: "statement") { call(values.baseAddress, lengths.baseAddress) }
                }
            }
        }
        guard let rows else { throw unavailable("statement", "no answer", detail: "") }
        return rows
    }

    /// One exchange: `send` queues the request, then it is flushed and every result read,
    /// within `requestTimeout`. Returns the last result; throws the first error.
    @discardableResult
    private func exchange(_ sql: String, operation: String, _ send: () -> Int32) throws -> PGRows? {
        guard !isBroken else { throw unavailable(operation, "the connection was lost", detail: "") }
        let deadline = SocketWait.deadline(after: requestTimeout)
        guard send() == 1 else { throw lost(operation, sql) }
        // Flush: PQflush is 1 while data is left to send; the server may need us to read first.
        while true {
            let rc = PQflush(handle)
            if rc == 0 { break }
            if rc < 0 { throw lost(operation, sql) }
            try waitForSocket(reading: true, writing: true, until: deadline, operation)
            if PQconsumeInput(handle) == 0 { throw lost(operation, sql) }
        }
        var last: PGRows?
        var firstError: StorageError?
        while true {
            while PQisBusy(handle) == 1 {
                try waitForSocket(reading: true, writing: false, until: deadline, operation)
                if PQconsumeInput(handle) == 0 { throw lost(operation, sql) }
            }
            guard let result = PQgetResult(handle) else { break }
            let status = PQresultStatus(result)
            if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK {
                last = PGRows(result)
            } else {
                if firstError == nil { firstError = serverError(result, operation, sql) }
                PQclear(result)
            }
        }
        if let firstError {
            if PQstatus(handle) == CONNECTION_BAD { markLost() }
            noteInTransaction(firstError)
            throw firstError
        }
        return last
    }

    private func waitForSocket(reading: Bool, writing: Bool, until deadline: Int64, _ operation: String) throws {
        switch SocketWait.wait(PQsocket(handle), reading: reading, writing: writing, until: deadline) {
        case .ready: return
        case .timedOut:
            // The exchange is half done: nothing else can use this connection.
            isBroken = true
            throw unavailable(operation, "no answer within \(seconds(requestTimeout))", detail: "")
        case .failed(let why):
            markLost()
            throw unavailable(operation, why, detail: libpqMessage)
        }
    }

    // MARK: Notifications (record 0541)

    /// Waits up to `seconds` for the server to send something, reads it, and returns the
    /// notifications that arrived as (channel, payload). Throws `unavailable` when the
    /// connection is lost.
    func notifications(waiting seconds: Double) throws -> [(channel: String, payload: String)] {
        guard !isBroken else { throw unavailable("LISTEN", "the connection was lost", detail: "") }
        var out: [(channel: String, payload: String)] = []
        func drain() {
            while let notify = PQnotifies(handle) {
                let channel = notify.pointee.relname.map { String(cString: $0) } ?? ""
                let payload = notify.pointee.extra.map { String(cString: $0) } ?? ""
                PQfreemem(notify)
                out.append((channel, payload))
            }
        }
        drain()
        guard out.isEmpty else { return out }
        switch SocketWait.wait(PQsocket(handle), reading: true, writing: false, until: SocketWait.deadline(after: seconds)) {
        case .timedOut: return out
        case .failed(let why):
            markLost()
            throw unavailable("LISTEN", why, detail: libpqMessage)
        case .ready:
            if PQconsumeInput(handle) == 0 || PQstatus(handle) == CONNECTION_BAD { throw lost("LISTEN", "LISTEN") }
            drain()
            return out
        }
    }

    // MARK: Errors

    /// SQLSTATE 22021, what the server answers for text it cannot store (U+0000).
    static let characterNotInRepertoire = "22021"

    private func markLost() {
        isBroken = true
        lostServer = true
    }

    private func lost(_ operation: String, _ sql: String) -> StorageError {
        markLost()
        return unavailable(operation, "the connection to the server was lost", detail: libpqMessage)
    }

    private func unavailable(_ operation: String, _ reason: String, detail: String) -> StorageError {
        .unavailable(database: database, operation: operation, reason: reason, detail: detail)
    }

    /// libpq's last message on one line.
    private var libpqMessage: String {
        guard let text = PQerrorMessage(handle) else { return "" }
        return String(cString: text).split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
    }

    /// A server error as a `StorageError`: the connection classes (08, 57P01-57P03, 53300) and
    /// a statement timeout (57014) are `unavailable`; the rest keep their SQLSTATE.
    private func serverError(_ result: OpaquePointer, _ operation: String, _ sql: String) -> StorageError {
        func field(_ code: Int32) -> String? { PQresultErrorField(result, code).map { String(cString: $0) } }
        // postgres_ext.h's PG_DIAG_* are character macros, which do not import into Swift.
        func code(_ letter: Unicode.Scalar) -> Int32 { Int32(UInt8(ascii: letter)) }
        let state = field(code("C")) ?? "XX000"                                   // PG_DIAG_SQLSTATE
        var message = field(code("M")) ?? libpqMessage                            // PG_DIAG_MESSAGE_PRIMARY
        if let detail = field(code("D")) { message += " (\(detail))" }            // PG_DIAG_MESSAGE_DETAIL
        if let constraint = field(code("n")) { message += " [constraint \(constraint)]" }  // PG_DIAG_CONSTRAINT_NAME
        if state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state) {
            markLost()
            return unavailable(operation, "the server ended the connection (SQLSTATE \(state))", detail: message)
        }
        if state == "57014" { return unavailable(operation, "the statement took longer than the server's statement_timeout", detail: message) }
        return .postgres(operation: operation, sql: sql, state: state, message: message)
    }

    /// Inside a transaction, any server error aborts it (PostgreSQL ignores every later command
    /// until a rollback); a serialisation failure (40001) or deadlock (40P01) means run it again.
    private func noteInTransaction(_ error: StorageError) {
        guard depth > 0 else { return }
        if abort == nil { abort = (error, depth) }
        if let state = error.postgresState, state == "40001" || state == "40P01" { retryCause = error }
    }

    /// Forgets the transaction state (after COMMIT or ROLLBACK).
    func resetTransactionState() {
        depth = 0
        abort = nil
        retryCause = nil
        commitSent = false
    }
}

/// `seconds` as a setting in milliseconds ("5000").
func milliseconds(_ seconds: Double) -> String {
    String(Int(saturating: (seconds * 1000).rounded()))
}

/// "5 s", "0.5 s".
func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(saturating: value)) s" : "\(value) s"
}

/// Runs `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
