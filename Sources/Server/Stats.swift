import RunusCore
import Synchronization

/// Request and error counts per operation, safe to update from any thread.
/// Lines that never reached an operation are counted under `invalidOp` (bad JSON, not a
/// request, line too long) or `unknownOp` (so hostile op names cannot grow the table).
public final class Stats: Sendable {
    public struct Counts: Sendable, Equatable {
        /// Requests answered, >= 0.
        public var requests: Int = 0
        /// Of those, answers with `ok:false`, 0...requests.
        public var errors: Int = 0
    }

    public static let invalidOp = "(invalid)"
    public static let unknownOp = "(unknown)"

    private let table = Mutex<[String: Counts]>([:])

    public init() {}

    public func record(op: String, ok: Bool) {
        table.withLock { table in
            table[op, default: Counts()].requests += 1
            if !ok { table[op, default: Counts()].errors += 1 }
        }
    }

    public func snapshot() -> [String: Counts] { table.withLock { $0 } }

    /// `{"op":{"errors":n,"requests":n},…}` for a future `stats` operation.
    public func json() -> JSONValue {
        .object(snapshot().mapValues { .object(["requests": .number(Double($0.requests)), "errors": .number(Double($0.errors))]) })
    }
}
