import RunusCore

/// What a `RaceService` call refuses (the wire maps each to its code in `WireErrors`).
public enum RaceServiceError: Error, Equatable, CustomStringConvertible {
    case unknownRace(String)
    case duplicate(String)
    case unknownUser(UserID)
    case notFinished(String)
    case tooManyRacesByCreator(UserID, limit: Int)
    case tooManyRaces(limit: Int)
    /// Only the runner who created a race may cancel it.
    case notHost(race: String, user: UserID)
    /// The runner is in another race whose running window shares an hour with this one's
    /// (record 0550); `holder` names it when known.
    case inAnotherRace(user: UserID, race: String, holder: String?)
    /// A start further ahead of the server clock than `RaceLimits.maximumStartLead` (record 0552).
    case startTooFar(start: EpochSeconds, now: EpochSeconds, limit: Seconds)
    /// The daemon holds `limit` races starting more than `RaceLimits.farAhead` from now (record 0552).
    case tooManyRacesAhead(limit: Int)
    /// The daemon holds `limit` open races of hosts new to running (record 0552).
    case tooManyRacesByNewHosts(limit: Int)

    public var description: String {
        switch self {
        case .unknownRace(let id): return "no race '\(ClientText.quoted(id))'"
        case .duplicate(let id): return "a race '\(ClientText.quoted(id))' exists already"
        case .unknownUser(let id): return "unknown user '\(ClientText.quoted(id))'"
        case .notFinished(let id): return "race '\(ClientText.quoted(id))' is not over yet"
        case .tooManyRacesByCreator(let user, let limit):
            return "\(reason): '\(user)' has \(limit) races not yet finished, the most one runner may have open"
        case .tooManyRaces(let limit): return "\(reason): the daemon holds \(limit) races not yet finished, its limit; try again later"
        case .notHost(let race, let user): return "'\(user)' did not create race '\(race)'; only its host may cancel it"
        case .inAnotherRace(let user, let race, let holder):
            return "\(reason): '\(user)' is in race '\(holder ?? "another")', whose running window overlaps race '\(race)''s; "
                + "a runner races one race at a time (leave it first)"
        case .startTooFar(let start, let now, let limit):
            return "\(reason): start_time \(start) is \(Int(saturating: (start - now).rounded())) s ahead of the server clock (\(now)); "
                + "at most \(Int(saturating: limit)) s (\(Int(saturating: limit / 86_400)) days) ahead is accepted"
        case .tooManyRacesAhead(let limit):
            return "\(reason): the daemon holds \(limit) races starting more than a day from now, its limit for those; "
                + "a race starting within a day can still be created"
        case .tooManyRacesByNewHosts(let limit):
            return "\(reason): the daemon holds \(limit) races of hosts without a rewarded run two weeks old, its limit for those; "
                + "join a race, or host one once you have run for two weeks"
        }
    }

    /// A stable machine-readable word for the refusals of issue 55 (records 0550, 0552), the
    /// first word of the message; clients branch on it, not on the sentence.
    public var reason: String {
        switch self {
        case .unknownRace: return "unknown_race"
        case .duplicate: return "duplicate_race"
        case .unknownUser: return "unknown_user"
        case .notFinished: return "not_finished"
        case .tooManyRacesByCreator: return "host_quota"
        case .tooManyRaces: return "daemon_full"
        case .notHost: return "not_host"
        case .inAnotherRace: return "in_another_race"
        case .startTooFar: return "start_too_far"
        case .tooManyRacesAhead: return "daemon_full_ahead"
        case .tooManyRacesByNewHosts: return "daemon_full_new_hosts"
        }
    }
}
