import RunusCore
import Testing
@testable import Server

/// `LineFramer.peekLines`: what a round preparation is shown (record 0545).
@Suite("LineFramer peek")
struct LineFramerPeekTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test("peeking shows the complete non-blank lines next() will return, without consuming them")
    func peekMatchesNext() {
        var framer = LineFramer(maximumLineBytes: 64)
        framer.append(contentsOf: Self.bytes("a\r\n\nbb\n\r\nccc\ndd"))
        let peeked = framer.peekLines(limit: 10, maximumBytes: 64)
        #expect(peeked == [Self.bytes("a"), Self.bytes("bb"), Self.bytes("ccc")])
        #expect(framer.peekLines(limit: 10, maximumBytes: 64) == peeked, "peeking changed the framer")
        var next: [[UInt8]] = []
        while next.count < 10, case .line(let line)? = framer.next() {
            if !line.isEmpty { next.append(Array(line)) }
        }
        #expect(next == peeked)
        // The unfinished "dd" is shown once it ends.
        framer.append(contentsOf: Self.bytes("\n"))
        #expect(framer.peekLines(limit: 10, maximumBytes: 64) == [Self.bytes("dd")])
    }

    @Test("the limit counts lines whether shown or not; long lines are skipped, blank ones not counted")
    func limitsAndLongLines() {
        var framer = LineFramer(maximumLineBytes: 8)
        framer.append(contentsOf: Self.bytes("one\n\nlonger\nxyz\nfour\nfive\n"))
        #expect(framer.peekLines(limit: 3, maximumBytes: 4) == [Self.bytes("one"), Self.bytes("xyz")])
        #expect(framer.peekLines(limit: 0, maximumBytes: 4) == [])
        // Over the framer's own limit: next() refuses it, so it is never shown.
        var strict = LineFramer(maximumLineBytes: 3)
        strict.append(contentsOf: Self.bytes("abcd\nab\n"))
        #expect(strict.peekLines(limit: 5, maximumBytes: 100) == [Self.bytes("ab")])
    }

    @Test("every chunking of a seeded random stream shows what next() then returns")
    func randomStreams() {
        var random = SeededGenerator(seed: 545)
        let alphabet: [UInt8] = [0x61, 0x62, 0x0A, 0x0D, 0x20]
        for _ in 0..<200 {
            let stream = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            var framer = LineFramer(maximumLineBytes: 1000)
            framer.append(contentsOf: stream)
            let peeked = framer.peekLines(limit: 1000, maximumBytes: 1000)
            var next: [[UInt8]] = []
            while case .line(let line)? = framer.next() { if !line.isEmpty { next.append(Array(line)) } }
            #expect(peeked == next, "stream \(stream)")
        }
    }
}
