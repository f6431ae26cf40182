/// A string that is equal to another only when their UTF-8 bytes are, and hashed by them:
/// how SQLite and PostgreSQL compare text. Swift's `String` equality is canonical equivalence,
/// so "jos\u{E9}" and "jose\u{301}" are one `String` key but two users in a store; keys of
/// in-memory state that stands for stored rows use this (record 0545).
public struct ExactText: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }

    public static func == (a: ExactText, b: ExactText) -> Bool { same(a.text, b.text) }

    /// Whether two texts are one by their UTF-8 bytes (what `==` on `ExactText` says).
    public static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
        hasher.combine(text.utf8.count)
    }

    public var description: String { text }
}
