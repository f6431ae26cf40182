import RunusCore
import Synchronization

/// Maps operation names to handlers and turns one request line into one answer line.
/// Register operations before `LineServer.start()`; registering later is safe but racy in
/// meaning (a request may or may not see the new operation). A server can swap in a whole new
/// router (`LineServer.replaceRouter`) for a hot reload; share one `Stats` between them.
public final class Router: Sendable {
    /// Returns the `result` value, or throws `RequestError` for an error answer. Runs on an
    /// event-loop thread, or on the worker pool for operations the server offloads, so it must
    /// be thread-safe; inline operations must be fast.
    public typealias Handler = @Sendable (Request) throws -> JSONValue
    /// Like `Handler`, for an operation that keeps its results already encoded (a cache):
    /// returns the `result` value's bytes, which go into the answer line as they are.
    public typealias EncodedHandler = @Sendable (Request) throws -> EncodedJSON
    /// Like `Handler`, for an operation whose result can be too large to hold whole: returns
    /// the result as a stream of parts (record 0555). Register it as offloaded, or it is
    /// written whole, inline.
    public typealias StreamedHandler = @Sendable (Request) throws -> any ResultStream

    /// A registered operation.
    enum Operation: Sendable {
        case value(Handler)
        case encoded(EncodedHandler)
        case streamed(StreamedHandler)
    }

    public let stats: Stats
    private let handlers = Mutex<[String: Operation]>([:])
    /// `store_unavailable` lines: during an outage every request fails alike, so the first 10 a
    /// second are written and the rest counted into the next one (`suppressed_before`).
    private let unavailableLog = Mutex(LogRateLimiter(perWindow: 10, windowNanoseconds: 1_000_000_000))
    private let log: @Sendable (String) -> Void

    /// What to do with one request line.
    enum Route {
        /// Decided without a handler (bad line, unknown op, not authenticated); stats recorded.
        case answered([UInt8])
        /// `{"op":"auth",…}`: the connection layer checks the token.
        case auth(id: EchoedID, token: JSONValue?)
        /// Run `handler` on `request` (inline or on the pool), then `finish`.
        case call(Operation, Request)
    }

    /// - Parameter log: receives one structured JSON line (`ServerLog`) per `internal` error.
    /// One line per answered request, when the daemon keeps an access log (issue 53).
    public let accessLog: AccessLog?
    /// The top-level keys each operation takes besides `op` and `id`; a request with another
    /// is refused naming it (record 0560). Operations absent here take any key.
    public let parameters: [String: Set<String>]

    public init(stats: Stats = Stats(),
                log: @escaping @Sendable (String) -> Void = ServerConfiguration.logToStandardError,
                accessLog: AccessLog? = nil, parameters: [String: Set<String>] = [:]) {
        self.stats = stats
        self.log = log
        self.accessLog = accessLog
        self.parameters = parameters
    }

    /// Writes the access-log line of a request that reached its operation.
    func noteAccess(_ request: Request, code: String, microseconds: UInt64) {
        accessLog?.record(op: request.op, requestID: request.requestID, user: request.params["user"]?.stringValue, code: code,
                          microseconds: microseconds)
    }

    /// Writes the access-log line of a line refused before it reached an operation.
    private func noteRefused(_ op: String, code: ErrorCode, connectionID: UInt64, requestNumber: UInt64) {
        guard let accessLog, requestNumber != 0 else { return }
        accessLog.record(op: op, requestID: ServerLog.requestID(connection: connectionID, number: requestNumber), user: nil,
                         code: code.rawValue, microseconds: 0)
    }

    /// Registers `op`. Registering the same name twice is a programmer error.
    public func register(_ op: String, _ handler: @escaping Handler) {
        add(op, .value(handler))
    }

    /// Registers `op` with a handler whose results are already encoded (decision 0521).
    public func registerEncoded(_ op: String, _ handler: @escaping EncodedHandler) {
        add(op, .encoded(handler))
    }

    /// Registers `op` with a handler whose result is written in parts (record 0555).
    public func registerStreamed(_ op: String, _ handler: @escaping StreamedHandler) {
        add(op, .streamed(handler))
    }

    private func add(_ op: String, _ operation: Operation) {
        precondition(op != "auth", "'auth' is answered by the server itself")
        handlers.withLock { table in
            precondition(table[op] == nil, "operation '\(op)' registered twice")
            table[op] = operation
        }
    }

