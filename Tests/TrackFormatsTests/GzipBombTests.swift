import Foundation
import Testing
@testable import TrackFormats

/// A gzip member of `count` zero bytes at deflate's best ratio (~1,032:1), written by hand
/// (one dynamic-Huffman block: a literal 0, then length-258 matches at distance 1, each coded in
/// 2 bits), independent of zlib as `GzipOracle` is. 900 MiB of zeros take 915 KB: the bomb of
/// issue 22, built in milliseconds.
enum ZeroBomb {
    static func gzip(count: Int) -> [UInt8] {
        precondition(count >= 1, "a zero bomb holds at least one byte")
        var bits = BitWriter()
        bits.write(1, bits: 1)  // BFINAL
        bits.write(2, bits: 2)  // BTYPE = dynamic Huffman
        bits.write(29, bits: 5)  // HLIT: 286 literal/length codes (0...285)
        bits.write(0, bits: 5)  // HDIST: 1 distance code
        bits.write(15, bits: 4)  // HCLEN: all 19 code-length code lengths (keeps the bit count even)
        // Code-length alphabet: 18 (a run of zeros) in 1 bit, 1 and 2 in 2 bits.
        let clLengths: [Int: UInt32] = [18: 1, 1: 2, 2: 2]
        for symbol in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15] {
            bits.write(clLengths[symbol] ?? 0, bits: 3)
        }
        let cl18: (UInt32, Int) = (0b0, 1), cl1: (UInt32, Int) = (0b10, 2), cl2: (UInt32, Int) = (0b11, 2)
        // Literal/length code lengths: 0 → 2, 1...255 → none, 256 → 2, 257...284 → none, 285 → 1;
        // then the one distance code (distance 1) → 1.
        bits.code(cl2)
        bits.code(cl18); bits.write(138 - 11, bits: 7)
        bits.code(cl18); bits.write(117 - 11, bits: 7)
        bits.code(cl2)
        bits.code(cl18); bits.write(28 - 11, bits: 7)
        bits.code(cl1)
        bits.code(cl1)
        // Canonical codes: 285 → 0, literal 0 → 10, end of block → 11; distance 1 → 0.
        let literalZero: (UInt32, Int) = (0b10, 2), endOfBlock: (UInt32, Int) = (0b11, 2)
        bits.code(literalZero)
        var matches = (count - 1) / 258
        let literals = (count - 1) % 258
        // A match is length code 285 then distance code 0: two zero bits, four to a byte. Every
        // code here is 2 bits and the header even, so two-bit steps reach a byte boundary.
        precondition(bits.pendingBits % 2 == 0, "the header must leave an even bit count")
        while matches > 0, bits.pendingBits != 0 { bits.write(0, bits: 2); matches -= 1 }
        bits.appendZeroBytes(matches / 4)
        for _ in 0..<(matches % 4) { bits.write(0, bits: 2) }
        for _ in 0..<literals { bits.code(literalZero) }
        bits.code(endOfBlock)
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        out += bits.bytes
        for v in [crc32OfZeros(count), UInt32(truncatingIfNeeded: count)] {
            out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        }
        return out
    }

    /// CRC-32 of `n` zero bytes without touching n bytes: a zero byte maps the CRC register
    /// linearly (over GF(2)), so the n-byte map is the 1-byte map raised to n by squaring, as
    /// zlib's `crc32_combine` does.
    static func crc32OfZeros(_ n: Int) -> UInt32 {
        typealias Map = [UInt32]  // column i: the image of bit i
        func apply(_ map: Map, _ vector: UInt32) -> UInt32 {
            var result: UInt32 = 0
            for i in 0..<32 where vector >> i & 1 != 0 { result ^= map[i] }
            return result
        }
        var power: Map = (0..<32).map { i in
            var c = UInt32(1) << i
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
            return c
        }
        var register: UInt32 = 0xFFFF_FFFF
        var k = n
        while k > 0 {
            if k & 1 != 0 { register = apply(power, register) }
            power = power.map { apply(power, $0) }
            k >>= 1
        }
        return ~register
    }
}

/// Deflate's bit order: fields least significant bit first, Huffman codes most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    /// Bits already used in the last byte, 0...7.
    private(set) var pendingBits = 0

    mutating func write(_ value: UInt32, bits count: Int) {
        for i in 0..<count { bit(value >> i & 1) }
    }

    mutating func code(_ code: (value: UInt32, length: Int)) {
        for i in stride(from: code.length - 1, through: 0, by: -1) { bit(code.value >> i & 1) }
    }

    /// Byte-aligned only (unless `count` is 0).
    mutating func appendZeroBytes(_ count: Int) {
        guard count > 0 else { return }
        precondition(pendingBits == 0, "appendZeroBytes needs a byte boundary")
        bytes += repeatElement(0, count: count)
    }

    private mutating func bit(_ b: UInt32) {
        if pendingBits == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(b) << pendingBits
        pendingBits = (pendingBits + 1) % 8
    }
}

