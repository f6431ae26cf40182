/// Where things are in a FIT file, for targeted mutations: the header, each definition message
/// (and its field list), each data message (and its fields' offsets). A walk, not a decoder:
/// it stops at the first record it cannot place. Also the FIT CRC, so that a mutated file can
/// get past the reader's header and file checks and reach the message decoder.
public struct FITLayout: Sendable {
    public struct Field: Sendable {
        /// Offset of the field's number byte in the definition (size at +1, base type at +2).
        public let definitionOffset: Int
        public let size: Int
    }
    public struct Definition: Sendable {
        public let offset: Int
        public let fields: [Field]
    }
    public struct DataMessage: Sendable {
        /// Offset of the record header byte.
        public let offset: Int
        /// Offset and size of each field's value.
        public let values: [(offset: Int, size: Int)]
    }

    public let headerSize: Int
    public let dataEnd: Int
    public private(set) var definitions: [Definition] = []
    public private(set) var messages: [DataMessage] = []

    /// Nil when the bytes do not start with a FIT header.
    public init?(_ b: [UInt8]) {
        guard b.count >= 12, b[0] == 12 || b[0] == 14, Array(b[8..<12]) == Array(".FIT".utf8) else { return nil }
        headerSize = Int(b[0])
        let dataSize = Int(b[4]) | Int(b[5]) << 8 | Int(b[6]) << 16 | Int(b[7]) << 24
        dataEnd = min(b.count, headerSize + dataSize)
        var locals: [Int: (Definition, sizes: [Int], developer: Int)] = [:]
        var i = headerSize
        while i < dataEnd {
            let h = b[i]
            if h & 0x80 != 0 || h & 0x40 == 0 {
                let local = h & 0x80 != 0 ? Int((h >> 5) & 3) : Int(h & 0x0F)
                guard let (_, sizes, developer) = locals[local] else { return }
                var values: [(Int, Int)] = []
                var at = i + 1
                for s in sizes { values.append((at, s)); at += s }
                guard at + developer <= dataEnd else { return }
                messages.append(DataMessage(offset: i, values: values))
                i = at + developer
                continue
            }
            guard i + 6 <= dataEnd else { return }
            let count = Int(b[i + 5])
            var fields: [Field] = []
            var at = i + 6
            for _ in 0..<count {
                guard at + 3 <= dataEnd else { return }
                fields.append(Field(definitionOffset: at, size: Int(b[at + 1])))
                at += 3
            }
            var developer = 0
            if h & 0x20 != 0 {
                guard at < dataEnd else { return }
                let n = Int(b[at]); at += 1
                for _ in 0..<n {
                    guard at + 3 <= dataEnd else { return }
                    developer += Int(b[at + 1]); at += 3
                }
            }
            let definition = Definition(offset: i, fields: fields)
            definitions.append(definition)
            locals[Int(h & 0x0F)] = (definition, fields.map(\.size), developer)
            i = at
        }
    }

    /// Rewrites the header CRC (14-byte headers) and the file CRC after the data, so that only
    /// the mutation itself is wrong. The data size field is left as it is.
    public static func fixCRCs(_ b: inout [UInt8]) {
        guard b.count >= 12 else { return }
        let h = Int(b[0])
        if h == 14, b.count >= 14 {
            let c = crc(b[0..<12])
            b[12] = UInt8(c & 0xFF); b[13] = UInt8(c >> 8)
        }
        let dataSize = Int(b[4]) | Int(b[5]) << 8 | Int(b[6]) << 16 | Int(b[7]) << 24
        let end = h + dataSize
        guard h >= 12, end <= b.count - 2, end >= 0 else { return }
        let c = crc(b[0..<end])
        b[end] = UInt8(c & 0xFF); b[end + 1] = UInt8(c >> 8)
    }

    /// The FIT SDK's CRC-16 (nibble table).
    public static func crc<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                               0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
        var crc: UInt16 = 0
        for byte in bytes {
            var t = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ t ^ table[Int(byte & 0xF)]
            t = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ t ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }
}