    /// The registered operation names, sorted (`auth` is the server's and is not listed).
    public var operations: [String] { handlers.withLock { $0.keys.sorted() } }

    /// The answer line (LF-terminated) for one request line (without its terminator), computed
    /// inline. `LineServer` uses `route` and `finish` instead, to run slow operations elsewhere.
    public func answerLine<C: Collection>(for line: C, connectionID: UInt64 = 0) -> [UInt8] where C.Element == UInt8 {
        let started = Sys.monotonicNanoseconds()
        switch route(line, connectionID: connectionID, requestNumber: 0, authenticated: true) {
        case .answered(let bytes): return bytes
        case .auth(let id, _): return Answer.successLine(id: id, result: ["authenticated": true])
        case .call(let handler, let request): return finish(handler, request, startedAt: started)
        }
    }

    /// The answer object for one parsed request (inline). Its `id` is the parsed value (a
    /// Double for numbers); lines get the client's bytes back (`answerLine`).
    public func answer(to value: JSONValue, connectionID: UInt64 = 0) -> JSONValue {
        let started = Sys.monotonicNanoseconds()
        switch classify(value, echoedID: nil, connectionID: connectionID, requestNumber: 0, authenticated: true) {
        case .failure(let failure):
            return Answer.failure(id: failure.echoesID ? value["id"] ?? .null : .null, error: failure.error)
        case .success(let call):
            let (operation, request) = call
            do {
                let result: JSONValue
                switch operation {
                case .value(let handler): result = try handler(request)
                case .encoded(let handler): result = try JSONParser.parse(try handler(request).bytes)
                case .streamed(let handler): result = try JSONParser.parse(try Self.drain(handler(request)))
                }
                stats.record(op: request.op, ok: true, microseconds: Self.microseconds(since: started))
                return Answer.success(id: request.id, result: result)
            } catch {
                let failure = failure(error, request, startedAt: started)
                return Answer.failure(id: request.id, error: failure.error)
            }
        }
    }

    func route<C: Collection>(_ line: C, connectionID: UInt64, requestNumber: UInt64,
                              authenticated: Bool) -> Route where C.Element == UInt8 {
        if let offset = UTF8Validation.firstInvalidOffset(line) {
            stats.record(op: Stats.invalidOp, ok: false, code: .badJSON)
            noteRefused(Stats.invalidOp, code: .badJSON, connectionID: connectionID, requestNumber: requestNumber)
            return .answered(Answer.failureLine(
                id: .null, code: .badJSON, message: "invalid UTF-8 at byte \(offset): a request line must be UTF-8"))
        }
        let value: JSONValue
        let echoedID: EchoedID
        do {
            let parsed = try JSONParser.parse(line, locatingMember: "id")
            value = parsed.value
            // The id's bytes as sent (a small copy: the line's buffer is the framer's).
            echoedID = parsed.span.map { span in
                EchoedID(rawBytes: Array(line.dropFirst(span.lowerBound).prefix(span.count)))
            } ?? .null
        } catch {
            stats.record(op: Stats.invalidOp, ok: false, code: .badJSON)
            noteRefused(Stats.invalidOp, code: .badJSON, connectionID: connectionID, requestNumber: requestNumber)
            return .answered(Answer.failureLine(id: .null, code: .badJSON, message: "\(error)"))
        }
        if NULText.mayHold(line), let path = NULText.path(in: value) {
            stats.record(op: Stats.invalidOp, ok: false, code: .badRequest)
            noteRefused(Stats.invalidOp, code: .badRequest, connectionID: connectionID, requestNumber: requestNumber)
            let field = path.split(separator: ".").first.map { String($0.split(separator: "[").first ?? $0) }
            return .answered(Answer.failureLine(id: echoedID, error: .badRequest(
                "request text may not contain U+0000 (found in \(path)): no store can hold it (record 0544)",
                field: field.flatMap { $0.hasPrefix("(") ? nil : $0 })))
        }
        if case .object(let members) = value, members["op"] == .string("auth") {
            return .auth(id: echoedID, token: members["token"])
        }
        switch classify(value, echoedID: echoedID, connectionID: connectionID, requestNumber: requestNumber,
                        authenticated: authenticated) {
        case .failure(let failure):
            return .answered(Answer.failureLine(id: failure.echoesID ? echoedID : .null, error: failure.error))
        case .success(let call): return .call(call.0, call.1)
        }
    }

