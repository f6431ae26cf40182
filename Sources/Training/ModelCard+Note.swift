/// A note the trainer adds to a model card: why this model was chosen (issue 25 item 5: the
/// shipped default's card says why LR ships), passed as a file to `runus train --card-note`.
extension ModelCard {
    /// Longest note accepted, bytes: a few paragraphs, not a document.
    public static let noteMaximumBytes = 16 * 1024

    /// The section's first line: the note is the trainer's text, and reproducing the card needs it.
    public static let provenance = "_Given to `runus train --card-note`, not computed by this training run._"

    /// Why a note file cannot go into a card; the message names the file and the bad value.
    public struct NoteError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The card section "## Why this model" holding `bytes`, the contents of `source` (or its
    /// first `noteMaximumBytes` + 1 bytes: more is refused without reading the rest): UTF-8
    /// Markdown without control characters other than tab and newline (CRLF line ends are read
    /// as LF), at most `noteMaximumBytes`, not blank. Leading and trailing blank lines are
    /// dropped, so the section is the same whatever the file's last line ends with.
    public static func noteSection(_ bytes: [UInt8], source: String) throws -> String {
        guard bytes.count <= noteMaximumBytes else {
            throw NoteError(description: "\(source): more than \(noteMaximumBytes) bytes; a card note is at most \(noteMaximumBytes)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw NoteError(description: "\(source): not UTF-8 text")
        }
        let normalised = text.replacing("\r\n", with: "\n")
        if let bad = normalised.unicodeScalars.enumerated().first(where: { isForbidden($0.element) }) {
            let hex = String(bad.element.value, radix: 16, uppercase: true)
            throw NoteError(description: "\(source): control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) at character \(bad.offset + 1)")
        }
        var lines = normalised.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        while let first = lines.first, isBlank(first) { lines.removeFirst() }
        while let last = lines.last, isBlank(last) { lines.removeLast() }
        guard !lines.isEmpty else { throw NoteError(description: "\(source): the note is blank") }
        return "\n## Why this model\n\n" + provenance + "\n\n" + lines.joined(separator: "\n") + "\n"
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != "\n", scalar != "\t" else { return false }
        return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
}
