import RunusCore

/// The closed set of error codes a client can receive (`error.code` on the wire).
/// See docs/decisions/0502-wire-answers-and-error-codes.md.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The line is not valid JSON.
    case badJSON = "bad_json"
    /// Valid JSON but not a request: not an object, `op` missing or not a string, bad parameter.
    case badRequest = "bad_request"
    /// `op` names no registered operation.
    case unknownOp = "unknown_op"
    /// The request refers to something that does not exist (a user, a run, a race).
    case notFound = "not_found"
    /// The line exceeded the server's maximum line size; the connection is closed after this.
    case lineTooLong = "line_too_long"
    /// The line did not end within the read deadline counted from its first byte (record
    /// 0531); the connection is closed after this.
    case lineTimeout = "line_timeout"
    /// A bug or an unexpected failure inside the server; details are in the server log.
    case `internal` = "internal"
    /// The server cannot serve this now (shutting down, too many connections, its buffer memory
    /// full, its database unreachable: `StoreFailure`); retrying may work.
    case unavailable = "unavailable"
    /// A TCP connection sent a request before a successful `auth`, or `auth` had a wrong token
    /// (after `maximumAuthFailures` of those the connection is closed).
    case unauthorized = "unauthorized"
}

/// What an operation handler throws to answer with an error. Any other error thrown by a
/// handler becomes `internal` (and is logged with the request id).
public struct RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: ErrorCode
    /// One sentence for the client naming the bad value and what was expected.
    public let message: String
    /// The request parameter the error concerns (`error.field`), so that a form can highlight
    /// it; nil when it concerns no single parameter.
    public let field: String?
    /// The element of that parameter's list (`error.index`, 0-based: `points[12]`), when one.
    public let index: Int?

    public init(code: ErrorCode, message: String, field: String? = nil, index: Int? = nil) {
        self.code = code
        self.message = Self.bounded(message)
        self.field = field
        self.index = index
    }

    /// Characters of a message kept: whatever a handler quoted, no answer echoes a client's
    /// megabyte back (record 0557).
    public static let maximumMessageCharacters = 1000

    static func bounded(_ message: String) -> String { ClientText.quoted(message, limit: maximumMessageCharacters) }

    public static func badRequest(_ message: String, field: String? = nil, index: Int? = nil) -> RequestError {
        RequestError(code: .badRequest, message: message, field: field, index: index)
    }
    public static func notFound(_ message: String, field: String? = nil) -> RequestError {
        RequestError(code: .notFound, message: message, field: field)
    }

    /// The error's JSON object: `code`, `message` and, when set, `field` and `index`.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["code": .string(code.rawValue), "message": .string(message)]
        if let field { object["field"] = .string(field) }
        if let index { object["index"] = .number(Double(index)) }
        return .object(object)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The answer objects of the wire protocol, in one place.
public enum Answer {
    /// `{"id":…,"ok":true,"result":…}`
    public static func success(id: JSONValue, result: JSONValue) -> JSONValue {
        .object(["id": id, "ok": .bool(true), "result": result])
    }

    /// `{"error":{"code":…,"message":…},"id":…,"ok":false}`
    public static func failure(id: JSONValue, code: ErrorCode, message: String) -> JSONValue {
        .object([
            "id": id, "ok": .bool(false),
            "error": .object(["code": .string(code.rawValue), "message": .string(message)]),
        ])
    }

    /// `{"error":{"code":…,"field":…,"index":…,"message":…},"id":…,"ok":false}`
    public static func failure(id: JSONValue, error: RequestError) -> JSONValue {
        .object(["id": id, "ok": .bool(false), "error": error.json])
    }

    /// The answer as one wire line: sorted keys, no white space, LF-terminated.
    public static func line(_ answer: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONWriter.write(answer, into: &out)
        out.append(0x0A)
        return out
    }
}
