/// One race at a time (docs/decisions/0550-one-race-at-a-time.md): a runner who joins a race
/// holds the UTC hours its running window touches, from the hour of its start to the hour of
/// its cutoff; two races can hold no hour of one runner together, which the store's key
/// `(user_id, hour)` keeps on both SQLite and PostgreSQL whatever the daemons check first.
public struct RaceHold: Sendable, Equatable {
    public let userID: UserID
    public let raceID: String
    /// Hours since the Unix epoch (`floor(t / 3600)`), UTC, of the window's first and last instants.
    public let hours: ClosedRange<Int>

    public init(userID: UserID, raceID: String, hours: ClosedRange<Int>) {
        self.userID = userID; self.raceID = raceID; self.hours = hours
    }
}

/// The store refused a hold: the runner holds one of its hours for another race (`holder`, nil
/// when the store could not name it: two joins at once, the other committed first).
public struct RaceHoldConflict: Error, Equatable, Sendable {
    public let userID: UserID
    public let raceID: String
    public let holder: String?

    public init(userID: UserID, raceID: String, holder: String?) {
        self.userID = userID; self.raceID = raceID; self.holder = holder
    }
}

/// Where holds are kept. Every call joins the caller's transaction when there is one (a join's
/// hold commits with its log entry, or neither does).
public protocol RaceHoldStore: Sendable {
    /// Takes the hours of `hold` for its race; throws `RaceHoldConflict` when the runner holds
    /// one of them for another race. Hours the runner holds for the same race already stay.
    func holdRace(_ hold: RaceHold) throws
    /// The runner gives up their hours of race `race` (they left it, or were deleted).
    func releaseRaceHold(user: UserID, race: String) throws
    /// Every runner gives up their hours of race `race` (it finished, or was called off).
    func releaseRaceHolds(race: String) throws
    /// The race holding hour `hour` of a runner, if any.
    func raceHolder(user: UserID, hour: Int) throws -> String?
}
