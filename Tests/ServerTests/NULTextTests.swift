import RunusCore
import Testing
@testable import Server

/// U+0000 in request text is refused at the door, for every store alike (record 0544).
@Suite("U+0000 in requests")
struct NULTextTests {
    /// The answer line `route` gives `text`, parsed; nil when the request reaches its handler.
    static func refusal(_ text: String) throws -> JSONValue? {
        let router = RouterTests.router()
        guard case .answered(let bytes) = router.route(Array(text.utf8), connectionID: 1, requestNumber: 1, authenticated: true) else {
            return nil
        }
        return try JSONParser.parse(String(decoding: bytes.dropLast(bytes.last == 0x0A ? 1 : 0), as: UTF8.self))
    }

    @Test("in a value, nested value or member name: bad_request naming where, with the id echoed")
    func refused() throws {
        let cases: [(String, String, String?)] = [
            (#"{"op":"greet","id":7,"name":"a\u0000b"}"#, "found in name", "name"),
            (#"{"op":"greet","id":7,"name":"x","extra":{"list":[1,"\u0000"]}}"#, "found in extra.list[1]", "extra"),
            (#"{"op":"greet","id":7,"name":"x","n\u0000":1}"#, "(a member name)", nil),
        ]
        for (line, where_, field) in cases {
            let answer = try #require(try Self.refusal(line), "\(line) reached its handler")
            #expect(answer["ok"] == false)
            #expect(answer["id"] == 7)
            #expect(answer["error"]?["code"] == "bad_request")
            #expect(answer["error"]?["message"]?.stringValue?.contains(where_) == true, "\(answer)")
            #expect(answer["error"]?["field"] == field.map { .string($0) } ?? nil)
        }
    }

    @Test("the text backslash-u-0000 (an escaped backslash) and other control characters pass")
    func passes() throws {
        #expect(try Self.refusal(#"{"op":"greet","name":"a\\u0000b"}"#) == nil)
        #expect(try Self.refusal(#"{"op":"greet","name":"\u0001\u001f"}"#) == nil)
        // The request's id is echoed as sent and never stored: any JSON value, U+0000 too.
        #expect(try Self.refusal(#"{"op":"greet","id":"a\u0000","name":"x"}"#) == nil)
        #expect(try Self.refusal(#"{"op":"greet","id":"a","name":"x","x":{"id":"\u0000"}}"#) != nil)
        #expect(NULText.mayHold(Array(#"\\u0000"#.utf8)))
        #expect(!NULText.mayHold(Array(#"\u000"#.utf8)) && !NULText.mayHold(Array(#"\\u00\u0001"#.utf8)))
        #expect(NULText.mayHold(Array(#"\\u\u0000"#.utf8)))
    }
}
