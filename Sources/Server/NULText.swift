import RunusCore

/// U+0000 in request text (record 0544): no string of a request, value or key, may hold it,
/// except inside the request's `id` (echoed as sent, never stored).
/// PostgreSQL text cannot (a value with it fails as SQLSTATE 22021), and a runner made on SQLite
/// with one could never be copied there; so both stores' daemons refuse it alike, at the door,
/// naming where it was.
enum NULText {
    /// Raw lines hold U+0000 only as the escape `\u0000` (JSON refuses the raw byte), so a line
    /// without these bytes needs no walk.
    static let escape: [UInt8] = Array(#"\u0000"#.utf8)

    /// Whether `line` may hold U+0000 (a cheap scan; false positives: `\\u0000`).
    static func mayHold<C: Collection>(_ line: C) -> Bool where C.Element == UInt8 {
        var matched = 0
        for byte in line {
            if byte == escape[matched] {
                matched += 1
                if matched == escape.count { return true }
            } else {
                matched = byte == escape[0] ? 1 : 0
            }
        }
        return false
    }

    /// The path of the first string (or member name) in `value` that holds U+0000, as
    /// `user`, `points[3]` or `profile.name`; nil when none does. Members in sorted order, so the
    /// path named is the same every time.
    static func path(in value: JSONValue, at prefix: String = "") -> String? {
        switch value {
        case .string(let s):
            return s.utf8.contains(0) ? (prefix.isEmpty ? "(the request)" : prefix) : nil
        case .array(let items):
            for (i, item) in items.enumerated() {
                if let found = path(in: item, at: "\(prefix)[\(i)]") { return found }
            }
            return nil
        case .object(let members):
            // The request's own `id` is echoed byte for byte and never stored: any JSON value.
            for key in members.keys.sorted() where !(prefix.isEmpty && key == "id") {
                let here = prefix.isEmpty ? key : "\(prefix).\(key)"
                if key.utf8.contains(0) { return prefix.isEmpty ? "(a member name)" : "\(prefix) (a member name)" }
                if let member = members[key], let found = path(in: member, at: here) { return found }
            }
            return nil
        case .null, .bool, .number:
            return nil
        }
    }
}
