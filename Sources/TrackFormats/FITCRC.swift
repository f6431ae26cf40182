/// The FIT CRC-16 (polynomial 0xA001 reflected, nibble table, as in the FIT SDK).
enum FITCRC {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var c = crc
        var tmp = table[Int(c & 0xF)]
        c = (c >> 4) & 0x0FFF
        c = c ^ tmp ^ table[Int(byte & 0xF)]
        tmp = table[Int(c & 0xF)]
        c = (c >> 4) & 0x0FFF
        return c ^ tmp ^ table[Int((byte >> 4) & 0xF)]
    }

    static func compute(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt16 {
        var crc: UInt16 = 0
        var i = start
        while i < end { crc = update(crc, bytes[i]); i += 1 }
        return crc
    }
}
