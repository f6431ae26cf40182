/// Parse errors name the byte offset and what was expected.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// 0-based byte offset in the input.
    public let offset: Int
    public let message: String
    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

/// A strict RFC 8259 parser working on UTF-8 bytes (no `String`/`Character` splitting).
/// Depth is bounded so that a hostile line cannot overflow the stack.
public struct JSONParser {
    public static let maximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The top-level member whose value's position is wanted (`parse(_:locatingMember:)`).
    private let memberToLocate: String?
    private var locatedSpan: Range<Int>?

    private init(_ bytes: UnsafeBufferPointer<UInt8>, locating member: String? = nil) {
        self.bytes = bytes
        self.memberToLocate = member
    }

    /// Parses one complete JSON text (surrounding white space allowed).
    public static func parse<C: Collection>(_ input: C) throws -> JSONValue where C.Element == UInt8 {
        if let result = try input.withContiguousStorageIfAvailable({ try parseBuffer($0) }) { return result }
        return try Array(input).withUnsafeBufferPointer { try parseBuffer($0) }
    }

    public static func parse(_ text: String) throws -> JSONValue {
        var copy = text
        return try copy.withUTF8 { try parseBuffer($0) }
    }

    /// Parses like `parse`, and says where the value of the top-level object's member `key`
    /// lies in `input`: 0-based byte offsets of its first and past its last byte (white space
    /// around it excluded). With a repeated key, the last one, as in the parsed object. `span`
    /// is nil when the text is not an object or has no such member. The daemon echoes a
    /// request's `id` from these bytes (record 0502).
    public static func parse<C: Collection>(_ input: C, locatingMember key: String) throws -> (value: JSONValue, span: Range<Int>?)
    where C.Element == UInt8 {
        if let result = try input.withContiguousStorageIfAvailable({ try parseBufferLocating($0, key) }) { return result }
        return try Array(input).withUnsafeBufferPointer { try parseBufferLocating($0, key) }
    }

    private static func parseBuffer(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = JSONParser(buffer)
        return try parser.parseText()
    }

    private static func parseBufferLocating(_ buffer: UnsafeBufferPointer<UInt8>, _ key: String) throws -> (value: JSONValue, span: Range<Int>?) {
        var parser = JSONParser(buffer, locating: key)
        let value = try parser.parseText()
        return (value, parser.locatedSpan)
    }

    private mutating func parseText() throws -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected trailing data") }
        return value
    }

    private func error(_ message: String) -> JSONParseError { JSONParseError(offset: index, message: message) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Self.printable(bytes[index]))', expected a value")
        }
    }

    private static func printable(_ b: UInt8) -> String {
        (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("truncated literal, expected \(literal)") }
        let start = literal.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] {
            throw error("invalid literal, expected \(literal)")
        }
        index += count
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth)") }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enter(); defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key in object")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
            index += 1
            skipWhitespace()
            let valueStart = index
            members[key] = try parseValue()
            if depth == 1, let memberToLocate, key == memberToLocate { locatedSpan = valueStart..<index }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}' in object")
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try enter(); defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']' in array")
        }
    }

    private mutating func parseString() throws -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                try validateUTF8(start..<index)
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("control character in string") }
            index += 1
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid code point") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("invalid escape '\\\(Self.printable(e))'")
                }
            default:
                if b < 0x20 { throw error("control character in string") }
                out.append(b)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private func validateUTF8(_ range: Range<Int>) throws {
        var ascii = true
        for i in range where bytes[i] >= 0x80 { ascii = false; break }
        if ascii { return }
        if String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) == nil {
            throw JSONParseError(offset: range.lowerBound, message: "invalid UTF-8 in string")
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("truncated number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        } else {
            throw error("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw error("expected digits in exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(offset: start, message: "number out of range")
        }
        return value
    }
}
