/// Gzip members written without zlib (RFC 1951/1952), for the file mutator: stored blocks
/// (any bytes, 5 bytes of overhead per 64 KiB), and a fixed-Huffman block that repeats a chunk
/// with back-references (a small file that inflates to megabytes). Tested against zlib's
/// inflate (`Gzip.decompress`).
public enum GzipWriter {
    /// `data` in one gzip member of stored blocks.
    public static func stored(_ data: [UInt8]) -> [UInt8] {
        var out = header
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final = offset + count == data.count
            out.append(final ? 0x01 : 0x00)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        return out + trailer(crc: crc32(data), size: data.count)
    }

    /// `prefix`, then `chunk` repeated `times` times: literals for the prefix and the first
    /// copy, 258-byte matches at distance `chunk.count` after it (1 ≤ chunk.count ≤ 32,768).
    public static func repeating(_ chunk: [UInt8], times: Int, after prefix: [UInt8] = []) -> [UInt8] {
        precondition((1...32_768).contains(chunk.count) && times >= 1, "GzipWriter.repeating: chunk of 1…32768 bytes, times ≥ 1")
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE = 01, fixed Huffman
        for b in prefix { bits.literal(Int(b)) }
        for b in chunk { bits.literal(Int(b)) }
        let total = chunk.count * times
        var produced = chunk.count
        while total - produced >= 258 {
            bits.huffman(0b1100_0101, length: 8)  // length code 285 = 258 bytes, no extra bits
            bits.distance(chunk.count)
            produced += 258
        }
        while produced < total {
            bits.literal(Int(chunk[produced % chunk.count]))
            produced += 1
        }
        bits.huffman(0, length: 7)  // end of block (256)
        var crc = CRC32()
        crc.update(prefix)
        for _ in 0..<times { crc.update(chunk) }
        return header + bits.flushed + trailer(crc: crc.value, size: prefix.count + total)
    }

    static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]

    static func trailer(crc: UInt32, size: Int) -> [UInt8] {
        let n = UInt32(truncatingIfNeeded: size)
        return [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24),
                UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
    }

    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var c = CRC32()
        c.update(data)
        return c.value
    }

    /// CRC-32 (IEEE, reflected), as gzip's trailer has it.
    struct CRC32 {
        static let table: [UInt32] = (0..<256).map { n -> UInt32 in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }
        private var state: UInt32 = 0xFFFF_FFFF
        var value: UInt32 { state ^ 0xFFFF_FFFF }
        mutating func update(_ data: [UInt8]) {
            for b in data { state = Self.table[Int((state ^ UInt32(b)) & 0xFF)] ^ (state >> 8) }
        }
    }

    /// Bits in deflate's order: values LSB first, Huffman codes MSB first.
    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var used = 0

        mutating func write(_ value: Int, count: Int) {
            for k in 0..<count {
                current |= UInt32((value >> k) & 1) << UInt32(used)
                used += 1
                if used == 8 { bytes.append(UInt8(current)); current = 0; used = 0 }
            }
        }

        mutating func huffman(_ code: Int, length: Int) {
            for k in stride(from: length - 1, through: 0, by: -1) { write((code >> k) & 1, count: 1) }
        }

        /// A literal byte with the fixed literal/length code.
        mutating func literal(_ v: Int) {
            if v < 144 { huffman(0b0011_0000 + v, length: 8) } else { huffman(0b1_1001_0000 + v - 144, length: 9) }
        }

        static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                                   2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
        static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

        /// A distance with its fixed 5-bit code and extra bits.
        mutating func distance(_ d: Int) {
            let code = Self.distanceBase.lastIndex { $0 <= d }!
            huffman(code, length: 5)
            write(d - Self.distanceBase[code], count: Self.distanceExtra[code])
        }

        /// The bytes with the last partial byte flushed.
        var flushed: [UInt8] { used == 0 ? bytes : bytes + [UInt8(current)] }
    }
}
