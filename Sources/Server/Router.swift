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

    /// A registered operation.
    enum Operation: Sendable {
        case value(Handler)
        case encoded(EncodedHandler)
    }

    public let stats: Stats
    private let handlers = Mutex<[String: Operation]>([:])
    private let log: @Sendable (String) -> Void

    /// What to do with one request line.
    enum Route {
        /// Decided without a handler (bad line, unknown op, not authenticated); stats recorded.
        case answered([UInt8])
        /// `{"op":"auth",…}`: the connection layer checks the token.
        case auth(id: JSONValue, token: JSONValue?)
        /// Run `handler` on `request` (inline or on the pool), then `finish`.
        case call(Operation, Request)
    }

    /// - Parameter log: receives one structured JSON line (`ServerLog`) per `internal` error.
    public init(stats: Stats = Stats(),
                log: @escaping @Sendable (String) -> Void = ServerConfiguration.logToStandardError) {
        self.stats = stats
        self.log = log
    }

    /// Registers `op`. Registering the same name twice is a programmer error.
    public func register(_ op: String, _ handler: @escaping Handler) {
        add(op, .value(handler))
    }

    /// Registers `op` with a handler whose results are already encoded (decision 0521).
    public func registerEncoded(_ op: String, _ handler: @escaping EncodedHandler) {
        add(op, .encoded(handler))
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
        case .auth(let id, _):
            return Answer.line(Answer.success(id: id, result: ["authenticated": true]))
        case .call(let handler, let request): return finish(handler, request, startedAt: started)
        }
    }

    /// The answer object for one parsed request (inline).
    public func answer(to value: JSONValue, connectionID: UInt64 = 0) -> JSONValue {
        let started = Sys.monotonicNanoseconds()
        switch classify(value, connectionID: connectionID, requestNumber: 0, authenticated: true) {
        case .failure(let failure): return failure.answer
        case .success(let call): return outcome(call.0, call.1, startedAt: started)
        }
    }

    func route<C: Collection>(_ line: C, connectionID: UInt64, requestNumber: UInt64,
                              authenticated: Bool) -> Route where C.Element == UInt8 {
        if let offset = UTF8Validation.firstInvalidOffset(line) {
            stats.record(op: Stats.invalidOp, ok: false)
            return .answered(Answer.line(Answer.failure(
                id: .null, code: .badJSON, message: "invalid UTF-8 at byte \(offset): a request line must be UTF-8")))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            stats.record(op: Stats.invalidOp, ok: false)
            return .answered(Answer.line(Answer.failure(id: .null, code: .badJSON, message: "\(error)")))
        }
        if case .object(let members) = value, members["op"] == .string("auth") {
            return .auth(id: members["id"] ?? .null, token: members["token"])
        }
        switch classify(value, connectionID: connectionID, requestNumber: requestNumber, authenticated: authenticated) {
        case .failure(let failure): return .answered(Answer.line(failure.answer))
        case .success(let call): return .call(call.0, call.1)
        }
    }

    /// Runs `handler` and returns the answer line; counts it with its latency since `startedAt`
    /// (monotonic ns).
    func finish(_ operation: Operation, _ request: Request, startedAt: Int64) -> [UInt8] {
        guard case .encoded(let handler) = operation else { return Answer.line(outcome(operation, request, startedAt: startedAt)) }
        do {
            let result = try handler(request)
            stats.record(op: request.op, ok: true, microseconds: Self.microseconds(since: startedAt))
            return Answer.successLine(id: request.id, encodedResult: result)
        } catch {
            return Answer.line(failure(error, request, startedAt: startedAt))
        }
    }

    static func microseconds(since startedAt: Int64) -> UInt64 {
        UInt64(max(0, Sys.monotonicNanoseconds() - startedAt) / 1000)
    }

    private struct Failure: Error { let answer: JSONValue }

    private func classify(_ value: JSONValue, connectionID: UInt64, requestNumber: UInt64,
                          authenticated: Bool) -> Result<(Operation, Request), Failure> {
        guard case .object(let members) = value else {
            stats.record(op: Stats.invalidOp, ok: false)
            return .failure(Failure(answer: Answer.failure(
                id: .null, code: .badRequest, message: "a request must be a JSON object, got \(value.typeName)")))
        }
        let id = members["id"] ?? .null
        guard authenticated else {
            stats.record(op: Stats.invalidOp, ok: false)
            return .failure(Failure(answer: Answer.failure(
                id: id, code: .unauthorized, message: "send {\"op\":\"auth\",\"token\":…} first on a TCP connection")))
        }
        guard let opValue = members["op"] else {
            stats.record(op: Stats.invalidOp, ok: false)
            return .failure(Failure(answer: Answer.failure(id: id, code: .badRequest, message: "request has no 'op' field")))
        }
        guard case .string(let op) = opValue else {
            stats.record(op: Stats.invalidOp, ok: false)
            return .failure(Failure(answer: Answer.failure(
                id: id, code: .badRequest, message: "'op' must be a string, got \(opValue.typeName)")))
        }
        guard let handler = handlers.withLock({ $0[op] }) else {
            stats.record(op: Stats.unknownOp, ok: false)
            return .failure(Failure(answer: Answer.failure(
                id: id, code: .unknownOp, message: "unknown op \"\(op.prefix(100))\"")))
        }
        return .success((handler, Request(op: op, id: id, params: members, connectionID: connectionID, requestNumber: requestNumber)))
    }

    private func outcome(_ operation: Operation, _ request: Request, startedAt: Int64) -> JSONValue {
        do {
            let result: JSONValue
            switch operation {
            case .value(let handler): result = try handler(request)
            case .encoded(let handler): result = try JSONParser.parse(try handler(request).bytes)
            }
            stats.record(op: request.op, ok: true, microseconds: Self.microseconds(since: startedAt))
            return Answer.success(id: request.id, result: result)
        } catch {
            return failure(error, request, startedAt: startedAt)
        }
    }

    /// The error answer for what a handler threw (counted; unexpected errors logged).
    private func failure(_ error: any Error, _ request: Request, startedAt: Int64) -> JSONValue {
        let op = request.op, id = request.id
        func elapsed() -> UInt64 { Self.microseconds(since: startedAt) }
        stats.record(op: op, ok: false, microseconds: elapsed())
        if let error = error as? RequestError {
            return Answer.failure(id: id, code: error.code, message: error.message)
        } else {
            log(ServerLog.line(.error, "internal_error", [
                "op": .string(op), "id": id, "connection": .number(Double(request.connectionID)),
                "request_id": .string(request.requestID), "message": .string("\(error)"),
            ]))
            return Answer.failure(id: id, code: .internal, message: "internal error while handling \"\(op)\"")
        }
    }
}
