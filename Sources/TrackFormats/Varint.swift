/// LEB128 varints with zigzag for signed values (as in Protocol Buffers).
enum Varint {
    static func write(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    static func writeSigned(_ value: Int64, into out: inout [UInt8]) {
        write(UInt64(bitPattern: (value << 1) ^ (value >> 63)), into: &out)
    }
}

/// Reads bytes front to back, throwing `TrackFormatError` with the offset on bad input.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte(_ what: String) throws -> UInt8 {
        guard offset < bytes.count else { throw TrackFormatError.truncated(offset: offset, expected: what) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint(_ what: String) throws -> UInt64 {
        let start = offset
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw TrackFormatError.truncated(offset: offset, expected: what) }
            let b = bytes[offset]; offset += 1
            if shift == 63 && b > 1 {
                throw TrackFormatError.corrupt(offset: start, message: "\(what): varint exceeds 64 bits")
            }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func signedVarint(_ what: String) throws -> Int64 {
        let u = try varint(what)
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }
}
