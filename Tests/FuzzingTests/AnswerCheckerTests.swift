import Testing
import RunusCore
@testable import Fuzzing

/// The checks on answers, each shown to fail on the answer it is meant to catch.
@Suite("answer checker and session")
struct AnswerCheckerTests {
    static let checker = AnswerChecker(codes: ["bad_json", "bad_request", "unknown_op", "not_found", "line_too_long",
                                               "internal", "unavailable", "unauthorized"])

    static func check(_ answer: String, id: JSONValue = 1, _ e: AnswerExpectation = .valid) -> (String, Violation?) {
        checker.check(Array(answer.utf8), id: id, expectation: e)
    }

    @Test("a valid answer passes; each broken one is named")
    func verdicts() {
        #expect(Self.check(#"{"id":1,"ok":true,"result":{}}"#).1 == nil)
        #expect(Self.check(#"{"error":{"code":"not_found","message":"x"},"id":1,"ok":false}"#) == ("not_found", nil))
        #expect(Self.check(#"{"id":1,"ok":true"#).1?.kind == "not_json")
        #expect(Self.check(#"{"id":1,"result":{}}"#).1 == .notAnAnswer)
        #expect(Self.check(#"{"id":1,"ok":true}"#).1 == .missingResult)
        #expect(Self.check(#"{"error":{"code":"oops","message":"x"},"id":1,"ok":false}"#).1 == .unknownCode("oops"))
        #expect(Self.check(#"{"error":{"code":"bad_json"},"id":1,"ok":false}"#).1 == .malformedError)
        #expect(Self.check(#"{"id":2,"ok":true,"result":{}}"#).1 == .idMismatch(expected: 1, got: 2))
        #expect(Self.check(#"{"error":{"code":"internal","message":"m"},"id":1,"ok":false}"#).1 == .internalError("m"))
        #expect(Self.check(#"{"error":{"code":"bad_request","message":"m"},"id":1,"ok":false}"#, .ok).1?.kind == "expectation")
        #expect(Self.check(#"{"id":1,"ok":true,"result":{"run":{"start_time":5}}}"#, .runStartingAt(5)).1 == nil)
        #expect(Self.check(#"{"id":1,"ok":true,"result":{"run":{"start_time":6}}}"#, .runStartingAt(5)).1?.kind == "expectation")
        #expect(Self.check(#"{"error":{"code":"not_found","message":"m"},"id":1,"ok":false}"#, .pipelinedRead(5)).1?.kind == "ordering")
    }

    @Test("answers matched in order: a swapped pair is two id mismatches; blank lines owe nothing; pushes only after a watch")
    func session() {
        #expect(FuzzLine(bytes: Array("\r\n".utf8), family: "x").answeredLines.isEmpty)
        #expect(FuzzLine(bytes: Array("{\"id\":1}\r\r\n{\"id\":2}\n\n".utf8), family: "x").answerCount == 2)
        var s = ProtocolSession(generator: RequestGenerator(.init(seed: 1, connection: 0)), checker: Self.checker)
        for k in 1...3 { s.sent(FuzzLine(.request(id: .number(Double(k)), op: "health", []), family: "t")) }
        s.sent(FuzzLine(bytes: Array("\n\r\n".utf8), family: "blank"))
        #expect(s.outstanding == 3)
        s.receive(Array(#"{"id":2,"ok":true,"result":{}}"#.utf8))
        s.receive(Array(#"{"id":1,"ok":true,"result":{}}"#.utf8))
        #expect(s.tally.violations["id_mismatch"] == 2)
        s.receive(Array(#"{"event":"race.ranking","race_id":"race-1"}"#.utf8))
        #expect(s.tally.violations["not_an_answer"] == 1, "a push before any race.watch is not an answer")
        s.sent(FuzzLine(.request(id: .number(4), op: "race.watch", [("race_id", .string("race-1"))]), family: "t"))
        s.receive(Array(#"{"event":"race.ranking","race_id":"race-1"}"#.utf8))
        #expect(s.tally.pushed == 1, "once a watch is sent, its events may come before its answer")
        s.receive(Array(#"{"id":4,"ok":true,"result":{}}"#.utf8))
        s.receive(Array(#"{"id":5,"ok":true,"result":{}}"#.utf8))
        #expect(s.tally.violations["unexpected_line"] == 1)
        #expect(s.outstanding == 0)
    }

    @Test("a corrupted line echoes null or its own id, never another")
    func corruptionKeepsTheID() {
        var g = SeededGenerator(seed: 9)
        for k in 0..<500 {
            let request = RawJSON.request(id: .number(Double(k)), op: "history", [("user", .string("u")), ("from", .string("2026-01-01"))])
            let (bytes, family) = LineCorruptor.corrupt(request, scale: 0.05, &g)
            for physical in FuzzLine(bytes: bytes, family: family).answeredLines {
                let id = FuzzLine.echoedID(of: physical)
                #expect(id == .null || id == .number(Double(k)), "\(family): \(id)")
            }
        }
    }
}
