/// A small pull tokenizer for the XML that track files use, over raw bytes (no DOM, no String).
///
/// It reports start tags (with their attributes left unparsed until asked), end tags and text;
/// it skips the XML declaration, processing instructions, comments, DOCTYPE and reads CDATA as
/// text. Names are compared by their local part (after any `prefix:`), so namespace prefixes,
/// declared or not, never matter: some exporters use an undeclared prefix and strict parsers
/// reject those files. End tags must match their start tags (by qualified name) and the input
/// must close every element; otherwise `next()` throws with the byte offset. Entities are not
/// expanded (track values are numbers and instants, which never contain one).
struct XMLScanner {
    enum Event { case start, end, text, eof }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    /// Qualified-name ranges of the open elements.
    private var open: [(start: Int, end: Int)] = []
    /// Local name of the current start or end tag: `bytes[nameStart..<nameEnd]`.
    private(set) var nameStart = 0, nameEnd = 0
    /// Attribute text of the current start tag.
    private(set) var attributesStart = 0, attributesEnd = 0
    /// The current start tag closes itself (`<a/>`): an `.end` event follows at once.
    private(set) var selfClosing = false
    private var pendingEnd = false
    /// Text of the current `.text` event (trimmed of nothing; CDATA markers removed).
    private(set) var textStart = 0, textEnd = 0
    /// Offset of the current event's first byte.
    private(set) var eventOffset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var p = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { p = 3 }  // UTF-8 BOM
        position = p
        open.reserveCapacity(16)
    }

    /// Depth of open elements (0 outside the root).
    var depth: Int { open.count }

    /// True when the current tag's local name is `name` (ASCII).
    @inline(__always)
    func nameIs(_ name: StaticString) -> Bool {
        equal(nameStart, nameEnd, name)
    }

    @inline(__always)
    func equal(_ start: Int, _ end: Int, _ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard end - start == n else { return false }
        let p = name.utf8Start
        var i = 0
        while i < n {
            if bytes[start + i] != p[i] { return false }
            i += 1
        }
        return true
    }

    /// The value range of the attribute whose local name is `name` in the current start tag.
    func attribute(_ name: StaticString) -> (start: Int, end: Int)? {
        var i = attributesStart
        let e = attributesEnd
        while i < e {
            while i < e, ByteNumbers.isSpace(bytes[i]) { i += 1 }
            if i >= e { break }
            let qStart = i
            while i < e, bytes[i] != UInt8(ascii: "="), !ByteNumbers.isSpace(bytes[i]) { i += 1 }
            let qEnd = i
            while i < e, bytes[i] != UInt8(ascii: "=") { i += 1 }
            i += 1
            while i < e, ByteNumbers.isSpace(bytes[i]) { i += 1 }
            guard i < e else { return nil }
            let quote = bytes[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            i += 1
            let vStart = i
            while i < e, bytes[i] != quote { i += 1 }
            let vEnd = i
            i += 1
            var local = qStart
            var k = qStart
            while k < qEnd { if bytes[k] == UInt8(ascii: ":") { local = k + 1 }; k += 1 }
            if equal(local, qEnd, name) { return (vStart, vEnd) }
        }
        return nil
    }

    /// Advances to the next start tag, end tag or non-blank text.
    mutating func next() throws(ReadFailure) -> Event {
        if pendingEnd {
            pendingEnd = false
            open.removeLast()
            return .end
        }
        let n = bytes.count
        while position < n {
            eventOffset = position
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                var blank = true
                while position < n, bytes[position] != UInt8(ascii: "<") {
                    if blank, !ByteNumbers.isSpace(bytes[position]) { blank = false }
                    position += 1
                }
                if blank || open.isEmpty { continue }
                textStart = start; textEnd = position
                return .text
            }
            // A markup construct.
            guard position + 1 < n else { throw ReadFailure(.truncated, at: position, "input ends inside a tag") }
            let c = bytes[position + 1]
            if c == UInt8(ascii: "?") {
                position = try skip(past: "?>", from: position + 2, what: "processing instruction")
                continue
            }
            if c == UInt8(ascii: "!") {
                if has("<!--", at: position) {
                    position = try skip(past: "-->", from: position + 4, what: "comment")
                    continue
                }
                if has("<![CDATA[", at: position) {
                    let start = position + 9
                    position = try skip(past: "]]>", from: start, what: "CDATA section")
                    if open.isEmpty { continue }
                    textStart = start; textEnd = position - 3
                    return .text
                }
                position = try skipDeclaration(from: position + 2)
                continue
            }
            if c == UInt8(ascii: "/") {
                let qStart = position + 2
                var i = qStart
                while i < n, bytes[i] != UInt8(ascii: ">"), !ByteNumbers.isSpace(bytes[i]) { i += 1 }
                let qEnd = i
                while i < n, bytes[i] != UInt8(ascii: ">") { i += 1 }
                guard i < n else { throw ReadFailure(.truncated, at: eventOffset, "input ends inside an end tag") }
                guard let top = open.last else {
                    throw ReadFailure(.malformed, at: eventOffset, "end tag </\(string(qStart, qEnd))> without a start tag")
                }
                guard sameBytes(top.start, top.end, qStart, qEnd) else {
                    throw ReadFailure(.malformed, at: eventOffset,
                                      "expected </\(string(top.start, top.end))>, found </\(string(qStart, qEnd))>")
                }
                open.removeLast()
                setLocalName(qStart, qEnd)
                position = i + 1
                return .end
            }
            // Start tag.
            let qStart = position + 1
            var i = qStart
            while i < n, bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/"), !ByteNumbers.isSpace(bytes[i]) { i += 1 }
            let qEnd = i
            guard qEnd > qStart else { throw ReadFailure(.malformed, at: eventOffset, "expected an element name after '<'") }
            attributesStart = i
            var quote: UInt8 = 0
            while i < n {
                let b = bytes[i]
                if quote != 0 { if b == quote { quote = 0 } }
                else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
                else if b == UInt8(ascii: ">") { break }
                else if b == UInt8(ascii: "<") {
                    throw ReadFailure(.malformed, at: i, "'<' inside the tag <\(string(qStart, qEnd))>")
                }
                i += 1
            }
            guard i < n else { throw ReadFailure(.truncated, at: eventOffset, "input ends inside the tag <\(string(qStart, qEnd))>") }
            selfClosing = bytes[i - 1] == UInt8(ascii: "/") && i - 1 >= attributesStart
            attributesEnd = selfClosing ? i - 1 : i
            setLocalName(qStart, qEnd)
            open.append((qStart, qEnd))
            pendingEnd = selfClosing
            position = i + 1
            return .start
        }
        eventOffset = n
        if let top = open.last {
            throw ReadFailure(.truncated, at: n, "input ends before </\(string(top.start, top.end))>")
        }
        return .eof
    }

    private mutating func setLocalName(_ qStart: Int, _ qEnd: Int) {
        var local = qStart
        var k = qStart
        while k < qEnd { if bytes[k] == UInt8(ascii: ":") { local = k + 1 }; k += 1 }
        nameStart = local; nameEnd = qEnd
    }

    private func has(_ literal: StaticString, at offset: Int) -> Bool {
        let m = literal.utf8CodeUnitCount
        guard offset + m <= bytes.count else { return false }
        return equal(offset, offset + m, literal)
    }

    private func skip(past terminator: StaticString, from start: Int, what: String) throws(ReadFailure) -> Int {
        let m = terminator.utf8CodeUnitCount
        let first = terminator.utf8Start[0]
        var i = start
        while i + m <= bytes.count {
            if bytes[i] == first, equal(i, i + m, terminator) { return i + m }
            i += 1
        }
        throw ReadFailure(.truncated, at: eventOffset, "input ends inside a \(what)")
    }

    /// Skips `<!DOCTYPE …>` including an internal subset in brackets.
    private func skipDeclaration(from start: Int) throws(ReadFailure) -> Int {
        var i = start, bracket = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "[") { bracket += 1 }
            else if b == UInt8(ascii: "]") { bracket -= 1 }
            else if b == UInt8(ascii: ">") && bracket <= 0 { return i + 1 }
            i += 1
        }
        throw ReadFailure(.truncated, at: eventOffset, "input ends inside a declaration")
    }

    private func sameBytes(_ a: Int, _ aEnd: Int, _ b: Int, _ bEnd: Int) -> Bool {
        guard aEnd - a == bEnd - b else { return false }
        var i = 0
        while i < aEnd - a { if bytes[a + i] != bytes[b + i] { return false }; i += 1 }
        return true
    }

    /// The bytes as text for messages (lossy UTF-8, at most 40 bytes).
    func string(_ start: Int, _ end: Int) -> String {
        let e = min(end, start + 40, bytes.count)
        guard start < e else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<e]), as: UTF8.self)
    }
}
