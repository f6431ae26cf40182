/// FNV-1a, 64-bit (Fowler, Noll, Vo): the checksum behind feature-schema hashes, import content
/// ids and training-data fingerprints. Not cryptographic: it names content, it does not guard it.
public struct FNV1a: Sendable {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    public private(set) var value: UInt64 = FNV1a.offsetBasis

    public init() {}

    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    public mutating func add<S: Sequence>(bytes: S) where S.Element == UInt8 {
        for b in bytes { add(b) }
    }

    /// The 8 bytes of `v`, least significant first.
    public mutating func add(littleEndian v: UInt64) {
        var v = v
        for _ in 0..<8 { add(UInt8(truncatingIfNeeded: v)); v >>= 8 }
    }

    /// The hash as 16 lower-case hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of `bytes` as 16 hex digits.
    public static func hex<S: Sequence>(of bytes: S) -> String where S.Element == UInt8 {
        var h = FNV1a()
        h.add(bytes: bytes)
        return h.hex
    }
}
