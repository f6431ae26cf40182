import RunusCore

/// Malformed lines made from well-formed ones (record 0540): truncated JSON, invalid UTF-8, raw
/// NUL and control bytes, CR/LF variants and blank lines, deep nesting, huge strings and keys,
/// values that are not objects, missing or mistyped `op`, several requests on one line.
/// Corruptions start after the leading `{"id":…,` so the id an answer echoes stays readable.
public enum LineCorruptor {
    public static let families = [
        "truncated", "invalid-utf8", "raw-control-bytes", "crlf-variants", "blank-lines", "deep-nesting", "huge-string",
        "many-keys", "not-an-object", "bad-op", "two-requests-one-line", "byte-flip", "duplicate-keys", "bom", "whitespace",
        "broken-number",
    ]

    /// A malformed variant of `request` (an object written with `id` first), as a whole line
    /// with its terminator(s), and the family name.
    public static func corrupt(_ request: RawJSON, scale: Double = 1, _ g: inout SeededGenerator) -> (bytes: [UInt8], family: String) {
        let text = request.encoded
        let keep = idPrefixLength(text)
        let family = PathologicalValues.pick(families, &g)
        var out: [UInt8]
        switch family {
        case "truncated":
            out = Array(text[0..<g.int(in: keep...max(keep, text.count - 1))])
        case "invalid-utf8":
            out = text
            let bad = PathologicalValues.pick(PathologicalValues.rawStringBytes.filter { $0.contains { $0 >= 0x80 } }, &g)
            out.insert(contentsOf: bad, at: g.int(in: keep...text.count))
        case "raw-control-bytes":
            out = text
            for _ in 0..<g.int(in: 1...4) {
                let b = UInt8(g.int(in: 0...31))
                out.insert(b == 0x0A ? 0 : b, at: g.int(in: keep...out.count))
            }
        case "crlf-variants":
            let variants: [[UInt8]] = [[0x0D, 0x0A], [0x0D, 0x0D, 0x0A], [0x0A, 0x0D, 0x0A], [0x0D, 0x0A, 0x0D, 0x0A], [0x0A, 0x0A]]
            out = text + PathologicalValues.pick(variants, &g)
            if g.bernoulli(0.3) { out.insert(0x0D, at: g.int(in: keep...text.count)) }
            return (out + (out.last == 0x0A ? [] : [0x0A]), family)
        case "blank-lines":
            return (PathologicalValues.pick([[0x0A], [0x0D, 0x0A], [0x20, 0x0A], [0x09, 0x0A], [0x0D, 0x0D, 0x0A], [0x0A, 0x0A, 0x0A]], &g), family)
        case "deep-nesting":
            let depth = PathologicalValues.pick([64, 126, 127, 128, 129, 5000, 100_000], &g)
            out = Array(text.dropLast()) + Array(",\"deep\":".utf8) + PathologicalValues.nested(depth: depth, g.bernoulli(0.5)).encoded + [0x7D]
        case "huge-string":
            // Mostly 64 KiB; 1 and 3 MiB now and then (each is megabytes through the socket).
            let size = Int(Double(PathologicalValues.pick([65_536, 65_536, 65_536, 65_536, 65_536, 65_536, 65_536, 65_536, 1 << 20, 3 << 20], &g)) * scale)
            out = Array(text.dropLast()) + Array(",\"huge\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: size) + Array("\"}".utf8)
        case "many-keys":
            var extra: [UInt8] = []
            for k in 0..<Int(Double(g.int(in: 100...20_000)) * scale) { extra += Array(",\"k\(k)\":\(k)".utf8) }
            out = Array(text.dropLast()) + extra + [0x7D]
        case "not-an-object":
            out = PathologicalValues.any(&g).encoded
            out.removeAll { $0 == 0x0A }
        case "bad-op":
            let op: RawJSON = g.bernoulli(0.5) ? PathologicalValues.any(&g) : .string(PathologicalValues.pick(badOps, &g))
            var members = request.members.filter { $0.0 != "op" }
            if g.bernoulli(0.85) { members.insert(("op", op), at: min(1, members.count)) }
            out = RawJSON.object(members).encoded
            out.removeAll { $0 == 0x0A }
        case "two-requests-one-line":
            out = text + (g.bernoulli(0.5) ? [] : [0x20, 0x0D]) + text
        case "byte-flip":
            out = text
            for _ in 0..<g.int(in: 1...3) where out.count > keep {
                let i = g.int(in: keep...(out.count - 1))
                out[i] ^= UInt8(1 << g.int(in: 0...7))
            }
            out = out.map { $0 == 0x0A ? 0x20 : $0 }
        case "duplicate-keys":
            let members = request.members
            guard let extra = members.dropFirst(2).first ?? members.last else { return (text + [0x0A], family) }
            out = RawJSON.object(members + [(extra.0, PathologicalValues.any(&g))]).encoded
            out.removeAll { $0 == 0x0A }
        case "bom":
            out = [0xEF, 0xBB, 0xBF] + text
        case "whitespace":
            let ws: [[UInt8]] = [[0x20], [0x09], [0x0D], [0x20, 0x20, 0x20], [0x0C], [0xC2, 0xA0]]
            out = PathologicalValues.pick(ws, &g) + text + PathologicalValues.pick(ws, &g)
        default:  // broken-number
            out = Array(text.dropLast()) + Array(",\"n\":\(PathologicalValues.pick(PathologicalValues.brokenNumbers, &g))}".utf8)
        }
        return (out + [0x0A], family)
    }

    /// Operation names that are not registered (case, white space, NUL, prefixes, look-alikes).
    public static let badOps = ["", " health", "health ", "HEALTH", "Health", "health\u{0}", "health\n", "heal", "healthz",
                                "runs", "runs.", ".ingest", "runs..ingest", "runs.ingest.x", "missions.*", "race.", "aüth",
                                "model.reload\u{200B}", "stats\u{FEFF}", "__proto__", "constructor", "op", "auth "]

    /// Bytes of `{"id":<value>,` at the start of `text` (or 1 for just `{`); kept intact.
    static func idPrefixLength(_ text: [UInt8]) -> Int {
        let head = Array("{\"id\":".utf8)
        guard text.count > head.count, Array(text[0..<head.count]) == head else { return min(1, text.count) }
        // The id value ends at the first comma at depth 0 outside strings.
        var depth = 0, inString = false, escaped = false
        for i in head.count..<text.count {
            let b = text[i]
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x5B, 0x7B: depth += 1
            case 0x5D, 0x7D: depth -= 1
            case 0x2C where depth == 0: return i + 1
            default: break
            }
        }
        return min(1, text.count)
    }
}
