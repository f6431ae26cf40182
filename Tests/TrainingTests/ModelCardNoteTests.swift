import Testing
import RunusCore
import Training

/// `runus train --card-note`: the "Why this model" section and the notes it refuses.
@Suite("model card note")
struct ModelCardNoteTests {
    @Test("the note becomes a section; CRLF and surrounding blank lines do not change it")
    func section() throws {
        let plain = try ModelCard.noteSection(Array("LR ships: ahead by person.\n\n- log loss 0.409\n".utf8), source: "n.md")
        #expect(plain == "\n## Why this model\n\n\(ModelCard.provenance)\n\nLR ships: ahead by person.\n\n- log loss 0.409\n")
        let windows = try ModelCard.noteSection(Array("\r\n  \r\nLR ships: ahead by person.\r\n\r\n- log loss 0.409".utf8), source: "n.md")
        #expect(windows == plain)
        let tabs = try ModelCard.noteSection(Array("| a |\tb |\nécart σ".utf8), source: "n.md")
        #expect(tabs.hasSuffix("| a |\tb |\nécart σ\n"))
    }

    @Test("a blank, oversized, non-UTF-8 or control-character note is refused, naming the file and the value")
    func refusals() {
        func message(_ bytes: [UInt8]) -> String? {
            do { _ = try ModelCard.noteSection(bytes, source: "why.md"); return nil } catch { return "\(error)" }
        }
        #expect(message(Array(" \n\t\n".utf8)) == "why.md: the note is blank")
        #expect(message([]) == "why.md: the note is blank")
        #expect(message([0x4C, 0xFF, 0x52]) == "why.md: not UTF-8 text")
        #expect(message(Array("ok\u{0}".utf8)) == "why.md: control character U+0000 at character 3")
        #expect(message(Array("a\rb".utf8)) == "why.md: control character U+000D at character 2")
        #expect(message(Array("a\u{1B}[31m".utf8)) == "why.md: control character U+001B at character 2")
        let limit = ModelCard.noteMaximumBytes
        #expect(message([UInt8](repeating: 0x61, count: limit)) == nil)
        #expect(message([UInt8](repeating: 0x61, count: limit + 1)) == "why.md: more than \(limit) bytes; a card note is at most \(limit)")
    }

    @Test("fuzz: 5,000 random notes (seed 25) either give a section of clean text or a NoteError, never a trap")
    func fuzz() {
        var rng = SeededGenerator(seed: 25)
        // Bytes drawn mostly from printable ASCII and newlines, with control bytes, CR and
        // UTF-8 lead and continuation bytes mixed in, so every branch is reached.
        let alphabet: [UInt8] = Array(0x20...0x7E) + [0x0A, 0x0A, 0x0D, 0x09, 0x00, 0x1B, 0x7F, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xFF]
        var sections = 0, refused = 0
        for _ in 0..<5_000 {
            let count = rng.int(in: 0...(rng.bernoulli(0.01) ? ModelCard.noteMaximumBytes + 8 : 200))
            let bytes = (0..<count).map { _ in alphabet[rng.int(in: 0...(alphabet.count - 1))] }
            do {
                let section = try ModelCard.noteSection(bytes, source: "fuzz.md")
                sections += 1
                #expect(section.hasPrefix("\n## Why this model\n\n\(ModelCard.provenance)\n\n"))
                #expect(section.hasSuffix("\n") && !section.hasSuffix("\n\n"))
                #expect(!section.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
            } catch is ModelCard.NoteError {
                refused += 1
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        // Both outcomes are exercised (a fuzz that only ever refuses tests nothing).
        #expect(sections > 100 && refused > 100, "sections \(sections), refused \(refused)")
    }
}
