import RunusCore

/// Turns a runner's IANA time zone into a UTC offset at an instant (daylight saving time
/// included). Time-zone data is outside the pure modules; the daemon passes a resolver backed by
/// the system's zone database.
public protocol UTCOffsetResolver: Sendable {
    /// Seconds east of UTC in `timeZone` at `instant`, or nil for an unknown zone.
    func offset(timeZone: String, at instant: EpochSeconds) -> Int?
}

/// A resolver that knows no zones: every runner uses the stored fixed offset.
public struct FixedOffsetResolver: UTCOffsetResolver {
    public init() {}
    public func offset(timeZone: String, at instant: EpochSeconds) -> Int? { nil }
}

extension UserProfile {
    /// The runner's UTC offset at `instant`: the zone's when it resolves, else the stored one.
    public func utcOffset(at instant: EpochSeconds, resolver: any UTCOffsetResolver) -> Int {
        resolver.offset(timeZone: timeZone, at: instant) ?? utcOffsetSeconds
    }

    /// The runner's local day at `instant`.
    public func localDay(at instant: EpochSeconds, resolver: any UTCOffsetResolver) -> CivilDate {
        CivilDate(instant: instant, utcOffset: utcOffset(at: instant, resolver: resolver))
    }

    /// Hours since local midnight at `instant`, in [0, 24).
    public func localHour(at instant: EpochSeconds, resolver: any UTCOffsetResolver) -> Double {
        let day = localDay(at: instant, resolver: resolver)
        let midnight = day.startInstant(utcOffset: utcOffset(at: instant, resolver: resolver))
        return (instant - midnight) / 3600
    }
}
