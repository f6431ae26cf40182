#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// What the fuzzer demands of an answer beyond the envelope (record 0540, "checks").
public enum AnswerExpectation: Sendable, Equatable {
    /// Any valid answer: `ok` true, or false with a code from the closed set other than
    /// `internal` (which the protocol reserves for our bugs).
    case valid
    /// A well-formed request that the protocol says succeeds.
    case ok
    /// A request the protocol says is refused with this code.
    case error(String)
    /// `runs.ingest` or `runs.get` of a clean track: ok, and `result.run.start_time` is the
    /// track's first fix (the run the request named, not another one).
    case runStartingAt(Double)
    /// `runs.get` pipelined right behind the `runs.ingest` of the same run, without waiting for
    /// its answer: the run is there if requests on a connection take effect in order. A miss is
    /// an ordering finding, counted apart (record 0540).
    case pipelinedRead(Double)
    /// Refused with any code but `internal`: what must not work (a deleted runner's token).
    case refused
    /// `runs.ingest`: ok, and the run is stored unrewarded for this reason (`result.unrewarded.reason`).
    case unrewarded(String)
}

/// One line the fuzzer sends: its bytes with their terminator(s), the generator family that
/// made it (reports and muting use it), and what the answer must satisfy. A line holds one
/// request; a few families put two requests or blank lines in one write (CR/LF variants): the
/// answers owed are computed from the bytes, not declared.
public struct FuzzLine: Sendable {
    public let bytes: [UInt8]
    /// e.g. `ingest:two-fixes-20-min`, `follow:missions.today`, `malformed:truncated`.
    public let family: String
    public let expectation: AnswerExpectation
    /// Creates or changes state (users, runs, races): kept for reproducers.
    public let keepsState: Bool
    /// The runner the line is about, when it names one of the session's runners.
    public let user: String?
    /// The id the generator wrote, when the line holds one request whose id parses on its own:
    /// an answer carrying it needs no parse of the line (`echoedID(of:)` decides otherwise).
    public let declaredID: JSONValue?
    /// Sent only once every earlier answer is in, so that its expectation does not depend on
    /// how the daemon orders pipelined work.
    public var barrier = false

    public init(bytes: [UInt8], family: String, expectation: AnswerExpectation = .valid, keepsState: Bool = false,
                user: String? = nil, declaredID: JSONValue? = nil) {
        precondition(bytes.last == 0x0A, "FuzzLine: every line ends with LF so the stream stays in step")
        self.bytes = bytes
        self.family = family
        self.expectation = expectation
        self.keepsState = keepsState
        self.user = user
        self.declaredID = declaredID
        self.answered = Self.answeredRanges(bytes)
    }

    /// A request object written as one LF-terminated line.
    public init(_ request: RawJSON, family: String, expectation: AnswerExpectation = .valid, keepsState: Bool = false,
                user: String? = nil) {
        var bytes = request.encoded
        bytes.append(0x0A)
        var id: JSONValue? = .null
        if let member = request.members.first(where: { $0.0 == "id" }) { id = try? JSONParser.parse(member.1.encoded) }
        self.init(bytes: bytes, family: family, expectation: expectation, keepsState: keepsState, user: user, declaredID: id)
    }

    /// The physical lines the daemon answers, as the server frames them: split at LF, one CR
    /// before the LF dropped, empty lines skipped (keep-alives).
    public var answeredLines: [ArraySlice<UInt8>] { answered.map { bytes[$0] } }

    /// How many answers the line is owed.
    public var answerCount: Int { answered.count }

    /// Byte ranges of `answeredLines`, found once (with memchr: a debug build of a byte loop
    /// was a third of the fuzzer's time).
    private let answered: [Range<Int>]

    static func answeredRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return }
            var start = 0
            while start < b.count, let hit = memchr(base + start, 0x0A, b.count - start) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var end = i
                if end > start, b[end - 1] == 0x0D { end -= 1 }
                if end > start { out.append(start..<end) }
                start = i + 1
            }
        }
        return out
    }

    /// The id an answer to `line` must carry: the request object's `id` member when the line is
    /// UTF-8 and parses as an object (the daemon's own parser decides what parses: the envelope
    /// rule is checked, not the parser), else null.
    public static func echoedID(of line: ArraySlice<UInt8>) -> JSONValue {
        guard isUTF8(line) else { return .null }
        guard let value = try? JSONParser.parse(line), case .object(let members) = value else { return .null }
        return members["id"] ?? .null
    }

    /// Strict UTF-8 (the standard library's decoder: no overlongs, no surrogates).
    public static func isUTF8<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&it) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
