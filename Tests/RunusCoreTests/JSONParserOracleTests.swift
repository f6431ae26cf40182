import Foundation
import Testing
@testable import RunusCore

/// Converts Foundation's `JSONSerialization` output into a `JSONValue`, the oracle's side.
func oracleValue(_ any: Any) -> JSONValue {
    switch any {
    case is NSNull: return .null
    case let s as String: return .string(s)
    case let n as NSNumber:
        // JSONSerialization gives booleans as NSNumber with ObjC type "c".
        if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
        return .number(n.doubleValue)
    case let a as [Any]: return .array(a.map(oracleValue))
    case let o as [String: Any]: return .object(o.mapValues(oracleValue))
    default: fatalError("unexpected Foundation JSON type \(type(of: any))")
    }
}

func oracleParse(_ bytes: [UInt8]) -> JSONValue? {
    guard let any = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
    return oracleValue(any)
}

/// Foundation's JSONSerialization on Linux does not round decimal text correctly: it was
/// seen 1-5 ULP off (e.g. "-53.53271964165755" read as -53.532719641657536), while Swift's
/// `Double(String)` (used by JSONParser) is correctly rounded. So numbers from the oracle
/// match within this relative tolerance, about 10 ULP; exact bits are checked against
/// `Double(String)` instead.
let foundationNumberTolerance = 2e-15

/// Structural equality where numbers may differ by `foundationNumberTolerance` (relative).
func nearlyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)):
        return x == y || abs(x - y) <= foundationNumberTolerance * max(abs(x), abs(y))
    case (.array(let xs), .array(let ys)):
        return xs.count == ys.count && zip(xs, ys).allSatisfy { nearlyEqual($0, $1) }
    case (.object(let xs), .object(let ys)):
        return xs.count == ys.count && xs.allSatisfy { key, x in ys[key].map { nearlyEqual(x, $0) } ?? false }
    default:
        return a == b
    }
}

@Suite("JSONParser against Foundation's JSONSerialization")
struct JSONParserOracleTests {
    static let valid: [String] = [
        "null", "true", "false", "0", "-0", "1", "-1", "1.5", "-1.5e-7", "1.5e-7", "1e5", "1E+2", "2e-3",
        "123456789012345678", "12345678901234567890", "1e-400", "0.1", "3.141592653589793",
        #""""#, #""abc""#, #""a\"b\\c\/d""#, #""\b\f\n\r\t""#, #""\u00e9\u0000\u001f""#,
        #""\ud83d\ude00""#, #""\uD83D\uDE00""#, "\"caf\u{e9} \u{1F600}\"", "\"\u{7f}\"",
        "[]", "{}", " [ 1 , 2 ] ", "\t\r\n{\"a\" : [true,false,null]}\n",
        #"{"op":"health","id":7}"#, #"{"a":{"b":{"c":[1,{"d":"e"}]}}}"#, #"{"a":1,"a":2}"#,
        #"[1,"two",3.0,[4],{"five":5}]"#, #"{"":""}"#, #"{"\u0041":"\u00e9"}"#,
    ]

    static let invalid: [String] = [
        "", " ", "[", "]", "{", "}", "[1 2]", #"{"a":1 "b":2}"#, "[1,,2]", #""\x""#, "[.5]", "[1.]",
        "[+1]", "01", "-", "-a", "1e", "1e+", "\"\t\"", "\"\n\"", "[1]x", "[NaN]", "[Infinity]", "tru", "nul",
        "fals", "'a'", "{a:1}", #"{"a"}"#, #"{"a":}"#, "1e400", "-1e400", #""\ud800""#, #""\udc00""#,
        #""\ud800\u0041""#, #""\u12""#, #""unterminated"#, "[1,2", #"{"a":1"#, "/* c */ 1",
    ]

    /// Foundation on Linux accepts trailing commas; RFC 8259 does not, and neither do we.
    static let strictWhereFoundationIsLax: [String] = ["[1,]", #"{"a":1,}"#]

    @Test("valid documents parse to the same value as JSONSerialization", arguments: valid)
    func validDocuments(text: String) throws {
        let bytes = Array(text.utf8)
        let expected = try #require(oracleParse(bytes), "oracle rejected \(text)")
        let parsed = try JSONParser.parse(bytes)
        #expect(nearlyEqual(parsed, expected), "\(parsed) vs \(expected)")
        #expect(try JSONParser.parse(text) == parsed)
    }

    @Test("invalid documents are rejected, as JSONSerialization rejects them", arguments: invalid)
    func invalidDocuments(text: String) {
        let bytes = Array(text.utf8)
        #expect(oracleParse(bytes) == nil, "oracle accepted \(text)")
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test("trailing commas are rejected although Foundation accepts them", arguments: strictWhereFoundationIsLax)
    func trailingCommas(text: String) {
        #expect(oracleParse(Array(text.utf8)) != nil)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("invalid UTF-8 inside strings is rejected", arguments: [
        [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape (the slow path)
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        #expect(oracleParse(bytes) == nil)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test("number text parses to exactly what Double(String) gives", arguments: [
        "0.1", "-53.53271964165755", "1.5e-7", "2.2250738585072014e-308", "4.9e-324", "123456789012345678",
        "0.30000000000000004", "9007199254740993", "1e23", "8.98846567431158e307",
    ])
    func exactNumbers(text: String) throws {
        let expected = try #require(Double(text))
        let parsed = try #require(try JSONParser.parse(text).doubleValue)
        #expect(parsed.bitPattern == expected.bitPattern)
    }

    @Test("numbers: -0 keeps its sign, 1.5e-7 is exact, 1e400 is out of range, underflow is 0")
    func numbers() throws {
        let negativeZero = try #require(try JSONParser.parse("-0").doubleValue)
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(try JSONParser.parse("1.5e-7") == .number(1.5e-7))
        #expect(try JSONParser.parse("-1.5E-7") == .number(-1.5e-7))
        #expect(try JSONParser.parse("1e-400") == .number(0))
        #expect(try JSONParser.parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse("[1, 1e400]") }
        #expect(error?.offset == 4)
        #expect(error?.message == "number out of range")
    }

    @Test("nesting up to maximumDepth parses, one more is refused without crashing")
    func depthLimit() throws {
        let limit = JSONParser.maximumDepth
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        }
        #expect(throws: Never.self) { try JSONParser.parse(nested(limit)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(nested(limit + 1)) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "{\"a\":", count: limit + 1)) }
        // A hostile line far deeper than any stack allows.
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "[", count: 1_000_000)) }
    }

    @Test("errors name the byte offset")
    func errorOffsets() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":tru}"#) }
        #expect(error?.offset == 5)
        #expect(error?.description.hasPrefix("invalid JSON at byte 5:") == true)
    }
}
