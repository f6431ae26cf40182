/// The FIT seeds: file_id, record messages (timestamp, position in semicircles, altitude,
/// heart rate, cadence), a lap and a session with device totals, CRCs computed.
extension SeedCorpus {
    static func fit(compressed: Bool) -> SeedFile {
        var data: [UInt8] = []
        func define(local: UInt8, global: UInt16, _ fields: [(UInt8, UInt8, UInt8)]) {
            data += [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
            for f in fields { data += [f.0, f.1, f.2] }
        }
        func value(_ v: Int64, _ size: Int) { for k in 0..<size { data.append(UInt8(truncatingIfNeeded: v >> (8 * Int64(k)))) } }
        func semicircles(_ degrees: Double) -> Int64 { Int64((degrees * 2_147_483_648.0 / 180).rounded()) }
        let epoch = 631_065_600.0
        func fitTime(_ t: Double) -> Int64 { Int64(t - epoch) }
        let uint8: UInt8 = 0x02, uint16: UInt8 = 0x84, sint32: UInt8 = 0x85, uint32: UInt8 = 0x86, enumType: UInt8 = 0x00
        let all = fixes()

        define(local: 0, global: 0, [(0, 1, enumType), (4, 4, uint32)])
        data.append(0); value(4, 1); value(fitTime(start), 4)
        let position: [(UInt8, UInt8, UInt8)] = [(0, 4, sint32), (1, 4, sint32), (2, 2, uint16), (3, 1, uint8), (4, 1, uint8)]
        define(local: 1, global: 20, [(253, 4, uint32)] + position)
        if compressed { define(local: 2, global: 20, position) }
        for (k, f) in all.enumerated() {
            if compressed && k > 0 {
                data.append(0x80 | 2 << 5 | UInt8(fitTime(f.t) & 0x1F))
            } else {
                data.append(1); value(fitTime(f.t), 4)
            }
            value(semicircles(f.lat), 4); value(semicircles(f.lon), 4); value(Int64((f.ele + 500) * 5), 2)
            value(Int64(f.hr), 1); value(Int64(f.cad), 1)
        }
        let end = all.last!.t
        let totals: [(UInt8, UInt8, UInt8)] = [(253, 4, uint32), (2, 4, uint32), (7, 4, uint32), (8, 4, uint32), (9, 4, uint32), (11, 2, uint16)]
        let elapsed = Int64(all.count - 1) * 1000
        define(local: 3, global: 19, totals + [(15, 1, uint8), (16, 1, uint8)])
        data.append(3)
        for (v, s) in [(fitTime(end), 4), (fitTime(start), 4), (elapsed, 4), (elapsed, 4), (180_000, 4), (40, 2), (144, 1), (154, 1)] { value(v, s) }
        define(local: 4, global: 18, totals + [(5, 1, enumType), (16, 1, uint8), (17, 1, uint8), (22, 2, uint16)])
        data.append(4)
        for (v, s) in [(fitTime(end), 4), (fitTime(start), 4), (elapsed, 4), (elapsed, 4), (180_000, 4), (40, 2), (1, 1), (144, 1), (154, 1), (4, 2)] {
            value(v, s)
        }

        let n = UInt32(data.count)
        var out: [UInt8] = [14, 0x20, 0x08, 0x08, UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
        out += Array(".FIT".utf8) + [0, 0] + data + [0, 0]
        FITLayout.fixCRCs(&out)
        return SeedFile(name: compressed ? "fit-compressed-timestamps-lap-session.fit" : "fit-records-lap-session.fit", bytes: out)
    }
}
