import RunusCore
import Tracking

/// Reads FIT binary files (record 0111): header and file CRC checked, chained files read one
/// after another, definition and data messages, compressed-timestamp headers, developer fields
/// (skipped by their declared size), both byte orders.
///
/// `record` messages (20) give the fixes (those with a position) and `recordCount`; `lap` (19)
/// and `session` (18) messages give laps and device totals. One activity per session; with
/// several sessions (multisport) each takes the records from its start time to its end. A file
/// with records but no session gives one activity without totals; a file with neither (settings,
/// workouts) gives none.
public enum FITReader {
    /// Seconds from the Unix epoch to the FIT epoch (1989-12-31T00:00:00Z).
    public static let epochOffset: Double = 631_065_600

    public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> [Activity] {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(ReadFailure) in
                var decoder = FITDecoder(buffer)
                try decoder.decodeAll()
                return decoder.activities()
            }
        } catch {
            throw error.named(name, bytes: bytes, text: false)
        }
    }

    /// True when `bytes` start like a FIT file (".FIT" at offset 8).
    public static func looksLikeFIT(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && (bytes[0] == 12 || bytes[0] == 14) && bytes[8] == 0x2E && bytes[9] == 0x46
            && bytes[10] == 0x49 && bytes[11] == 0x54
    }
}

/// One field of a definition message.
struct FITField {
    var number: UInt8
    var size: Int
    var baseType: UInt8
}

struct FITDefinition {
    var global: UInt16
    var bigEndian: Bool
    var fields: [FITField]
    /// Bytes of developer fields after the regular ones.
    var developerBytes: Int
}

/// A decoded message: the fields we use, as doubles (scaled as stored; invalid values absent).
struct FITMessage {
    var global: UInt16
    var values: [(UInt8, Double)]
    var timestamp: UInt32?

    func value(_ number: UInt8) -> Double? {
        for (n, v) in values where n == number { return v }
        return nil
    }
}
