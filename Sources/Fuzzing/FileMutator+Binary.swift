import RunusCore

/// FIT and gzip mutations.
extension FileMutator {
    /// A change to the FIT header, a definition or a data message; the CRCs are fixed after it
    /// four times in five (the reader checks them, and a wrong CRC would stop it before the
    /// decoder).
    func fitMutation(_ b: inout [UInt8], _ g: inout SeededGenerator) -> String {
        guard let layout = FITLayout(b) else { return byteMutation(&b, &g) }
        var what: String
        func u32(_ at: Int, _ v: UInt32) { for k in 0..<4 where at + k < b.count { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) } }
        switch g.int(in: 0...9) {
        case 0:
            let v = PathologicalValues.pick([0, 1, 11, 12, 13, 14, 15, 255] as [UInt8], &g)
            b[0] = v; what = "header size \(v)"
        case 1:
            let size = layout.dataEnd - layout.headerSize
            let v = PathologicalValues.pick([0, 1, UInt32(max(0, size - 1)), UInt32(size + 1), UInt32(size * 2), 0x7FFF_FFFF, 0xFFFF_FFFF], &g)
            u32(4, v); what = "data size \(v) (was \(size))"
        case 2:
            b[1] = UInt8(truncatingIfNeeded: g.next()); b[2] = UInt8(truncatingIfNeeded: g.next())
            what = "protocol/profile version bytes"
        case 3, 4:
            guard let d = layout.definitions.isEmpty ? nil : PathologicalValues.pick(layout.definitions, &g) else { return byteMutation(&b, &g) }
            switch g.int(in: 0...3) {
            case 0: b[d.offset + 2] = PathologicalValues.pick([0, 1, 2, 255], &g); what = "definition at \(d.offset): architecture \(b[d.offset + 2])"
            case 1:
                let v = PathologicalValues.pick([0, 18, 19, 20, 21, 23, 0xFFFF, UInt16(truncatingIfNeeded: g.next())] as [UInt16], &g)
                b[d.offset + 3] = UInt8(v & 0xFF); b[d.offset + 4] = UInt8(v >> 8)
                what = "definition at \(d.offset): global message \(v)"
            case 2: b[d.offset + 5] = PathologicalValues.pick([0, 1, 255], &g); what = "definition at \(d.offset): field count \(b[d.offset + 5])"
            default:
                guard let f = d.fields.isEmpty ? nil : PathologicalValues.pick(d.fields, &g) else { return byteMutation(&b, &g) }
                switch g.int(in: 0...2) {
                case 0: b[f.definitionOffset + 1] = PathologicalValues.pick([0, 1, 2, 3, 7, 255], &g); what = "field at \(f.definitionOffset): size \(b[f.definitionOffset + 1])"
                case 1: b[f.definitionOffset + 2] = UInt8(truncatingIfNeeded: g.next()); what = "field at \(f.definitionOffset): base type \(b[f.definitionOffset + 2])"
                default: b[f.definitionOffset] = PathologicalValues.pick([0, 1, 2, 3, 4, 5, 253, 254, 255], &g); what = "field at \(f.definitionOffset): number \(b[f.definitionOffset])"
                }
            }
        case 5, 6, 7:
            guard let m = layout.messages.isEmpty ? nil : PathologicalValues.pick(layout.messages, &g),
                  let v = m.values.isEmpty ? nil : PathologicalValues.pick(m.values, &g), v.size > 0 else { return byteMutation(&b, &g) }
            let fill = PathologicalValues.pick(["ff", "00", "7f", "80", "random"], &g)
            for k in 0..<v.size where v.offset + k < b.count {
                switch fill {
                case "ff": b[v.offset + k] = 0xFF
                case "00": b[v.offset + k] = 0x00
                case "7f": b[v.offset + k] = k == v.size - 1 ? 0x7F : 0xFF
                case "80": b[v.offset + k] = k == v.size - 1 ? 0x80 : 0x00
                default: b[v.offset + k] = UInt8(truncatingIfNeeded: g.next())
                }
            }
            what = "data message at \(m.offset): field at \(v.offset) (\(v.size) bytes) set to \(fill)"
        case 8:
            guard let m = layout.messages.isEmpty ? nil : PathologicalValues.pick(layout.messages, &g) else { return byteMutation(&b, &g) }
            b[m.offset] = PathologicalValues.pick([0x80, 0x9F, 0xE0, 0xFF, 0x0F, 0x40, 0x60], &g)
            what = "record header at \(m.offset): 0x\(String(b[m.offset], radix: 16))"
        default:
            // Data messages in a new order (timestamps going backwards), sizes unchanged.
            guard layout.messages.count >= 2 else { return byteMutation(&b, &g) }
            let x = PathologicalValues.pick(layout.messages, &g), y = PathologicalValues.pick(layout.messages, &g)
            let lx = (x.values.last.map { $0.offset + $0.size } ?? x.offset + 1) - x.offset
            let ly = (y.values.last.map { $0.offset + $0.size } ?? y.offset + 1) - y.offset
            guard lx == ly, x.offset != y.offset, max(x.offset, y.offset) + lx <= b.count else { return byteMutation(&b, &g) }
            let a = Array(b[x.offset..<(x.offset + lx)])
            b.replaceSubrange(x.offset..<(x.offset + lx), with: b[y.offset..<(y.offset + ly)])
            b.replaceSubrange(y.offset..<(y.offset + ly), with: a)
            what = "swap data messages at \(x.offset) and \(y.offset)"
        }
        if g.bernoulli(0.8) {
            FITLayout.fixCRCs(&b)
            what += ", CRCs fixed"
        }
        return "FIT " + what
    }

    /// Wraps the bytes in gzip, sometimes broken: stored blocks, a flipped bit, a truncated
    /// member, a wrong CRC or size, two members, or a chunk inflated many times.
    func wrap(_ b: inout [UInt8], _ g: inout SeededGenerator) -> String {
        var z = GzipWriter.stored(b)
        switch g.int(in: 0...7) {
        case 0, 1: b = z; return "gzip (stored)"
        case 2: z[g.int(in: 10...(z.count - 1))] ^= UInt8(1 << g.int(in: 0...7)); b = z; return "gzip with a flipped bit"
        case 3: b = Array(z[0..<g.int(in: 0...(z.count - 1))]); return "gzip truncated"
        case 4: z[z.count - 8] ^= 0xFF; b = z; return "gzip with a wrong CRC"
        case 5: z[z.count - 1] ^= 0x40; b = z; return "gzip with a wrong size"
        case 6: b = z + GzipWriter.stored(b); return "two gzip members"
        default:
            let len = min(b.count, g.int(in: 1...4096))
            let start = b.isEmpty ? 0 : g.int(in: 0...(b.count - len))
            let chunk = len == 0 ? [0x20] : Array(b[start..<(start + len)])
            let times = max(1, min(g.int(in: 1...16) << 20, maximumBytes) / chunk.count)
            let prefix = Array(b[max(0, start - 65_536)..<start])
            b = GzipWriter.repeating(chunk, times: times, after: prefix)
            return "gzip of \(prefix.count) bytes then \(chunk.count) bytes from \(start) ×\(times)"
        }
    }
}
