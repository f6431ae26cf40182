/// A small well-formedness checker for the report's HTML (the oracle of the validity test):
/// every non-void element is closed in order, every attribute value is quoted, every `&` starts
/// an entity, and nothing points outside the file (no URLs, no src/href, no scripts, no CSS url()).
struct HTMLChecker {
    static let voidElements: Set<String> = ["meta", "br", "hr", "img", "input", "link", "col", "wbr", "source", "area", "base"]

    /// Problems found, empty when the document is well formed and self-contained.
    static func problems(_ html: String) -> [String] {
        var problems: [String] = []
        let s = Array(html.utf8)
        var stack: [String] = []
        var i = 0
        func at(_ text: String) -> Bool { s.count - i >= text.utf8.count && Array(s[i..<(i + text.utf8.count)]) == Array(text.utf8) }
        func isNameByte(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x3A }
        func name() -> String {
            let start = i
            while i < s.count && isNameByte(s[i]) { i += 1 }
            return String(decoding: s[start..<i], as: UTF8.self).lowercased()
        }
        func skipSpace() { while i < s.count && (s[i] == 0x20 || s[i] == 0x0A || s[i] == 0x09 || s[i] == 0x0D) { i += 1 } }
        var rawTextEnd: String?   // inside <style>: no tags until its end tag
        while i < s.count {
            if let end = rawTextEnd {
                if at(end) { rawTextEnd = nil } else { i += 1; continue }
            }
            if s[i] == UInt8(ascii: "&") {
                var j = i + 1
                while j < s.count && j - i < 10 && (isNameByte(s[j]) || s[j] == UInt8(ascii: "#")) { j += 1 }
                if j == i + 1 || j >= s.count || s[j] != UInt8(ascii: ";") { problems.append("bare & at byte \(i)") }
                i += 1
                continue
            }
            guard s[i] == UInt8(ascii: "<") else { i += 1; continue }
            if at("<!--") {
                var j = i + 4
                while j + 2 < s.count && !(s[j] == 0x2D && s[j + 1] == 0x2D && s[j + 2] == 0x3E) { j += 1 }
                i = j + 3
                continue
            }
            if at("<!DOCTYPE") || at("<!doctype") {
                while i < s.count && s[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                continue
            }
            i += 1
            if i < s.count && s[i] == UInt8(ascii: "/") {
                i += 1
                let tag = name()
                skipSpace()
                if i >= s.count || s[i] != UInt8(ascii: ">") { problems.append("end tag </\(tag)> not closed by >") }
                i += 1
                if let top = stack.last, top == tag { stack.removeLast() } else {
                    problems.append("end tag </\(tag)> does not match open <\(stack.last ?? "nothing")>")
                }
                continue
            }
            let tag = name()
            if tag.isEmpty { problems.append("< not starting a tag at byte \(i - 1)"); continue }
            var selfClosing = false
            while i < s.count {
                skipSpace()
                if s[i] == UInt8(ascii: ">") { i += 1; break }
                if s[i] == UInt8(ascii: "/") && i + 1 < s.count && s[i + 1] == UInt8(ascii: ">") { selfClosing = true; i += 2; break }
                let attribute = name()
                if attribute.isEmpty { problems.append("<\(tag)>: bad attribute syntax at byte \(i)"); i += 1; continue }
                if ["src", "href", "xlink:href", "action", "srcset"].contains(attribute) { problems.append("<\(tag)> has \(attribute)=: an external reference") }
                if attribute.hasPrefix("on") { problems.append("<\(tag)> has an event handler \(attribute)") }
                skipSpace()
                guard i < s.count, s[i] == UInt8(ascii: "=") else { continue }   // boolean attribute
                i += 1
                skipSpace()
                guard i < s.count, s[i] == UInt8(ascii: "\"") || s[i] == UInt8(ascii: "'") else {
                    problems.append("<\(tag) \(attribute)=…> value is not quoted")
                    continue
                }
                let quote = s[i]
                i += 1
                while i < s.count && s[i] != quote {
                    if s[i] == UInt8(ascii: "<") { problems.append("<\(tag) \(attribute)> value contains <") }
                    i += 1
                }
                i += 1
            }
            if tag == "script" { problems.append("a <script> element") }
            if tag == "style" { rawTextEnd = "</style>" }
            if !selfClosing && !voidElements.contains(tag) { stack.append(tag) }
        }
        if !stack.isEmpty { problems.append("unclosed elements: \(stack.joined(separator: " > "))") }
        for needle in ["http://", "https://", "url(", "@import", "<link", "<iframe", "<img"] where html.contains(needle) {
            problems.append("contains \(needle)")
        }
        return problems
    }
}
