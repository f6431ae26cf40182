/// Where "now" comes from. Pure code takes a `Clock` (or a time value) instead of reading the
/// wall clock, so that tests fix time and the simulation runs on its own calendar.
public protocol Clock: Sendable {
    /// The current instant in Unix seconds (UTC).
    func now() -> EpochSeconds
}

/// A clock that always answers the same instant: for tests and reproducible runs.
public struct FixedClock: Clock {
    public let instant: EpochSeconds
    public init(_ instant: EpochSeconds) { self.instant = instant }
    public func now() -> EpochSeconds { instant }
}
