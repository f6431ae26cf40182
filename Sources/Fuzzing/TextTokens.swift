/// Numbers and timestamps in track text (GPX, TCX, CSV, GeoJSON), found by a byte scan, for
/// the numeric-field mutations: a number is `-?digits[.digits][e±digits]` not glued to a letter
/// or another number; a timestamp is `YYYY-MM-DDTHH:MM:SS` and what follows it up to a quote,
/// `<`, comma or white space.
public enum TextTokens {
    public enum Kind: Sendable { case number, timestamp }

    /// Byte ranges of the tokens, in order.
    public static func scan(_ b: [UInt8]) -> [(range: Range<Int>, kind: Kind)] {
        func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
        func glued(_ i: Int) -> Bool {
            guard i >= 0, i < b.count else { return false }
            let c = b[i]
            return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2E || (c >= 0x30 && c <= 0x39)
        }
        var out: [(Range<Int>, Kind)] = []
        var i = 0
        while i < b.count {
            let startsNumber = digit(i) || (b[i] == 0x2D && digit(i + 1))
            guard startsNumber, !glued(i - 1) else { i += 1; continue }
            let start = i
            // Timestamp: 4 digits, '-', 2 digits, '-', 2 digits, 'T'.
            if digit(i), i + 10 < b.count, (0..<4).allSatisfy({ digit(i + $0) }), b[i + 4] == 0x2D, b[i + 7] == 0x2D, b[i + 10] == 0x54 {
                var j = i + 11
                while j < b.count, ![0x22, 0x27, 0x3C, 0x2C, 0x20, 0x0A, 0x0D, 0x09].contains(b[j]) { j += 1 }
                out.append((start..<j, .timestamp))
                i = j
                continue
            }
            if b[i] == 0x2D { i += 1 }
            while digit(i) { i += 1 }
            if i < b.count, b[i] == 0x2E, digit(i + 1) { i += 1; while digit(i) { i += 1 } }
            if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
                var j = i + 1
                if j < b.count, b[j] == 0x2B || b[j] == 0x2D { j += 1 }
                if digit(j) { i = j; while digit(i) { i += 1 } }
            }
            if !glued(i) || (i < b.count && b[i] == 0x2E && !digit(i + 1)) { out.append((start..<i, .number)) }
            while glued(i) { i += 1 }
        }
        return out
    }

    /// Replacements for a number: extremes, non-finite spellings, garbage, huge digit runs.
    public static let numberReplacements: [String] = PathologicalValues.numbers + PathologicalValues.brokenNumbers + [
        "", "NaN", "-nan", "inf", "-inf", "1e999", "-1e999", "0x1p3", "1e-400", String(repeating: "9", count: 400),
        "0." + String(repeating: "0", count: 400) + "1", "1" + String(repeating: "0", count: 30), "-", "e5", "1,5", " 1 ", "١٢",
    ]

    /// Replacements for a timestamp: the epoch, the far future, impossible dates and times,
    /// odd offsets and fractions, dates alone, garbage.
    public static let timestampReplacements: [String] = [
        "1970-01-01T00:00:00Z", "1989-12-31T00:00:00Z", "9999-12-31T23:59:59Z", "0000-00-00T00:00:00Z",
        "2024-02-30T25:61:61Z", "2024-05-01T06:00:60Z", "2024-05-01T06:00:00.999999999999999999999Z",
        "2024-05-01T06:00:00+14:00", "2024-05-01T06:00:00-99:99", "2024-05-01T06:00:00+0530", "2024-05-01", "2024-05-01T06:00:00",
        "", "-2024-05-01T00:00:00Z", "2024-05-01T06:00:00.Z", "2024-05-01t06:00:00z", "1e308", "2024-05-01T06:00:00.0000001Z",
        "2262-04-11T23:47:16Z", "1677-09-21T00:12:43Z", "2038-01-19T03:14:08Z", "2024-05-01T06:00:00ZZ", "9999999999-01-01T00:00:00Z",
    ]
}
