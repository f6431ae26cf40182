import RunusCore
import Synchronization

/// Maps operation names to handlers and turns one request line into one answer line.
/// Register operations before `LineServer.start()`; registering later is safe but racy in
/// meaning (a request may or may not see the new operation).
public final class Router: Sendable {
    /// Returns the `result` value, or throws `RequestError` for an error answer. Runs on the
    /// event-loop thread today, so it must be fast and must not block.
    public typealias Handler = @Sendable (Request) throws -> JSONValue

    public let stats: Stats
    private let handlers = Mutex<[String: Handler]>([:])
    private let log: @Sendable (String) -> Void

    /// - Parameter log: receives one line per `internal` error (request id, op, the error).
    public init(stats: Stats = Stats(),
                log: @escaping @Sendable (String) -> Void = ServerConfiguration.logToStandardError) {
        self.stats = stats
        self.log = log
    }

    /// Registers `op`. Registering the same name twice is a programmer error.
    public func register(_ op: String, _ handler: @escaping Handler) {
        handlers.withLock { table in
            precondition(table[op] == nil, "operation '\(op)' registered twice")
            table[op] = handler
        }
    }

    /// The registered operation names, sorted.
    public var operations: [String] { handlers.withLock { $0.keys.sorted() } }

    /// The answer line (LF-terminated) for one request line (without its terminator).
    /// This is the single dispatch point: moving work to a pool later changes only its caller.
    public func answerLine<C: Collection>(for line: C, connectionID: UInt64 = 0) -> [UInt8] where C.Element == UInt8 {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            stats.record(op: Stats.invalidOp, ok: false)
            return Answer.line(Answer.failure(id: .null, code: .badJSON, message: "\(error)"))
        }
        return Answer.line(answer(to: value, connectionID: connectionID))
    }

    /// The answer object for one parsed request.
    public func answer(to value: JSONValue, connectionID: UInt64 = 0) -> JSONValue {
        guard case .object(let members) = value else {
            stats.record(op: Stats.invalidOp, ok: false)
            return Answer.failure(id: .null, code: .badRequest,
                                  message: "a request must be a JSON object, got \(value.typeName)")
        }
        let id = members["id"] ?? .null
        guard let opValue = members["op"] else {
            stats.record(op: Stats.invalidOp, ok: false)
            return Answer.failure(id: id, code: .badRequest, message: "request has no 'op' field")
        }
        guard case .string(let op) = opValue else {
            stats.record(op: Stats.invalidOp, ok: false)
            return Answer.failure(id: id, code: .badRequest,
                                  message: "'op' must be a string, got \(opValue.typeName)")
        }
        guard let handler = handlers.withLock({ $0[op] }) else {
            stats.record(op: Stats.unknownOp, ok: false)
            return Answer.failure(id: id, code: .unknownOp, message: "unknown op \"\(op.prefix(100))\"")
        }
        let request = Request(op: op, id: id, params: members, connectionID: connectionID)
        do {
            let result = try handler(request)
            stats.record(op: op, ok: true)
            return Answer.success(id: id, result: result)
        } catch let error as RequestError {
            stats.record(op: op, ok: false)
            return Answer.failure(id: id, code: error.code, message: error.message)
        } catch {
            stats.record(op: op, ok: false)
            log("internal error: op=\(op) id=\(JSONWriter.string(id)) connection=\(connectionID): \(error)")
            return Answer.failure(id: id, code: .internal, message: "internal error while handling \"\(op)\"")
        }
    }
}
