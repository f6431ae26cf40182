import RunusCore

/// Which hosts count as new to running for the race caps (docs/decisions/0552-race-caps-one-client-cannot-fill.md).
extension RaceService {
    /// Whether `host` had, at `instant`, a rewarded run that started at least
    /// `RaceLimits.establishedAfter` before it (record 0552): a runner who has run, not an
    /// account made a moment ago. Reads the year before that point only.
    func hostIsEstablished(_ host: UserID, at instant: EpochSeconds) throws -> Bool {
        let until = instant - limits.establishedAfter
        return try store.runs(user: host, from: until - 365 * 86_400, to: until).contains { $0.rewarded }
    }
}
