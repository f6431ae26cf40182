import RunusCore

/// The stored form of a run's digest (record 0648): what `RunDigest(run:)` computed, kept in
/// the store beside the run so that it is computed once per run, not once per daemon start.
/// Little-endian, versioned:
///
///     version u8 (2) | has digest u8 (0 or 1)
///     [has digest] start f64 | efforts u8, each (metres f64, seconds f64)
///                  | cells u32, each (row i32, column i32), sorted by (row, column)
///                  | surges u8, each seconds f64, longest first            (version 2 only)
///
/// Version 1 (before record 0658) has no surges: it decodes with `surges` nil, so a store of
/// an earlier version is read as it is, not recomputed.
/// "No digest" is stored too (a summary-only run), so that it is not recomputed. Bytes from the
/// store are outside input: `decode` checks every count against what is left, every number for
/// being finite and positive where it must be, and answers nil for anything else (the caller
/// computes the digest again).
public enum RunDigestCodec {
    public static let version: UInt8 = 2
    /// The most cells a stored digest may claim (a 100 km run at 200 m cells covers ~1,000).
    static let maximumCells = 1_000_000

    /// `digest` in the stored form; nil encodes "this run has no digest".
    public static func encode(_ digest: RunDigest?) -> [UInt8] {
        // A digest whose surges are unknown is written in version 1, so that it reads back so.
        var out: [UInt8] = [digest != nil && digest?.surges == nil ? 1 : version]
        guard let digest else {
            out.append(0)
            return out
        }
        out.append(1)
        append(digest.start.bitPattern, to: &out)
        let efforts = digest.bestEfforts.sorted { $0.key < $1.key }.prefix(255)
        out.append(UInt8(efforts.count))
        for (metres, seconds) in efforts {
            append(metres.bitPattern, to: &out)
            append(seconds.bitPattern, to: &out)
        }
        let cells = digest.cells.prefix(maximumCells)
        append(UInt32(cells.count), to: &out)
        for cell in cells {
            append(UInt32(bitPattern: cell.row), to: &out)
            append(UInt32(bitPattern: cell.column), to: &out)
        }
        if let surges = digest.surges?.prefix(255) {
            out.append(UInt8(surges.count))
            for seconds in surges { append(seconds.bitPattern, to: &out) }
        }
        return out
    }

    /// What `encode` wrote: `.some(nil)` for a run without a digest, nil for bytes this version
    /// does not read (another version, truncated, trailing bytes, impossible numbers).
    public static func decode(_ bytes: [UInt8]) -> RunDigest?? {
        var reader = Reader(bytes: bytes)
        guard let stored = reader.byte(), stored == 1 || stored == version, let has = reader.byte() else { return nil }
        switch has {
        case 0:
            return reader.atEnd ? .some(nil) : nil
        case 1:
            guard let start = reader.double(), start.isFinite, let effortCount = reader.byte() else { return nil }
            var efforts: [Meters: Seconds] = [:]
            for _ in 0..<Int(effortCount) {
                guard let metres = reader.double(), let seconds = reader.double(),
                      metres.isFinite, metres > 0, seconds.isFinite, seconds > 0 else { return nil }
                efforts[metres] = seconds
            }
            guard let cellCount = reader.uint32().map(Int.init), cellCount <= maximumCells,
                  cellCount * 8 <= reader.remaining else { return nil }
            var cells: [GridCell] = []
            cells.reserveCapacity(cellCount)
            for _ in 0..<cellCount {
                guard let row = reader.uint32(), let column = reader.uint32() else { return nil }
                cells.append(GridCell(row: Int32(bitPattern: row), column: Int32(bitPattern: column)))
            }
            var surges: [Seconds]? = nil
            if stored >= 2 {
                guard let surgeCount = reader.byte() else { return nil }
                var found: [Seconds] = []
                for _ in 0..<Int(surgeCount) {
                    guard let seconds = reader.double(), seconds.isFinite, seconds > 0 else { return nil }
                    found.append(seconds)
                }
                surges = found
            }
            guard reader.atEnd else { return nil }
            return .some(RunDigest(start: start, bestEfforts: efforts, cells: cells, surges: surges))
        default:
            return nil
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// Reads little-endian values, nil past the end.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var remaining: Int { bytes.count - offset }
        var atEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint32() -> UInt32? { integer(UInt32.self) }

        mutating func double() -> Double? { integer(UInt64.self).map(Double.init(bitPattern:)) }

        private mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard remaining >= size else { return nil }
            var value: T = 0
            for k in 0..<size { value |= T(bytes[offset + k]) << (8 * k) }
            offset += size
            return value
        }
    }
}
