import Foundation
import RunusCore
import Engine

/// UTC offsets from the system's time-zone database (daylight saving time included).
public struct SystemTimeZones: UTCOffsetResolver {
    public init() {}

    public func offset(timeZone: String, at instant: EpochSeconds) -> Int? {
        TimeZone(identifier: timeZone)?.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
    }

    /// Whether `identifier` names a zone the system knows.
    public static func isKnown(_ identifier: String) -> Bool { TimeZone(identifier: identifier) != nil }
}