    /// Runs `handler` and returns the answer line; counts it with its latency since `startedAt`
    /// (monotonic ns).
    func finish(_ operation: Operation, _ request: Request, startedAt: Int64) -> [UInt8] {
        do {
            let line: [UInt8]
            switch operation {
            case .value(let handler): line = Answer.successLine(id: request.echoedID, result: try handler(request))
            case .encoded(let handler): line = Answer.successLine(id: request.echoedID, encodedResult: try handler(request))
            case .streamed(let handler):
                line = Answer.successLine(id: request.echoedID, encodedResult: EncodedJSON(streamedBytes: try Self.drain(handler(request))))
            }
            let microseconds = Self.microseconds(since: startedAt)
            stats.record(op: request.op, ok: true, microseconds: microseconds)
            noteAccess(request, code: "ok", microseconds: microseconds)
            return line
        } catch {
            let failure = failure(error, request, startedAt: startedAt)
            return Answer.failureLine(id: request.echoedID, error: failure.error)
        }
    }

    /// An error answer for a line that is not run (the server is stopping): its `id` echoed
    /// when the line parses, counted under its op (or as invalid).
    func refusalLine<C: Collection>(for line: C, code: ErrorCode, message: String) -> [UInt8] where C.Element == UInt8 {
        var id = EchoedID.null
        var op = Stats.invalidOp
        if UTF8Validation.firstInvalidOffset(line) == nil, let parsed = try? JSONParser.parse(line, locatingMember: "id") {
            id = parsed.span.map { EchoedID(rawBytes: Array(line.dropFirst($0.lowerBound).prefix($0.count))) } ?? .null
            if case .object(let members) = parsed.value, let name = members["op"]?.stringValue,
               handlers.withLock({ $0[name] != nil }) { op = name }
        }
        stats.record(op: op, ok: false, code: code)
        return Answer.failureLine(id: id, code: code, message: message)
    }

    /// What `begin` starts: a whole answer line, or a streamed answer the connection writes
    /// part by part.
    enum Begun {
        case line([UInt8])
        case stream(StreamedAnswer)
    }

    /// `finish`, except that a streamed operation's answer is handed back unwritten (its
    /// handler has run: a request it refuses is a whole error line).
    func begin(_ operation: Operation, _ request: Request, startedAt: Int64) -> Begun {
        guard case .streamed(let handler) = operation else { return .line(finish(operation, request, startedAt: startedAt)) }
        do {
            return .stream(StreamedAnswer(stream: try handler(request), request: request, startedAt: startedAt, router: self))
        } catch {
            return .line(failureLine(error, request, startedAt: startedAt))
        }
    }

    /// The error answer line for what a handler (or a stream's first part) threw, counted.
    func failureLine(_ error: any Error, _ request: Request, startedAt: Int64) -> [UInt8] {
        Answer.failureLine(id: request.echoedID, error: failure(error, request, startedAt: startedAt).error)
    }

    /// A whole stream's bytes, for the paths that answer in one piece.
    private static func drain(_ stream: any ResultStream) throws -> [UInt8] {
        var out: [UInt8] = []
        while try stream.writeNext(into: &out, partBytes: 1 << 20) {}
        return out
    }

    /// A stream failed after its first part: counted, and logged with the request id; the
    /// connection closes (record 0555).
    func streamFailed(_ request: Request, _ error: any Error, startedAt: Int64) {
        let microseconds = Self.microseconds(since: startedAt)
        stats.record(op: request.op, ok: false, microseconds: microseconds, code: .internal)
        noteAccess(request, code: ErrorCode.internal.rawValue, microseconds: microseconds)
        log(ServerLog.line(.error, "stream_failed", [
            "op": .string(request.op), "id": request.id, "connection": .number(Double(request.connectionID)),
            "request_id": .string(request.requestID), "message": .string("\(error)"),
        ]))
    }

    static func microseconds(since startedAt: Int64) -> UInt64 {
        UInt64(max(0, Sys.monotonicNanoseconds() - startedAt) / 1000)
    }

    /// An error answer's content; `echoesID` is false when the request's id could not be read.
    private struct Failure: Error {
        let code: ErrorCode
        let message: String
        var echoesID = true
        var field: String? = nil
        var index: Int? = nil

        var error: RequestError { RequestError(code: code, message: message, field: field, index: index) }
    }

