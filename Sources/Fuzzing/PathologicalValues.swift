import RunusCore

/// The values a parameter is replaced with (record 0540): extremes a number can take on the
/// wire, numbers that are not JSON, strings that stress ids and storage, and every wrong type.
public enum PathologicalValues {
    /// Number texts the parser accepts: signed zeros, subnormals, the largest doubles, integers
    /// past 2^53 and past Int64, exponent spellings.
    public static let numbers: [String] = [
        "0", "-0", "-0.0", "0e0", "-0E-0", "1", "-1", "0.5", "1.5", "2", "3", "10", "59", "61", "86399", "86401",
        "1e308", "-1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "1e-320", "-1e-320",
        "4.9e-324", "2.2250738585072014e-308", "9007199254740993", "9007199254740992", "-9007199254740993",
        "18446744073709551616", "123456789012345678901234567890", "2147483648", "-2147483649",
        "1E+2", "0.000000000000000000000000000000000000001", "100000000000", "1e11", "99999999999.9",
        "1790000000", "4102444800", "-86400", "1e-7", "360", "-180.0000001", "90.00000001", "1439", "1440",
    ]

    /// Number-like texts that are not JSON (the answer must be `bad_json`).
    public static let brokenNumbers: [String] = [
        "NaN", "nan", "Infinity", "-Infinity", "inf", "1e309", "-1e400", "01", "-", "+1", "1.", ".5", "1e", "1e+",
        "0x10", "1_000", "٣", "１", "1.0.0", "--1", "1e5e5", "1e+400000000000",
    ]

    /// Strings for ids, names, dates and enums.
    public static let strings: [String] = [
        "", " ", "a", "x", "\u{0}", "a\u{0}b", "\u{1}\u{1F}\u{7F}", "é", "e\u{301}", "🏃‍♀️", "🏃🏽‍♂️🏁", "\u{202E}gnp.exe",
        "\u{2028}\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "日本語のランナー", "عداء",
        ":", "-", "::", "a:b", "a-b", "a:b-c", "12-01", "2026:12-01", "bob:2026", "runner-0001", "runner-0001:watch-42",
        "2026-12-01", "2026-02-30", "2026-13-01", "0000-01-01", "9999-12-31", "-2026-01-01", "2026-1-1", "20261201",
        "UTC", "Etc/GMT+12", "Pacific/Kiritimati", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu", "Mars/Olympus",
        "../../etc/passwd", "%s%n%x", "' OR 1=1 --", "\"", "\\", "\\u0000", "null", "true", "0", "[]", "{}",
        "day", "week", "month", "f", "m", "x", "F", "health", "race-1", "race-0", "race-999999",
        String(repeating: "a", count: 128), String(repeating: "a", count: 129), String(repeating: "é", count: 64),
        String(repeating: "é", count: 65), String(repeating: "🏃", count: 80), String(repeating: "🏃", count: 81),
        String(repeating: "x", count: 260), String(repeating: "x", count: 261), String(repeating: "z", count: 10_000),
    ]

    /// Escape sequences written raw inside quotes that JSON accepts: a surrogate pair, NUL,
    /// every short escape.
    public static let validEscapes: [String] = ["\"\\ud83c\\udfc3\"", "\"\\u0000\"", "\"\\/\\b\\f\\n\\r\\t\"", "\"a\\\"b\""]

    /// Escape sequences written raw inside quotes: lone surrogates, NUL, every short escape.
    public static let escapedStrings: [String] = [
        "\"\\ud800\"", "\"\\udfff\"", "\"\\ud83c\\udfc3\"", "\"\\u0000\"", "\"\\u00\"", "\"\\x41\"", "\"\\/\\b\\f\\n\\r\\t\"",
        "\"\\uD800\\u0041\"", "\"a\\\"b\"", "\"\\U0041\"",
    ]

    /// Raw bytes for a string's inside (written between quotes unescaped).
    public static let rawStringBytes: [[UInt8]] = [
        [0x00], [0x61, 0x00, 0x62], [0x0A], [0x0D], [0x09], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF, 0xFE], [0xEF, 0xBB, 0xBF], [0x1B, 0x5B, 0x32, 0x4A],
    ]

    /// Values of every JSON type, for a parameter that wants another.
    public static let wrongTypes: [RawJSON] = [
        .raw("null"), .raw("true"), .raw("false"), .array([]), .object([]), .array([.raw("1"), .raw("2")]),
        .object([("a", .raw("1"))]), .string(""), .string("5000"), .raw("0"), .raw("-1"), .array([.array([.array([])])]),
        .object([("kind", .string("distance"))]), .array([.string("x")]),
    ]

    /// A random number text: mostly accepted spellings, sometimes broken ones.
    public static func number(_ g: inout SeededGenerator) -> (text: String, isJSON: Bool) {
        if g.bernoulli(0.1) { return (brokenNumbers[g.int(in: 0...(brokenNumbers.count - 1))], false) }
        if g.bernoulli(0.3) { return (String(g.uniform(-1e6, 1e6)), true) }
        return (numbers[g.int(in: 0...(numbers.count - 1))], true)
    }

    /// A random pathological value for any parameter: numbers, strings, escapes, raw bytes,
    /// wrong types and deep nesting.
    public static func any(_ g: inout SeededGenerator) -> RawJSON {
        switch g.int(in: 0...9) {
        case 0, 1, 2: return .raw(number(&g).text)
        case 3, 4: return .string(strings[g.int(in: 0...(strings.count - 1))])
        case 5: return .raw(escapedStrings[g.int(in: 0...(escapedStrings.count - 1))])
        case 6: return .bytes(rawStringBytes[g.int(in: 0...(rawStringBytes.count - 1))])
        case 7, 8: return wrongTypes[g.int(in: 0...(wrongTypes.count - 1))]
        default: return nested(depth: [1, 10, 100, 126, 127, 128, 129, 1000][g.int(in: 0...7)], g.bernoulli(0.5))
        }
    }

    /// `[[[…]]]` or `{"a":{"a":…}}` nested `depth` levels.
    public static func nested(depth: Int, _ objects: Bool) -> RawJSON {
        let open = objects ? "{\"a\":" : "["
        let close = objects ? "}" : "]"
        let core = objects ? "1" : ""
        return .raw(String(repeating: open, count: depth) + core + String(repeating: close, count: depth))
    }

    /// A pick from `list`.
    public static func pick<T>(_ list: [T], _ g: inout SeededGenerator) -> T { list[g.int(in: 0...(list.count - 1))] }
}