/// The process's resident set, from /proc/self/status (Linux).
enum ResidentMemory {
    /// `VmRSS` or `VmHWM` (the peak), in bytes; nil when unreadable.
    static func read(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kB = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kB.map { $0 * 1024 }
        }
        return nil
    }

    /// Resets `VmHWM` to the current RSS (writing 5 to /proc/self/clear_refs, Linux 4.0+).
    static func resetPeak() -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        do { try file.write(contentsOf: Data("5".utf8)) } catch { return false }
        return read("VmHWM") != nil
    }
}

@Suite("gzip decompression bombs")
struct GzipBombTests {
    /// The bomb of issue 22: ~917 KB that inflate to 900 MiB.
    static let bombBytes = 900 << 20
    /// How long refusing it may take. Inflating the 64 MiB the floor allows takes ~0.1 s here;
    /// inflating it all took 9 s before the limit was checked while streaming.
    static let refusalTime: Duration = .seconds(1)
    /// Extra peak memory refusing it may take: the 64 MiB floor, the input and zlib's window,
    /// with room for the test's neighbours. It took 1.9 GB before.
    static let refusalMemory = 100_000_000

    @Test("the zero bomb builder writes valid gzip: zlib inflates it to exactly the zeros, CRC and size checked")
    func builderIsValid() throws {
        for count in [1, 257, 258, 259, 1_000, 3 << 20 + 123] {
            let gz = ZeroBomb.gzip(count: count)
            #expect(try Gzip.decompress(gz, name: "zeros-\(count).gz") == [UInt8](repeating: 0, count: count))
        }
        // Deflate's ceiling ratio (258 bytes per 2 bits, ~1,032:1).
        #expect(ZeroBomb.gzip(count: Self.bombBytes).count < 1_000_000)
    }

    @Test("CRC-32 of zeros by squaring agrees with the bytewise oracle", arguments: [0, 1, 2, 7, 8, 255, 1_000, 65_537])
    func crcOfZeros(n: Int) {
        #expect(ZeroBomb.crc32OfZeros(n) == GzipOracle.crc32([UInt8](repeating: 0, count: n)))
    }

    @Test("a 917 KB gzip of 900 MiB is refused as too large in under a second and 100 MB, naming the file")
    func bombRefusedEarly() throws {
        let bomb = ZeroBomb.gzip(count: Self.bombBytes)
        let before = try #require(ResidentMemory.read("VmRSS"))
        #expect(ResidentMemory.resetPeak(), "cannot reset VmHWM through /proc/self/clear_refs")
        let started = ContinuousClock.now
        var caught: TrackReadError?
        do {
            _ = try TrackFileReader.read(bomb, name: "bomb.gpx.gz")
        } catch {
            caught = error
        }
        let elapsed = ContinuousClock.now - started
        let peak = try #require(ResidentMemory.read("VmHWM"))
        let error = try #require(caught, "a 900 MiB bomb was accepted")
        #expect(error.problem == .tooLarge)
        #expect(error.description.hasPrefix("bomb.gpx.gz: "), "\(error)")
        #expect(error.description.contains("decompression bomb"), "\(error)")
        #expect(elapsed < Self.refusalTime, "refusing took \(elapsed)")
        #expect(peak - before < Self.refusalMemory, "refusing took \(peak - before) bytes more than the \(before) before")
    }

    @Test("the ratio counts compressed bytes read so far; the floor lets small outputs of any ratio through")
    func ratioAndFloor() throws {
        let limits = Gzip.Limits(floorBytes: 1 << 20, maximumRatio: 100, absoluteBytes: 1 << 30)
        // 4 MiB of zeros: ~1,000:1, past the 1 MiB floor → refused.
        #expect {
            try Gzip.decompress(ZeroBomb.gzip(count: 4 << 20), name: "z.gz", limits: limits)
        } throws: { ($0 as? TrackReadError)?.problem == .tooLarge }
        // The same ratio under the floor passes.
        #expect(try Gzip.decompress(ZeroBomb.gzip(count: 1 << 20), name: "z.gz", limits: limits).count == 1 << 20)
        // 4 MiB stored (1:1) passes: the ratio, not the size, is what the floor guards.
        let plain = [UInt8]((0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(try Gzip.decompress(GzipOracle.gzipStored(plain), name: "s.gz", limits: limits) == plain)
        // The absolute cap holds whatever the ratio.
        let capped = Gzip.Limits(floorBytes: 1 << 20, maximumRatio: 100, absoluteBytes: 2 << 20)
        #expect {
            try Gzip.decompress(GzipOracle.gzipStored(plain), name: "s.gz", limits: capped)
        } throws: { ($0 as? TrackReadError)?.problem == .tooLarge }
    }

    @Test("allowed output: floor, ratio × consumed, absolute cap; no overflow")
    func allowed() {
        let limits = Gzip.Limits(floorBytes: 1_000, maximumRatio: 100, absoluteBytes: 1_000_000)
        #expect(limits.allowed(afterConsuming: 0) == 1_000)
        #expect(limits.allowed(afterConsuming: 50) == 5_000)
        #expect(limits.allowed(afterConsuming: 20_000) == 1_000_000)
        #expect(limits.allowed(afterConsuming: Int.max) == 1_000_000)
    }
}
