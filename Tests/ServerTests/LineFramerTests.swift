import RunusCore
import Testing
@testable import Server

@Suite("LineFramer")
struct LineFramerTests {
    /// Oracle: split the whole stream on LF with the standard library, drop a final CR from
    /// each line, and keep only lines that were terminated.
    static func oracle(_ stream: [UInt8], limit: Int) -> (lines: [[UInt8]], tooLong: Bool) {
        var pieces = stream.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let unterminated = pieces.removeLast()
        var lines: [[UInt8]] = []
        for var piece in pieces {
            if piece.last == 0x0D { piece.removeLast() }
            if piece.count > limit { return (lines, true) }
            lines.append(piece)
        }
        // An unterminated tail is too long only if no ending could make it fit.
        let tail = unterminated.count - (unterminated.last == 0x0D ? 1 : 0)
        return (lines, tail > limit)
    }

    static func frame(_ stream: [UInt8], chunk: Int, limit: Int) -> (lines: [[UInt8]], tooLong: Bool) {
        var framer = LineFramer(maximumLineBytes: limit)
        var lines: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + chunk)
            framer.append(contentsOf: stream[offset..<end])
            offset = end
            while let frame = framer.next() {
                switch frame {
                case .line(let line): lines.append(Array(line))
                case .tooLong: return (lines, true)
                }
            }
        }
        return (lines, false)
    }

    /// Streams with LF, CRLF, lone CRs inside lines, empty lines, lines exactly at and one
    /// over the limit, and unterminated tails.
    static let streams: [String] = [
        "", "a", "a\n", "\n\n\r\n", "abc\r\ndef\nghi", "x\ry\r\n", "0123456789\n", "0123456789\r\n",
        "01234567890\n", "0123456789\r", "0123456789x", "short\n0123456789\r\nlonger-than-ten\n",
        "a\nbb\r\nccc\n\r\n\r\r\n0123456789", "0123456789\r\r\n",
    ]

    @Test("framing matches a split oracle at every chunk size", arguments: streams)
    func everyChunkSize(stream: String) {
        let bytes = Array(stream.utf8)
        let limit = 10
        let expected = Self.oracle(bytes, limit: limit)
        for chunk in 1...max(1, bytes.count) {
            let got = Self.frame(bytes, chunk: chunk, limit: limit)
            #expect(got.lines == expected.lines, "chunk \(chunk)")
            #expect(got.tooLong == expected.tooLong, "chunk \(chunk)")
        }
    }

    @Test("random streams frame the same at every chunk size")
    func randomStreams() {
        var rng = SeededGenerator(seed: 20261129)
        let alphabet: [UInt8] = [0x61, 0x62, 0x0A, 0x0D, 0x7B]
        for _ in 0..<200 {
            let length = rng.int(in: 0...59)
            let bytes = (0..<length).map { _ in alphabet[rng.int(in: 0...alphabet.count - 1)] }
            let limit = rng.int(in: 1...8)
            let expected = Self.oracle(bytes, limit: limit)
            for chunk in 1...max(1, bytes.count) {
                let got = Self.frame(bytes, chunk: chunk, limit: limit)
                #expect(got.lines == expected.lines && got.tooLong == expected.tooLong,
                        "stream \(bytes) limit \(limit) chunk \(chunk)")
            }
        }
    }

    @Test("a long stream of lines does not keep consumed bytes")
    func compaction() {
        var framer = LineFramer(maximumLineBytes: 100)
        for i in 0..<10_000 {
            framer.append(contentsOf: Array("line \(i)\n".utf8))
            #expect(framer.next() == .line(ArraySlice("line \(i)".utf8)))
            #expect(framer.next() == nil)
        }
        #expect(framer.bufferedByteCount == 0)
    }

    /// The allocator may round a requested capacity up (malloc's usable size, a page for big
    /// blocks); never down.
    static let allocatorRounding = 4096 + 64

    @Test("capacity(afterAppending:) predicts the growth append makes, and growth stops near the line limit")
    func predictedCapacity() {
        var framer = LineFramer(maximumLineBytes: 1 << 20, retainedCapacity: 64 << 10)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
        for _ in 0..<16 {  // a 1 MiB partial line, one read at a time
            let predicted = framer.capacity(afterAppending: chunk.count)
            framer.append(contentsOf: chunk)
            #expect(framer.capacity >= predicted && framer.capacity <= predicted + Self.allocatorRounding)
            #expect(framer.next() == nil)
        }
        // Never more than the longest pending line plus one read.
        #expect(framer.capacity <= (1 << 20) + 1 + chunk.count + Self.allocatorRounding)
    }

    @Test("capacity beyond the retained amount is given back once the big line is consumed")
    func capacityReturned() {
        var framer = LineFramer(maximumLineBytes: 4 << 20, retainedCapacity: 64 << 10)
        framer.append(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20) + [0x0A] + Array("par".utf8))
        #expect(framer.capacity >= 4 << 20)
        guard case .line(let line)? = framer.next() else { Issue.record("no line"); return }
        #expect(line.count == 4 << 20)
        #expect(framer.next() == nil)  // waiting for the rest of "par…": memory goes back now
        #expect(framer.capacity <= 64 << 10)
        framer.append(contentsOf: Array("tial\n".utf8))
        #expect(framer.next() == .line(ArraySlice("partial".utf8)))
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 0 && framer.capacity <= 64 << 10)
    }
}

