import RunusCore

/// A JSON text built from pieces, so that the fuzzer can write what `JSONWriter` never would:
/// `-0`, `1e-320`, `9007199254740993`, `1E+308`, duplicate keys, keys in any order, lone
/// surrogate escapes, raw control bytes, invalid UTF-8 inside a string, or text that is not JSON
/// at all. Requests are written with `id` first and `op` second, so that a corruption of the
/// rest of the line leaves the echoed id readable.
public indirect enum RawJSON: Sendable, Equatable {
    /// Written as it is: a number's text, a literal, or deliberately broken text.
    case raw(String)
    /// A finite number in `JSONWriter`'s form.
    case double(Double)
    /// A string, escaped as `JSONWriter` escapes it.
    case string(String)
    /// A string whose bytes go between the quotes unescaped (raw NUL, invalid UTF-8).
    case bytes([UInt8])
    case array([RawJSON])
    /// Members in this order; a key may repeat.
    case object([(String, RawJSON)])

    public static func == (a: RawJSON, b: RawJSON) -> Bool { a.encoded == b.encoded }

    /// A finite number in `JSONWriter`'s form.
    public static func number(_ x: Double) -> RawJSON {
        precondition(x.isFinite, "RawJSON.number: \(x) is not finite; use .raw for broken numbers")
        return .double(x)
    }

    /// Any `JSONValue`, as `JSONWriter` writes it.
    public static func value(_ v: JSONValue) -> RawJSON { .raw(JSONWriter.string(v)) }

    /// The text's bytes (no terminator).
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(into: &out)
        return out
    }

    public func write(into out: inout [UInt8]) {
        switch self {
        case .raw(let text): out.append(contentsOf: text.utf8)
        case .double(let x): JSONWriter.writeNumber(x, into: &out)
        case .string(let s): JSONWriter.writeString(s, into: &out)
        case .bytes(let b):
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: b)
            out.append(UInt8(ascii: "\""))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                e.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The members of an object (empty for anything else).
    public var members: [(String, RawJSON)] {
        if case .object(let m) = self { return m }
        return []
    }

    /// This object with `key` set to `value` (replaced in place when present, else appended).
    public func setting(_ key: String, _ value: RawJSON) -> RawJSON {
        var m = members
        if let i = m.firstIndex(where: { $0.0 == key }) { m[i].1 = value } else { m.append((key, value)) }
        return .object(m)
    }

    /// This object without `key`.
    public func removing(_ key: String) -> RawJSON { .object(members.filter { $0.0 != key }) }

    /// A request line's object: `id` first, `op` second, then the parameters.
    public static func request(id: RawJSON?, op: String, _ parameters: [(String, RawJSON)]) -> RawJSON {
        var m: [(String, RawJSON)] = []
        if let id { m.append(("id", id)) }
        m.append(("op", .string(op)))
        m.append(contentsOf: parameters)
        return .object(m)
    }
}
