@testable import TrackFormats

/// Writes small FIT files for tests: definitions, data, compressed-timestamp headers, developer
/// fields, both byte orders; the header and file CRCs are computed unless told to break them.
struct FITBuilder {
    struct Field { var number: UInt8; var size: UInt8; var baseType: UInt8 }
    private(set) var data: [UInt8] = []
    private var definitions: [Int: (bigEndian: Bool, fields: [Field], developerBytes: Int)] = [:]

    /// Base types used below.
    static let uint8: UInt8 = 0x02, uint16: UInt8 = 0x84, sint32: UInt8 = 0x85, uint32: UInt8 = 0x86, enumType: UInt8 = 0x00
    static let string: UInt8 = 0x07

    mutating func define(local: Int, global: UInt16, fields: [Field], bigEndian: Bool = false, developer: [UInt8] = []) {
        data.append(0x40 | UInt8(local) | (developer.isEmpty ? 0 : 0x20))
        data.append(0)
        data.append(bigEndian ? 1 : 0)
        data += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        data.append(UInt8(fields.count))
        for f in fields { data += [f.number, f.size, f.baseType] }
        if !developer.isEmpty {
            data.append(UInt8(developer.count))
            for (k, size) in developer.enumerated() { data += [UInt8(k), size, 0] }
        }
        definitions[local] = (bigEndian, fields, developer.reduce(0) { $0 + Int($1) })
    }

    /// A data message; `values` in field order (integers written in the field's size), then
    /// `developerBytes` filler bytes. `compressedOffset` writes a compressed-timestamp header.
    mutating func message(local: Int, _ values: [Int64], compressedOffset: UInt8? = nil) {
        let def = definitions[local]!
        if let offset = compressedOffset {
            data.append(0x80 | UInt8(local) << 5 | (offset & 0x1F))
        } else {
            data.append(UInt8(local))
        }
        for (f, v) in zip(def.fields, values) {
            var bytes: [UInt8] = []
            for k in 0..<Int(f.size) { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * Int64(k)))) }
            data += def.bigEndian ? bytes.reversed() : bytes
        }
        data += [UInt8](repeating: 0xAB, count: def.developerBytes)
    }

    /// The whole file: 14-byte header (with CRC), data, file CRC.
    func file(headerSize: UInt8 = 14, breakCRC: Bool = false) -> [UInt8] {
        var out: [UInt8] = [headerSize, 0x20, 0x08, 0x08]
        let n = UInt32(data.count)
        out += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
        out += Array(".FIT".utf8)
        if headerSize == 14 {
            let crc = out.withUnsafeBufferPointer { FITCRC.compute($0, 0, 12) }
            out += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        }
        out += data
        var crc = out.withUnsafeBufferPointer { FITCRC.compute($0, 0, $0.count) }
        if breakCRC { crc ^= 0x0101 }
        out += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return out
    }

    /// Semicircles of a latitude or longitude in degrees.
    static func semicircles(_ degrees: Double) -> Int64 { Int64((degrees * 2_147_483_648.0 / 180).rounded()) }
    /// FIT time of a Unix instant.
    static func fitTime(_ unix: Double) -> Int64 { Int64(unix - FITReader.epochOffset) }

    /// A running file: `count` records at 1 Hz from `start` moving north ~3 m/s with hr and
    /// cadence, a lap and a session with device totals. Records after the first use compressed
    /// timestamps when `compressed`; `developer` adds a 3-byte developer field to records.
    static func run(start: Double = 1_700_000_000, count: Int = 40, compressed: Bool = false,
                    developer: Bool = false, bigEndian: Bool = false) -> FITBuilder {
        var b = FITBuilder()
        b.define(local: 0, global: 0, fields: [Field(number: 0, size: 1, baseType: enumType), Field(number: 4, size: 4, baseType: uint32)])
        b.message(local: 0, [4, fitTime(start)])
        let positionFields = [Field(number: 0, size: 4, baseType: sint32), Field(number: 1, size: 4, baseType: sint32),
                              Field(number: 2, size: 2, baseType: uint16), Field(number: 3, size: 1, baseType: uint8),
                              Field(number: 4, size: 1, baseType: uint8)]
        b.define(local: 1, global: 20, fields: [Field(number: 253, size: 4, baseType: uint32)] + positionFields,
                 bigEndian: bigEndian, developer: developer ? [3] : [])
        if compressed {
            b.define(local: 2, global: 20, fields: positionFields, bigEndian: bigEndian, developer: developer ? [3] : [])
        }
        for i in 0..<count {
            let t = start + Double(i)
            let values = [semicircles(47.0 + Double(i) * 2.7e-5), semicircles(8.5), Int64((400.0 + Double(i) * 0.1 + 500) * 5), 140 + Int64(i % 10), 85]
            if compressed && i > 0 {
                b.message(local: 2, values, compressedOffset: UInt8(Int64(t - FITReader.epochOffset) & 0x1F))
            } else {
                b.message(local: 1, [fitTime(t)] + values)
            }
        }
        let end = start + Double(count - 1)
        let totals = [Field(number: 253, size: 4, baseType: uint32), Field(number: 2, size: 4, baseType: uint32),
                      Field(number: 7, size: 4, baseType: uint32), Field(number: 8, size: 4, baseType: uint32),
                      Field(number: 9, size: 4, baseType: uint32), Field(number: 11, size: 2, baseType: uint16)]
        b.define(local: 3, global: 19, fields: totals + [Field(number: 15, size: 1, baseType: uint8), Field(number: 16, size: 1, baseType: uint8)])
        b.message(local: 3, [fitTime(end), fitTime(start), Int64(count - 1) * 1000, Int64(count - 1) * 1000, 11_700, 9, 144, 149])
        b.define(local: 4, global: 18, fields: totals + [Field(number: 5, size: 1, baseType: enumType), Field(number: 16, size: 1, baseType: uint8),
                                                         Field(number: 17, size: 1, baseType: uint8), Field(number: 22, size: 2, baseType: uint16)])
        b.message(local: 4, [fitTime(end), fitTime(start), Int64(count - 1) * 1000, Int64(count - 1) * 1000, 11_700, 9, 1, 144, 149, 4])
        return b
    }
}
