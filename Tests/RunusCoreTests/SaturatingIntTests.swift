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
