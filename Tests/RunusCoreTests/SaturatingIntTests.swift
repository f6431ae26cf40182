import Testing
@testable import RunusCore

@Suite("conversions that cannot trap")
struct SaturatingIntTests {
    static let bound = Int.saturationBound
    static let cases: [(Double, Int)] = [
        (0, 0), (-0.0, 0), (2.9, 2), (-2.9, -2), (1e15, 1_000_000_000_000_000),
        (9.1e15, bound), (-9.1e15, -bound), (Double.infinity, bound), (-Double.infinity, -bound),
        (Double.nan, 0), (Double.greatestFiniteMagnitude, bound), (Double.leastNonzeroMagnitude, 0),
    ]

    @Test("Int(saturating:) truncates like Int(_:) in range, clamps beyond ±2^53, and maps NaN to 0", arguments: cases)
    func saturating(x: Double, expected: Int) {
        #expect(Int(saturating: x) == expected)
        if x.isFinite, abs(x) < Double(Int.saturationBound) { #expect(Int(saturating: x) == Int(x)) }
    }

    @Test("clamped(to:nan:) keeps finite values in range, clamps the rest, replaces NaN")
    func clamped() {
        #expect(2.5.clamped(to: 0...10, nan: 7) == 2.5)
        #expect((-1.0).clamped(to: 0...10, nan: 7) == 0)
        #expect(Double.infinity.clamped(to: 0...10, nan: 7) == 10)
        #expect(Double.nan.clamped(to: 0...10, nan: 7) == 7)
    }

    @Test("formatters take any number: non-finite and huge values give text, not a trap (found 2026-12-01)")
    func formatters() {
        for x in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            #expect(!Pace.format(x).isEmpty)
            #expect(!DistanceFormat.kilometres(x).isEmpty)
            #expect(!DistanceFormat.duration(x).isEmpty)
            #expect(!DistanceFormat.metres(x).isEmpty)
            _ = CivilDate(instant: x, utcOffset: 0)
        }
        #expect(DistanceFormat.metres(40.4) == "40 m" && DistanceFormat.metres(5000) == "5.0 km")
    }

    @Test("JSONWriter writes NaN and ±∞ as null, as JSON.stringify does, and the line parses")
    func nonFiniteNumbers() throws {
        let value: JSONValue = ["a": .number(.nan), "b": .number(.infinity), "c": .array([.number(-.infinity), 1.5])]
        let text = JSONWriter.string(value)
        #expect(text == #"{"a":null,"b":null,"c":[null,1.5]}"#)
        #expect(try JSONParser.parse(Array(text.utf8)) == ["a": nil, "b": nil, "c": [nil, 1.5]])
    }
}

@Suite("FNV-1a")
struct FNV1aTests {
    @Test("the published 64-bit test vectors, and bytes added one way or another hash alike")
    func vectors() {
        #expect(FNV1a.hex(of: []) == "cbf29ce484222325")
        #expect(FNV1a.hex(of: Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(FNV1a.hex(of: Array("foobar".utf8)) == "85944171f73967e8")
        var h = FNV1a()
        h.add(littleEndian: 0x0102_0304_0506_0708)
        #expect(h.hex == FNV1a.hex(of: [8, 7, 6, 5, 4, 3, 2, 1]))
    }
}
