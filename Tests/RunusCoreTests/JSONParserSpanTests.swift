import Testing
@testable import RunusCore

@Suite("JSONParser locating a top-level member")
struct JSONParserSpanTests {
    @Test("the span covers the member's value exactly, at the top level only", arguments: [
        (#"{"id":12}"#, "12"),
        (#"{ "op" : "x" , "id" :  [1, {"id":2}]  }"#, #"[1, {"id":2}]"#),
        (#"{"a":{"id":1},"id":"\u00e9"}"#, #""\u00e9""#),
        (#"{"id":1,"id":-0.50}"#, "-0.50"),  // repeated: the last, as in the parsed object
        (#"  {"id":null}  "#, "null"),
    ])
    func located(text: String, expected: String) throws {
        let bytes = Array(text.utf8)
        let (value, span) = try JSONParser.parse(bytes, locatingMember: "id")
        #expect(value == (try JSONParser.parse(text)))
        let found = try #require(span)
        #expect(String(decoding: bytes[found], as: UTF8.self) == expected)
    }

    @Test("no span without a top-level member of that name", arguments: [#"{"a":{"id":1}}"#, #"[{"id":1}]"#, #""id""#, "{}"])
    func absent(text: String) throws {
        #expect(try JSONParser.parse(Array(text.utf8), locatingMember: "id").span == nil)
    }

    @Test("offsets are relative to the collection, for a slice too")
    func slice() throws {
        let bytes = Array(#"xxx{"id":42}"#.utf8)
        let line = bytes[3...]
        let span = try #require(try JSONParser.parse(line, locatingMember: "id").span)
        #expect(span == 6..<8)
        #expect(Array(line.dropFirst(span.lowerBound).prefix(span.count)) == Array("42".utf8))
    }
}
