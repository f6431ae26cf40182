/// Client text quoted back in a message (record 0557): an id or a name a client sent may be a
/// megabyte long, and an error that echoes it in full costs the daemon that megabyte again per
/// answer and buries the sentence. Quoted text keeps its first `limit` characters and says how
/// long it was.
public enum ClientText {
    /// Characters of a quoted value kept by default.
    public static let defaultLimit = 64

    /// `text` itself when it has at most `limit` characters, else its first `limit` characters,
    /// an ellipsis and its length in UTF-8 bytes: `"aaaa…" (1048576 bytes)` reads as `aaaa…
    /// (1048576 bytes)`.
    public static func quoted(_ text: String, limit: Int = defaultLimit) -> String {
        // Counting characters is linear: look at no more than needed.
        var end = text.startIndex
        var kept = 0
        while end < text.endIndex, kept < limit {
            end = text.index(after: end)
            kept += 1
        }
        guard end < text.endIndex else { return text }
        return "\(text[..<end])… (\(text.utf8.count) bytes)"
    }
}
