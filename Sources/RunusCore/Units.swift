/// Units used across the engine. They are aliases rather than wrapper types so that arithmetic
/// stays cheap and readable; the unit is carried by the alias name in every signature, and by a
/// suffix (`_m`, `_s`, `_s_per_km`) at every edge (wire, database, files).

/// A length in metres.
public typealias Meters = Double
/// A duration in seconds.
public typealias Seconds = Double
/// A pace in seconds per kilometre (lower is faster).
public typealias SecondsPerKm = Double
/// An instant as seconds since 1970-01-01T00:00:00Z (Unix time, UTC, may have a fraction).
public typealias EpochSeconds = Double
/// An opaque user id, as sent by the app backend.
public typealias UserID = String

public enum Pace {
    /// Pace in s/km for `distance` covered in `duration`; `nil` when the distance is not positive.
    @inlinable
    public static func secondsPerKm(distance: Meters, duration: Seconds) -> SecondsPerKm? {
        distance > 0 ? duration / (distance / 1000) : nil
    }

    /// Formats a pace as `m:ss` (rounded to the nearest second), e.g. 270 → "4:30".
    public static func format(_ pace: SecondsPerKm) -> String {
        let total = Int(saturating: pace.rounded())
        let seconds = total % 60
        return "\(total / 60):" + (seconds < 10 ? "0" : "") + "\(seconds)"
    }
}

public enum DistanceFormat {
    /// Formats metres as kilometres with one decimal, e.g. 5000 → "5.0 km".
    public static func kilometres(_ meters: Meters) -> String {
        let tenths = Int(saturating: (meters / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) km"
    }

    /// Formats a distance as whole metres below 1 km ("40 m"), else as `kilometres` ("5.0 km").
    public static func metres(_ meters: Meters) -> String {
        meters < 999.5 ? "\(Int(saturating: meters.rounded())) m" : kilometres(meters)
    }

    /// Formats a duration as "h:mm:ss" or "m:ss".
    public static func duration(_ seconds: Seconds) -> String {
        let total = Int(saturating: seconds.rounded())
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
