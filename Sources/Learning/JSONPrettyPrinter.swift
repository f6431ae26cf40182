import RunusCore

/// Pretty-printed JSON for files people diff: sorted keys, two-space indentation, one array
/// element or object member per line, a newline at the end. Numbers and strings are written by
/// `JSONWriter.writeNumber` / `writeString`, so the values parse back exactly as `JSONWriter`'s
/// compact form does (shortest round-trip doubles). Same value, same bytes.
enum JSONPrettyPrinter {
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(value, depth: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func indent(_ depth: Int, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private static func write(_ value: JSONValue, depth: Int, into out: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(contentsOf: "[\n".utf8)
            for (i, element) in elements.enumerated() {
                indent(depth + 1, into: &out)
                write(element, depth: depth + 1, into: &out)
                out.append(contentsOf: (i + 1 < elements.count ? ",\n" : "\n").utf8)
            }
            indent(depth, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            out.append(contentsOf: "{\n".utf8)
            let keys = members.keys.sorted()
            for (i, key) in keys.enumerated() {
                indent(depth + 1, into: &out)
                JSONWriter.writeString(key, into: &out)
                out.append(contentsOf: ": ".utf8)
                write(members[key]!, depth: depth + 1, into: &out)
                out.append(contentsOf: (i + 1 < keys.count ? ",\n" : "\n").utf8)
            }
            indent(depth, into: &out)
            out.append(UInt8(ascii: "}"))
        default:
            // Scalars and empty containers ("[]", "{}") exactly as the compact writer prints them.
            JSONWriter.write(value, into: &out)
        }
    }
}
