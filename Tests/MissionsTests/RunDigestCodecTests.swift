import Testing
import RunusCore
@testable import Missions

/// The stored form of run digests (record 0648): what is written reads back bit for bit, and
/// bytes from the store that this version did not write read as nothing, never a trap.
@Suite("run digest codec")
struct RunDigestCodecTests {
    static let digest = RunDigest(start: 1_760_000_000.000_000_1, bestEfforts: [1000: 271.3, 5000: 0.1 + 0.2, 400: 61],
                                  cells: [GridCell(row: -3, column: Int32.max), GridCell(row: Int32.min, column: 0), GridCell(row: 7, column: -1)])

    @Test("a digest, one without cells or efforts, and no digest read back exactly")
    func roundTrip() throws {
        let empty = RunDigest(start: 0, bestEfforts: [:], cells: [])
        for digest in [Self.digest, empty] {
            let decoded = try #require(RunDigestCodec.decode(RunDigestCodec.encode(digest)))
            #expect(decoded == digest)
            #expect(decoded?.start.bitPattern == digest.start.bitPattern)
            #expect(decoded?.bestEfforts[5000]?.bitPattern == digest.bestEfforts[5000]?.bitPattern)
        }
        let none = RunDigestCodec.decode(RunDigestCodec.encode(nil))
        #expect(none != nil && none! == nil)
    }

    @Test("truncated, extended, another version, impossible numbers or counts: nil")
    func hostileBytes() {
        let good = RunDigestCodec.encode(Self.digest)
        for length in 0..<good.count { #expect(RunDigestCodec.decode(Array(good.prefix(length))) == nil, "prefix \(length)") }
        #expect(RunDigestCodec.decode(good + [0]) == nil)
        #expect(RunDigestCodec.decode(RunDigestCodec.encode(nil) + [0]) == nil)
        var otherVersion = good
        otherVersion[0] = RunDigestCodec.version &+ 1
        #expect(RunDigestCodec.decode(otherVersion) == nil)
        var flag = good
        flag[1] = 2
        #expect(RunDigestCodec.decode(flag) == nil)
        for bad in [Double.nan, .infinity, -1, 0] {
            let digest = RunDigest(start: 1, bestEfforts: [1000: bad], cells: [])
            #expect(RunDigestCodec.decode(RunDigestCodec.encode(digest)) == nil, "effort \(bad)")
        }
        #expect(RunDigestCodec.decode(RunDigestCodec.encode(RunDigest(start: .nan, bestEfforts: [:], cells: []))) == nil)
        // A cell count far beyond the bytes that follow.
        let header = RunDigestCodec.encode(RunDigest(start: 1, bestEfforts: [:], cells: []))
        #expect(RunDigestCodec.decode(Array(header.dropLast(4)) + [0xff, 0xff, 0xff, 0xff]) == nil)
    }

    /// A digest with its surges (record 0658): written in version 2.
    static let withSurges = RunDigest(start: 1_760_000_000, bestEfforts: [1000: 250], cells: [GridCell(row: 1, column: 2)],
                                      surges: [19.5, 61, 30, 12])

    @Test("surges: version 2 reads back exactly (longest first, under 18 s dropped); version 1 reads with surges unknown")
    func surges() throws {
        #expect(Self.withSurges.surges == [61, 30, 19.5])
        let bytes = RunDigestCodec.encode(Self.withSurges)
        #expect(bytes[0] == 2)
        let decoded = try #require(RunDigestCodec.decode(bytes))
        #expect(decoded == Self.withSurges)
        #expect(decoded?.surgeCount(atLeast: 20) == 3 && decoded?.surgeCount(atLeast: 45) == 1 && decoded?.surgeCount(atLeast: 90) == 0)
        // No surge found is known, and stays known.
        let none = RunDigest(start: 1, bestEfforts: [:], cells: [], surges: [])
        #expect(try #require(RunDigestCodec.decode(RunDigestCodec.encode(none)))?.surges == [])
        // What version 1 wrote (a store of the version before): the same digest, surges unknown.
        let v1 = RunDigestCodec.encode(Self.digest)
        #expect(v1[0] == 1)
        let old = try #require(RunDigestCodec.decode(v1))
        #expect(old == Self.digest && old?.surges == nil && old?.surgeCount(atLeast: 20) == nil)
        // Version 2 bytes cut anywhere, a surge count beyond the bytes, or an impossible surge: nil.
        for length in 0..<bytes.count { #expect(RunDigestCodec.decode(Array(bytes.prefix(length))) == nil, "prefix \(length)") }
        #expect(RunDigestCodec.decode(bytes + [0]) == nil)
        var count = bytes
        count[count.count - 3 * 8 - 1] = 4
        #expect(RunDigestCodec.decode(count) == nil)
        for bad: Double in [.nan, -Double.infinity, -5, 0] {
            var hostile = Array(bytes.dropLast(8))
            withUnsafeBytes(of: bad.bitPattern.littleEndian) { hostile.append(contentsOf: $0) }
            #expect(RunDigestCodec.decode(hostile) == nil, "surge \(bad)")
        }
    }

    @Test("seeded random bytes from a digest of either version never trap and, when they decode, encode back to themselves",
          arguments: [(1, UInt64(648)), (2, UInt64(658))])
    func randomBytes(version: Int, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let good = RunDigestCodec.encode(version == 1 ? Self.digest : Self.withSurges)
        #expect(good[0] == UInt8(version))
        for _ in 0..<5_000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] = UInt8.random(in: 0...255, using: &rng)
            }
            if let decoded = RunDigestCodec.decode(bytes), let digest = decoded {
                #expect(RunDigestCodec.decode(RunDigestCodec.encode(digest)) == decoded)
            }
        }
    }
}
