/// Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
/// `JSONParser` decodes strings leniently (bad bytes become U+FFFD), so the router checks a line
/// here first: a client sending Latin-1 gets `bad_json` naming the byte, not silently changed text.
enum UTF8Validation {
    /// The offset of the first byte that starts an invalid sequence, or nil when `bytes` is
    /// valid UTF-8. ASCII runs are skipped eight bytes at a time.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while i < n {
            if i + 8 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 { i += 8; continue }
            }
            let b0 = base[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F  // no UTF-16 surrogates
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F  // nothing above U+10FFFF
            default: return i
            }
            guard i + length <= n else { return i }
            let b1 = base[i + 1]
            guard b1 >= low, b1 <= high else { return i }
            for k in 2..<max(2, length) where base[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    static func firstInvalidOffset<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset($0) }) { return result }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidOffset($0) }
    }
}
