import RunusCore

/// What went wrong with one answer (record 0540, "checks").
public enum Violation: Sendable, Equatable, CustomStringConvertible {
    /// The answer line is not JSON (or not UTF-8).
    case notJSON(String)
    /// JSON, but not an object with a boolean `ok`.
    case notAnAnswer
    /// `ok` false without `error.code` and `error.message` strings.
    case malformedError
    /// An `error.code` outside the closed set.
    case unknownCode(String)
    /// `ok` true without `result`.
    case missingResult
    /// The answer's `id` is not the request's (answers out of order, or the id changed).
    case idMismatch(expected: JSONValue, got: JSONValue)
    /// A pushed event on a connection that never watched a race, or an answer nobody asked for.
    case unexpectedLine
    /// The answer broke the request's `AnswerExpectation`.
    case expectation(String)
    /// `error.code` is `internal`: by the protocol's own definition, a bug on our side.
    case internalError(String)
    /// A pipelined request saw the state from before an earlier request of its connection.
    case ordering(String)

    public var description: String {
        switch self {
        case .notJSON(let why): return "answer is not JSON: \(why)"
        case .notAnAnswer: return "answer is not an object with a boolean 'ok'"
        case .malformedError: return "ok:false without error.code and error.message strings"
        case .unknownCode(let c): return "error.code '\(c)' is not in the closed set"
        case .missingResult: return "ok:true without 'result'"
        case .idMismatch(let e, let g): return "id \(JSONWriter.string(g).prefix(80)) answered where \(JSONWriter.string(e).prefix(80)) was due"
        case .unexpectedLine: return "a line nobody asked for"
        case .expectation(let why): return why
        case .internalError(let message): return "internal error: \(message)"
        case .ordering(let why): return why
        }
    }

    /// A short key for counting: `id_mismatch`, `expectation`, …
    public var kind: String {
        switch self {
        case .notJSON: return "not_json"
        case .notAnAnswer: return "not_an_answer"
        case .malformedError: return "malformed_error"
        case .unknownCode: return "unknown_code"
        case .missingResult: return "missing_result"
        case .idMismatch: return "id_mismatch"
        case .unexpectedLine: return "unexpected_line"
        case .expectation: return "expectation"
        case .internalError: return "internal"
        case .ordering: return "ordering"
        }
    }
}

/// Checks answers against the envelope (docs/protocol.md) and the requests' expectations.
/// The closed set of codes is given (the driver passes `Server.ErrorCode.allCases`), so this
/// stays free of the socket module.
public struct AnswerChecker: Sendable {
    public let codes: Set<String>

    public init(codes: Set<String>) { self.codes = codes }

    /// The verdict on `answer` (one line, no terminator) as the reply to a request that must
    /// echo `id` and meet `expectation`: the answer's outcome (`ok` or its code) and what was
    /// wrong with it, if anything.
    public func check(_ answer: [UInt8], id: JSONValue, expectation: AnswerExpectation) -> (outcome: String, violation: Violation?) {
        guard FuzzLine.isUTF8(answer) else { return ("invalid", .notJSON("not UTF-8")) }
        let value: JSONValue
        do { value = try JSONParser.parse(answer) } catch { return ("invalid", .notJSON("\(error)")) }
        guard case .bool(let ok) = value["ok"] ?? .null else { return ("invalid", .notAnAnswer) }
        let echoed = value["id"] ?? .null
        let outcome: String
        if ok {
            outcome = "ok"
            guard value["result"] != nil else { return (outcome, .missingResult) }
        } else {
            guard let code = value["error"]?["code"]?.stringValue, value["error"]?["message"]?.stringValue != nil else {
                return ("invalid", .malformedError)
            }
            guard codes.contains(code) else { return (code, .unknownCode(code)) }
            outcome = code
        }
        if echoed != id { return (outcome, .idMismatch(expected: id, got: echoed)) }
        if outcome == "internal" { return (outcome, .internalError(value["error"]?["message"]?.stringValue ?? "")) }
        return (outcome, Self.expectationViolation(value, outcome: outcome, expectation))
    }

    static func expectationViolation(_ answer: JSONValue, outcome: String, _ expectation: AnswerExpectation) -> Violation? {
        func message() -> String { String((answer["error"]?["message"]?.stringValue ?? "").prefix(200)) }
        switch expectation {
        case .valid: return nil
        case .ok:
            return outcome == "ok" ? nil : .expectation("expected ok, got \(outcome): \(message())")
        case .error(let code):
            return outcome == code ? nil : .expectation("expected \(code), got \(outcome)")
        case .pipelinedRead(let t):
            guard outcome == "ok" else {
                return .ordering("runs.get pipelined behind the runs.ingest of the same run got \(outcome): the read ran before the write (\(message()))")
            }
            return expectationViolation(answer, outcome: outcome, .runStartingAt(t))
        case .refused:
            return outcome == "ok" ? .expectation("expected a refusal, got ok") : nil
        case .unrewarded(let reason):
            guard outcome == "ok" else { return .expectation("expected a run stored unrewarded (\(reason)), got \(outcome): \(message())") }
            let got = answer["result"]?["unrewarded"]?["reason"]?.stringValue
            return got == reason ? nil : .expectation("expected a run stored unrewarded (\(reason)), got \(got ?? "a rewarded run")")
        case .runStartingAt(let t):
            guard outcome == "ok" else { return .expectation("expected the run starting at \(Int(t)), got \(outcome): \(message())") }
            let start = answer["result"]?["run"]?["start_time"]?.doubleValue
            return start == t ? nil : .expectation("expected the run starting at \(Int(t)), got one starting at \(start.map { String(Int($0)) } ?? "none") (another runner's run?)")
        }
    }

    /// A pushed line (race events): an object with a string `event` and without `ok`.
    public static func isPush(_ line: [UInt8]) -> Bool {
        guard let value = try? JSONParser.parse(line) else { return false }
        return value["ok"] == nil && value["event"]?.stringValue != nil
    }
}
