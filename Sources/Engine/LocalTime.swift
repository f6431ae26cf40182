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

/// A runner at an instant: the profile, the UTC offset in force then (daylight saving time
/// included) and the local day. Derived once per request and handed down, so that every part
/// of one answer (the cache key, the as-of state, the offers) agrees on the day.
public struct RunnerMoment: Sendable, Equatable {
    public let profile: UserProfile
    /// Unix seconds.
    public let instant: EpochSeconds
    /// Seconds east of UTC at `instant`.
    public let utcOffset: Int
    /// The runner's local day at `instant`.
    public let day: CivilDate

    public init(profile: UserProfile, at instant: EpochSeconds, resolver: any UTCOffsetResolver) {
        self.profile = profile
        self.instant = instant
        self.utcOffset = profile.utcOffset(at: instant, resolver: resolver)
        self.day = CivilDate(instant: instant, utcOffset: utcOffset)
    }
}

/// How far back the engine reads a runner's runs: the 365 days before an instant. Runner
/// states, mission contexts at ingestion and live mission progress all read this one window,
/// so a mission checked live and at ingestion sees the same history.
public enum HistoryWindow {
    public static let days = 365
    public static var seconds: Seconds { Double(days) * 86_400 }

    /// The runner's runs that are evidence of running (record 0230) in [instant − window, instant),
    /// by start time, without tracks.
    public static func runs(of user: UserID, before instant: EpochSeconds, store: any RunStore) throws -> [RunRecord] {
        try store.runs(user: user, from: instant - seconds, to: instant).filter(\.isEvidence)
    }
}
