import RunusCore

/// One parsed request as an operation handler sees it.
public struct Request: Sendable {
    /// The operation name (`"health"`, `"runs.ingest"`).
    public let op: String
    /// The client's `id`, any JSON value; `.null` when absent. Numbers are Doubles here: the
    /// answer echoes `echoedID`, the bytes as sent.
    public let id: JSONValue
    /// The `id` exactly as the client wrote it, which the answer carries (record 0502).
    public let echoedID: EchoedID
    /// The whole request object, `op` and `id` included.
    public let params: [String: JSONValue]
    /// The connection the request came on: unique for the server's lifetime, for push
    /// subscriptions (race watching) and logs.
    public let connectionID: UInt64
    /// 1-based position of the request on its connection; 0 when it did not come through a
    /// `LineServer`.
    public let requestNumber: UInt64

    /// - Parameter echoedID: the id's bytes as sent; nil: `id` as `JSONWriter` writes it.
    public init(op: String, id: JSONValue = .null, echoedID: EchoedID? = nil, params: [String: JSONValue] = [:],
                connectionID: UInt64 = 0, requestNumber: UInt64 = 0) {
        self.op = op
        self.id = id
        self.echoedID = echoedID ?? (id == .null ? .null : EchoedID(id))
        self.params = params
        self.connectionID = connectionID
        self.requestNumber = requestNumber
    }

    /// The server's id for this request, `"<connection>.<n>"` (`ServerLog.requestID`), for logs;
    /// built only when asked (a string per request costs throughput).
    public var requestID: String {
        requestNumber == 0 ? "" : ServerLog.requestID(connection: connectionID, number: requestNumber)
    }

    /// A required string parameter; a missing or mistyped one throws `bad_request` naming it.
    public func string(_ key: String) throws -> String {
        guard let value = params[key] else { throw missing(key, "a string") }
        guard let s = value.stringValue else { throw mistyped(key, value, "a string") }
        return s
    }

    /// A required number parameter.
    public func double(_ key: String) throws -> Double {
        guard let value = params[key] else { throw missing(key, "a number") }
        guard let n = value.doubleValue else { throw mistyped(key, value, "a number") }
        return n
    }

    /// A required whole-number parameter (exact, |n| < 2^53).
    public func int(_ key: String) throws -> Int {
        guard let value = params[key] else { throw missing(key, "an integer") }
        guard let n = value.intValue else { throw mistyped(key, value, "an integer") }
        return n
    }

    /// An optional parameter: nil when absent or null.
    public func optional(_ key: String) -> JSONValue? {
        guard let value = params[key], !value.isNull else { return nil }
        return value
    }

    private func missing(_ key: String, _ expected: String) -> RequestError {
        .badRequest("\(op): parameter '\(key)' is missing, expected \(expected)", field: key)
    }

    private func mistyped(_ key: String, _ value: JSONValue, _ expected: String) -> RequestError {
        .badRequest("\(op): parameter '\(key)' is \(value.typeName) \(JSONWriter.string(value).prefix(40)), expected \(expected)", field: key)
    }
}
