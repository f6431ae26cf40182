import Foundation
import RunusCore
import Engine

/// UTC offsets from the system's time-zone database (daylight saving time included).
public struct SystemTimeZones: UTCOffsetResolver {
    public init() {}

    public func offset(timeZone: String, at instant: EpochSeconds) -> Int? {
        TimeZone(identifier: timeZone)?.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
    }

    /// Where the system keeps the IANA database's compiled zones (Debian's tzdata).
    static let zoneDirectory = "/usr/share/zoneinfo"

    /// Whether `identifier` is a zone or link of the IANA time-zone database, as the system
    /// holds it (record 0556): a TZif file under `zoneDirectory` that Foundation also reads.
    /// Foundation alone accepts far more (`GMT+5`, which it reads as UTC+5 while the database's
    /// `Etc/GMT+5` is UTC−5; `GMT+18`; `UTC-12:30`), and the database's `Factory` is a
    /// placeholder meaning "no zone set", so those are refused.
    public static func isKnown(_ identifier: String) -> Bool {
        guard isWellFormed(identifier), identifier != "Factory" else { return false }
        let path = zoneDirectory + "/" + identifier
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let magic = try? handle.read(upToCount: 4), Array(magic) == Array("TZif".utf8) else { return false }
        return TimeZone(identifier: identifier) != nil
    }

    /// The database's name syntax: 1 to 64 bytes of letters, digits, `/ _ + -`, components
    /// neither empty nor `.`/`..` (so a name never leaves `zoneDirectory`), and none of its
    /// non-zone folders (`posix/` and `right/` repeat every zone with other leap-second rules).
    static func isWellFormed(_ identifier: String) -> Bool {
        let bytes = Array(identifier.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        let allowed = bytes.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                || b == UInt8(ascii: "/") || b == UInt8(ascii: "_") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
        }
        guard allowed else { return false }
        let components = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return false }
        return !["posix", "right"].contains(components[0])
    }
}
