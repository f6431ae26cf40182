import RunusCore
import Tracking

/// Walks the FIT byte stream; see `FITReader`.
struct FITDecoder {
    let bytes: UnsafeBufferPointer<UInt8>
    var records: [(time: UInt32?, values: [(UInt8, Double)])] = []
    var laps: [FITMessage] = []
    var sessions: [FITMessage] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Message numbers whose fields we keep.
    static let record: UInt16 = 20, lap: UInt16 = 19, session: UInt16 = 18

    mutating func decodeAll() throws(ReadFailure) {
        var offset = 0
        var files = 0
        while offset < bytes.count {
            // Some devices pad the end of a file with zeros; padding after a file is not a file.
            if files > 0, (offset..<bytes.count).allSatisfy({ bytes[$0] == 0 }) { break }
            offset = try decodeFile(at: offset)
            files += 1
        }
        if files == 0 { throw ReadFailure(.truncated, at: 0, "empty input, expected a FIT header") }
    }

    /// Decodes one (possibly chained) FIT file starting at `start`; returns the offset after its CRC.
    mutating func decodeFile(at start: Int) throws(ReadFailure) -> Int {
        let n = bytes.count
        guard start + 12 <= n else { throw ReadFailure(.truncated, at: start, "input ends inside the FIT file header (\(n - start) of 12 bytes)") }
        let headerSize = Int(bytes[start])
        guard headerSize == 12 || headerSize == 14 else {
            throw ReadFailure(.header, at: start, "FIT header size \(headerSize), expected 12 or 14")
        }
        guard bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54 else {
            throw ReadFailure(.header, at: start + 8, "missing the \".FIT\" signature in the file header")
        }
        guard start + headerSize <= n else { throw ReadFailure(.truncated, at: start, "input ends inside the 14-byte FIT header") }
        if headerSize == 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            if stored != 0 {
                let computed = FITCRC.compute(bytes, start, start + 12)
                guard computed == stored else {
                    throw ReadFailure(.header, at: start + 12, "header CRC 0x\(hex(stored)) does not match the header (0x\(hex(computed)))")
                }
            }
        }
        let dataSize = Int(UInt32(bytes[start + 4]) | UInt32(bytes[start + 5]) << 8 | UInt32(bytes[start + 6]) << 16 | UInt32(bytes[start + 7]) << 24)
        let dataStart = start + headerSize
        let dataEnd = dataStart + dataSize
        guard dataEnd + 2 <= n else {
            throw ReadFailure(.truncated, at: n, "input ends at byte \(n), the FIT header announces \(dataSize) data bytes and a CRC up to byte \(dataEnd + 2)")
        }
        let stored = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
        let computed = FITCRC.compute(bytes, start, dataEnd)
        guard stored == computed else {
            throw ReadFailure(.checksum, at: dataEnd, "file CRC 0x\(hex(stored)) does not match the data (0x\(hex(computed)))")
        }
        try decodeMessages(dataStart, dataEnd)
        return dataEnd + 2
    }

    private mutating func decodeMessages(_ start: Int, _ end: Int) throws(ReadFailure) {
        var definitions = [FITDefinition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32 = 0
        var i = start
        while i < end {
            let headerOffset = i
            let header = bytes[i]
            i += 1
            if header & 0x80 != 0 {
                // Compressed timestamp header: local type in bits 5-6, time offset in bits 0-4.
                let local = Int((header >> 5) & 0x3)
                let offset = UInt32(header & 0x1F)
                var t = (lastTimestamp & ~0x1F) + offset
                if offset < lastTimestamp & 0x1F { t &+= 0x20 }
                lastTimestamp = t
                guard let def = definitions[local] else {
                    throw ReadFailure(.malformed, at: headerOffset, "data message for local type \(local) before its definition")
                }
                i = try decodeData(def, at: i, end: end, timestamp: t, lastTimestamp: &lastTimestamp)
            } else if header & 0x40 != 0 {
                let local = Int(header & 0x0F)
                let hasDeveloper = header & 0x20 != 0
                guard i + 5 <= end else { throw ReadFailure(.truncated, at: i, "data ends inside a definition message") }
                let bigEndian = bytes[i + 1] == 1
                guard bytes[i + 1] <= 1 else { throw ReadFailure(.malformed, at: i + 1, "architecture byte \(bytes[i + 1]), expected 0 or 1") }
                let global = bigEndian ? UInt16(bytes[i + 2]) << 8 | UInt16(bytes[i + 3]) : UInt16(bytes[i + 2]) | UInt16(bytes[i + 3]) << 8
                let count = Int(bytes[i + 4])
                i += 5
                guard i + 3 * count <= end else { throw ReadFailure(.truncated, at: i, "data ends inside the \(count) field definitions") }
                var fields: [FITField] = []
                fields.reserveCapacity(count)
                for k in 0..<count {
                    let size = Int(bytes[i + 3 * k + 1])
                    fields.append(FITField(number: bytes[i + 3 * k], size: size, baseType: bytes[i + 3 * k + 2]))
                }
                i += 3 * count
                var developerBytes = 0
                if hasDeveloper {
                    guard i < end else { throw ReadFailure(.truncated, at: i, "data ends before the developer field count") }
                    let devCount = Int(bytes[i])
                    i += 1
                    guard i + 3 * devCount <= end else { throw ReadFailure(.truncated, at: i, "data ends inside the developer field definitions") }
                    for k in 0..<devCount { developerBytes += Int(bytes[i + 3 * k + 1]) }
                    i += 3 * devCount
                }
                definitions[local] = FITDefinition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
            } else {
                let local = Int(header & 0x0F)
                guard let def = definitions[local] else {
                    throw ReadFailure(.malformed, at: headerOffset, "data message for local type \(local) before its definition")
                }
                i = try decodeData(def, at: i, end: end, timestamp: nil, lastTimestamp: &lastTimestamp)
            }
        }
    }

    private mutating func decodeData(_ def: FITDefinition, at start: Int, end: Int, timestamp: UInt32?,
                                     lastTimestamp: inout UInt32) throws(ReadFailure) -> Int {
        var i = start
        let wanted = def.global == Self.record || def.global == Self.lap || def.global == Self.session
        var values: [(UInt8, Double)] = []
        var time = timestamp
        if wanted { values.reserveCapacity(def.fields.count) }
        for f in def.fields {
            guard i + f.size <= end else {
                throw ReadFailure(.truncated, at: i, "data ends inside field \(f.number) of message \(def.global)")
            }
            if f.number == 253, f.size == 4, let raw = integer(at: i, size: 4, bigEndian: def.bigEndian), raw != 0xFFFF_FFFF {
                let t = UInt32(truncatingIfNeeded: raw)
                lastTimestamp = t
                time = t
            } else if wanted, let v = value(f, at: i, bigEndian: def.bigEndian) {
                values.append((f.number, v))
            }
            i += f.size
        }
        guard i + def.developerBytes <= end else {
            throw ReadFailure(.truncated, at: i, "data ends inside the developer fields of message \(def.global)")
        }
        i += def.developerBytes
        switch def.global {
        case Self.record: records.append((time, values))
        case Self.lap: laps.append(FITMessage(global: def.global, values: values, timestamp: time))
        case Self.session: sessions.append(FITMessage(global: def.global, values: values, timestamp: time))
        default: break
        }
        return i
    }

    private func integer(at i: Int, size: Int, bigEndian: Bool) -> UInt64? {
        var v: UInt64 = 0
        for k in 0..<size {
            let b = UInt64(bytes[bigEndian ? i + k : i + size - 1 - k])
            v = v << 8 | b
        }
        return v
    }

    /// The first element of field `f` as a number, `nil` when it holds the invalid value or is
    /// not numeric.
    private func value(_ f: FITField, at i: Int, bigEndian: Bool) -> Double? {
        let base = f.baseType & 0x1F
        let width: Int
        switch base {
        case 0, 1, 2, 0x0A, 0x0D: width = 1
        case 0x03, 0x04, 0x0B: width = 2
        case 0x05, 0x06, 0x08, 0x0C: width = 4
        case 0x09, 0x0E, 0x0F, 0x10: width = 8
        default: return nil  // strings
        }
        guard f.size >= width, let raw = integer(at: i, size: width, bigEndian: bigEndian) else { return nil }
        switch base {
        case 0, 2, 0x0D: return raw == 0xFF ? nil : Double(raw)
        case 1: return raw == 0x7F ? nil : Double(Int8(truncatingIfNeeded: raw))
        case 0x0A, 0x0B, 0x0C, 0x10: return raw == 0 ? nil : Double(raw)
        case 3: return raw == 0x7FFF ? nil : Double(Int16(truncatingIfNeeded: raw))
        case 4: return raw == 0xFFFF ? nil : Double(raw)
        case 5: return raw == 0x7FFF_FFFF ? nil : Double(Int32(truncatingIfNeeded: raw))
        case 6: return raw == 0xFFFF_FFFF ? nil : Double(raw)
        case 8:
            guard raw != 0xFFFF_FFFF else { return nil }
            let v = Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))
            return v.isFinite ? v : nil
        case 9:
            guard raw != UInt64.max else { return nil }
            let v = Double(bitPattern: raw)
            return v.isFinite ? v : nil
        case 0x0E: return raw == 0x7FFF_FFFF_FFFF_FFFF ? nil : Double(Int64(bitPattern: raw))
        case 0x0F: return raw == UInt64.max ? nil : Double(raw)
        default: return nil
        }
    }

    private func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}
