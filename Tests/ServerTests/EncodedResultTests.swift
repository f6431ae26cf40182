import RunusCore
import Testing
@testable import Server

/// Operations registered with pre-encoded results answer the same bytes as value handlers.
@Suite("Router with encoded results")
struct EncodedResultTests {
    static let results: [JSONValue] = [
        42, "hello \"ann\"", .null, [1, 2.5, "x"],
        ["z": ["b": 1, "a": [true, false]], "a": "é ✓", "m": -0.125],
    ]
    static let ids: [JSONValue] = [.null, 7, "req-1", ["n": 1]]

    @Test("an encoded handler's line equals the value handler's line for every id", arguments: results)
    func sameBytes(result: JSONValue) {
        let router = Router()
        router.register("value") { _ in result }
        router.registerEncoded("encoded") { _ in EncodedJSON(result) }
        for id in Self.ids {
            let value = router.answerLine(for: JSONWriter.bytes(["op": "value", "id": id]))
            let encoded = router.answerLine(for: JSONWriter.bytes(["op": "encoded", "id": id]))
            #expect(encoded == value)
            #expect(router.answer(to: ["op": "encoded", "id": id]) == router.answer(to: ["op": "value", "id": id]))
        }
    }

    @Test("an encoded handler's errors are answered and counted like any other")
    func errors() {
        let router = Router(log: { _ in })
        router.registerEncoded("bad") { _ in throw RequestError.badRequest("bad: no") }
        router.registerEncoded("boom") { _ in throw CancellationError() }
        let bad = router.answerLine(for: Array(#"{"op":"bad","id":3}"#.utf8))
        #expect(String(decoding: bad, as: UTF8.self) == #"{"error":{"code":"bad_request","message":"bad: no"},"id":3,"ok":false}"# + "\n")
        let boom = router.answerLine(for: Array(#"{"op":"boom"}"#.utf8))
        #expect(String(decoding: boom, as: UTF8.self).contains(#""code":"internal""#))
        #expect(router.stats.snapshot()["bad"] == Stats.Counts(requests: 1, errors: 1))
    }
}
