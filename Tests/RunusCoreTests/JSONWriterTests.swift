import Foundation
import Testing
@testable import RunusCore

/// Random JSON values from a fixed seed: nested containers, strings with escapes, controls,
/// non-ASCII and astral characters, and doubles from random bit patterns.
struct RandomJSON {
    var rng: SeededGenerator
    static let alphabet: [String] = ["a", "Z", "0", "_", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}",
                                     "\u{1f}", "\u{7f}", "\u{e9}", "\u{2028}", "\u{FFFF}", "\u{1F600}", "\u{10FFFF}"]

    mutating func string() -> String {
        (0..<rng.int(in: 0...8)).map { _ in Self.alphabet[rng.int(in: 0...Self.alphabet.count - 1)] }.joined()
    }

    mutating func number() -> Double {
        switch rng.int(in: 0...3) {
        case 0: return Double(rng.int(in: -1_000_000...1_000_000))
        case 1: return rng.uniform(-1000, 1000)
        default:
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return d }
            }
        }
    }

    mutating func value(depth: Int) -> JSONValue {
        let kind = rng.int(in: 0...(depth > 3 ? 3 : 5))
        switch kind {
        case 0: return rng.bernoulli(0.5) ? .null : .bool(rng.bernoulli(0.5))
        case 1, 2: return .number(number())
        case 3: return .string(string())
        case 4: return .array((0..<rng.int(in: 0...4)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<rng.int(in: 0...4) { members[string()] = value(depth: depth + 1) }
            return .object(members)
        }
    }
}

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("random values re-parse to themselves, and JSONSerialization reads the same value")
    func roundTrip() throws {
        var random = RandomJSON(rng: SeededGenerator(seed: 0x5EED_0500))
        for _ in 0..<500 {
            let value = random.value(depth: 0)
            let bytes = JSONWriter.bytes(value)
            #expect(try JSONParser.parse(bytes) == value)
            let oracle = try #require(oracleParse(bytes), "Foundation rejected \(JSONWriter.string(value))")
            #expect(nearlyEqual(oracle, value), "\(JSONWriter.string(value))")
            #expect(JSONWriter.bytes(try JSONParser.parse(bytes)) == bytes)  // stable bytes
        }
    }

    @Test("object keys come out sorted at every level")
    func sortedKeys() {
        let value: JSONValue = ["b": 1, "a": 2, "B": ["z": 1, "y": 2, "_": 3], "a0": true, "": nil]
        #expect(JSONWriter.string(value) == #"{"":null,"B":{"_":3,"y":2,"z":1},"a":2,"a0":true,"b":1}"#)
    }

    @Test("key order is UTF-8 byte order for random keys")
    func keyOrderMatchesBytes() throws {
        var random = RandomJSON(rng: SeededGenerator(seed: 0x5EED_0501))
        for _ in 0..<200 {
            var members: [String: JSONValue] = [:]
            for i in 0..<6 { members[random.string()] = .number(Double(i)) }
            let text = JSONWriter.bytes(.object(members))
            let expected = members.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            // Read the keys back in written order with Foundation-free scanning: re-parse each
            // key by writing it alone and finding it in sequence.
            var position = 0
            for key in expected {
                var encoded: [UInt8] = []
                JSONWriter.writeString(String(decoding: key, as: UTF8.self), into: &encoded)
                encoded.append(UInt8(ascii: ":"))
                let found = try #require(firstRange(of: encoded, in: text, from: position), "key \(key)")
                position = found
            }
        }
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], Array(haystack[i..<i + needle.count]) == needle { return i + needle.count }
            i += 1
        }
        return nil
    }

    @Test("escapes: quote, backslash, the short forms and \\u00XX for other controls; the rest is raw UTF-8")
    func escapes() throws {
        #expect(JSONWriter.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.string("\n\r\t") == #""\n\r\t""#)
        #expect(JSONWriter.string("\u{0}\u{8}\u{c}\u{1f}") == #""\u0000\u0008\u000c\u001f""#)
        #expect(JSONWriter.string("/\u{7f}\u{e9}\u{1F600}") == "\"/\u{7f}\u{e9}\u{1F600}\"")
        for scalar in 0..<0x20 {
            let s = String(UnicodeScalar(UInt8(scalar)))
            #expect(try JSONParser.parse(JSONWriter.bytes(.string(s))) == .string(s))
        }
    }

    @Test("surrogate pairs: a \\u escape pair parses to the astral character, written back as raw UTF-8")
    func surrogatePairs() throws {
        let parsed = try JSONParser.parse(#""\ud83d\ude00 \uD834\uDD1E""#)
        #expect(parsed == .string("\u{1F600} \u{1D11E}"))
        #expect(JSONWriter.bytes(parsed) == Array("\"\u{1F600} \u{1D11E}\"".utf8))
    }

    @Test("numbers print in a fixed form and re-parse to the same bits", arguments: [
        (5000.0, "5000"), (-5.0, "-5"), (0.1, "0.1"), (1.5e-7, "1.5e-07"), (1e-7, "1e-07"),
        (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992.0"),
        (1e21, "1e+21"), (0.30000000000000004, "0.30000000000000004"), (5e-324, "5e-324"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    ])
    func numbers(value: Double, text: String) throws {
        #expect(JSONWriter.string(.number(value)) == text)
        let back = try #require(try JSONParser.parse(text).doubleValue)
        #expect(back.bitPattern == value.bitPattern)
    }

    @Test("-0 is written as 0 (as JavaScript's JSON.stringify does); the value compares equal")
    func negativeZero() throws {
        #expect(JSONWriter.string(.number(-0.0)) == "0")
        #expect(try JSONParser.parse(JSONWriter.bytes(.number(-0.0))) == .number(-0.0))
    }

    @Test("random finite doubles survive write and parse bit for bit (except the sign of zero)")
    func doubleBits() throws {
        var rng = SeededGenerator(seed: 0x5EED_0502)
        var checked = 0
        while checked < 5000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite, d != 0 else { continue }
            checked += 1
            let back = try #require(try JSONParser.parse(JSONWriter.bytes(.number(d))).doubleValue)
            #expect(back.bitPattern == d.bitPattern, "\(d)")
        }
    }
}
