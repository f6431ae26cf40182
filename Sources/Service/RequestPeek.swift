/// The top-level `"op"` and `"user"` members of a request line, found by a scan that parses
/// nothing else (record 0545). Only plain strings are found: a member whose value is not a
/// string, or whose string holds an escape, is passed over, and so is anything after the first
/// syntax error. What it finds is a hint (for reading ahead), never what a request is answered
/// from: the router parses every line in full.
struct RequestPeek: Equatable {
    var op: String?
    var user: String?

    init(op: String? = nil, user: String? = nil) {
        self.op = op
        self.user = user
    }

    init(_ line: [UInt8]) {
        self.init()
        line.withUnsafeBufferPointer { bytes in
            var scan = Scanner(bytes: bytes)
            scan.members { key, value in
                if op == nil, key.elementsEqual(Self.opKey) { op = value }
                if user == nil, key.elementsEqual(Self.userKey) { user = value }
                return op == nil || user == nil
            }
        }
    }

    private static let opKey = Array("op".utf8)
    private static let userKey = Array("user".utf8)

    /// A cursor over one line; every read is bounds-checked.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var current: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { at += 1 }
        }

        /// Calls `visit` with each top-level member's key bytes and its value when that is a
        /// plain string (else nil) until it returns false, the object ends, or the text is not
        /// JSON.
        mutating func members(_ visit: (ArraySlice<UInt8>, String?) -> Bool) {
            skipSpace()
            guard current == UInt8(ascii: "{") else { return }
            at += 1
            skipSpace()
            if current == UInt8(ascii: "}") { return }
            while true {
                skipSpace()
                guard let (key, keyEscaped) = string() else { return }
                skipSpace()
                guard current == UInt8(ascii: ":") else { return }
                at += 1
                skipSpace()
                var value: String?
                if current == UInt8(ascii: "\"") {
                    guard let (text, escaped) = string() else { return }
                    value = escaped ? nil : String(validating: text, as: UTF8.self)
                } else {
                    guard skipValue() else { return }
                }
                if !keyEscaped, !visit(key, value) { return }
                skipSpace()
                guard current == UInt8(ascii: ",") else { return }
                at += 1
            }
        }

        /// A string's content bytes (escapes left as they are) and whether it holds one; nil
        /// when no string starts here or it never ends.
        mutating func string() -> (ArraySlice<UInt8>, Bool)? {
            guard current == UInt8(ascii: "\"") else { return nil }
            at += 1
            let start = at
            var escaped = false
            while let c = current {
                if c == UInt8(ascii: "\\") {
                    escaped = true
                    at += 2
                    continue
                }
                if c == UInt8(ascii: "\"") {
                    let content = ArraySlice(bytes[start..<at])
                    at += 1
                    return (content, escaped)
                }
                at += 1
            }
            return nil
        }

        /// Steps over one non-string value (number, literal, object, array, nested strings
        /// included); false when the text ends first.
        mutating func skipValue() -> Bool {
            var depth = 0
            while let c = current {
                switch c {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }  // the end of the request object
                    depth -= 1
                    if depth == 0 { at += 1; return true }
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default:
                    break
                }
                at += 1
            }
            return false
        }
    }
}