    private func classify(_ value: JSONValue, echoedID: EchoedID?, connectionID: UInt64, requestNumber: UInt64,
                          authenticated: Bool) -> Result<(Operation, Request), Failure> {
        guard case .object(let members) = value else {
            stats.record(op: Stats.invalidOp, ok: false, code: .badRequest)
            noteRefused(Stats.invalidOp, code: .badRequest, connectionID: connectionID, requestNumber: requestNumber)
            return .failure(Failure(code: .badRequest, message: "a request must be a JSON object, got \(value.typeName)",
                                    echoesID: false))
        }
        let id = members["id"] ?? .null
        guard authenticated else {
            stats.record(op: Stats.invalidOp, ok: false, code: .unauthorized)
            noteRefused(Stats.invalidOp, code: .unauthorized, connectionID: connectionID, requestNumber: requestNumber)
            return .failure(Failure(code: .unauthorized, message: "send {\"op\":\"auth\",\"token\":…} first on a TCP connection"))
        }
        guard let opValue = members["op"] else {
            stats.record(op: Stats.invalidOp, ok: false, code: .badRequest)
            noteRefused(Stats.invalidOp, code: .badRequest, connectionID: connectionID, requestNumber: requestNumber)
            return .failure(Failure(code: .badRequest, message: "request has no 'op' field"))
        }
        guard case .string(let op) = opValue else {
            stats.record(op: Stats.invalidOp, ok: false, code: .badRequest)
            noteRefused(Stats.invalidOp, code: .badRequest, connectionID: connectionID, requestNumber: requestNumber)
            return .failure(Failure(code: .badRequest, message: "'op' must be a string, got \(opValue.typeName)"))
        }
        if let allowed = parameters[op],
           let unknown = members.keys.filter({ $0 != "op" && $0 != "id" && !allowed.contains($0) }).min() {
            stats.record(op: op, ok: false, code: .badRequest)
            noteRefused(op, code: .badRequest, connectionID: connectionID, requestNumber: requestNumber)
            let takes = allowed.isEmpty ? "no parameters" : "only " + allowed.sorted().joined(separator: ", ")
            return .failure(Failure(code: .badRequest, message: "\(op): unknown parameter '\(ClientText.quoted(unknown))' (\(op) takes \(takes))",
                                    field: ClientText.quoted(unknown)))
        }
        guard let handler = handlers.withLock({ $0[op] }) else {
            stats.record(op: Stats.unknownOp, ok: false, code: .unknownOp)
            noteRefused(Stats.unknownOp, code: .unknownOp, connectionID: connectionID, requestNumber: requestNumber)
            return .failure(Failure(code: .unknownOp, message: "unknown op \"\(op.prefix(100))\""))
        }
        return .success((handler, Request(op: op, id: id, echoedID: echoedID, params: members,
                                          connectionID: connectionID, requestNumber: requestNumber)))
    }

    /// The error answer's content for what a handler threw (counted; unexpected errors logged).
    private func failure(_ error: any Error, _ request: Request, startedAt: Int64) -> Failure {
        let failure = classifyFailure(error, request)
        let microseconds = Self.microseconds(since: startedAt)
        stats.record(op: request.op, ok: false, microseconds: microseconds, code: failure.code)
        noteAccess(request, code: failure.code.rawValue, microseconds: microseconds)
        return failure
    }

    /// The error answer for what a handler threw (unexpected errors and outages logged).
    private func classifyFailure(_ error: any Error, _ request: Request) -> Failure {
        if let error = error as? RequestError {
            return Failure(code: error.code, message: error.message, field: error.field, index: error.index)
        }
        // The database is down or too slow (record 0406): the client may retry; the detail
        // (which server, what libpq said) goes to the log only.
        if let failure = error as? any StoreFailure, let reason = failure.unavailableReason {
            let (write, suppressed) = unavailableLog.withLock { $0.admit(now: Sys.monotonicNanoseconds()) }
            if write {
                var fields: [String: JSONValue] = [
                    "op": .string(request.op), "id": request.id, "connection": .number(Double(request.connectionID)),
                    "request_id": .string(request.requestID), "message": .string("\(error)"),
                ]
                if suppressed > 0 { fields["suppressed_before"] = .number(Double(suppressed)) }
                log(ServerLog.line(.warn, "store_unavailable", fields))
            }
            return Failure(code: .unavailable, message: "\(request.op): \(reason); retry later")
        }
        log(ServerLog.line(.error, "internal_error", [
            "op": .string(request.op), "id": request.id, "connection": .number(Double(request.connectionID)),
            "request_id": .string(request.requestID), "message": .string("\(error)"),
        ]))
        return Failure(code: .internal, message: "internal error while handling \"\(request.op)\"")
    }
}
