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

    public var description: String {
        switch self {
        case .unknownRace(let id): return "no race '\(id)'"
        case .duplicate(let id): return "a race '\(id)' exists already"
        case .unknownUser(let id): return "unknown user '\(id)'"
        case .notFinished(let id): return "race '\(id)' is not over yet"
        case .tooManyRacesByCreator(let user, let limit):
            return "'\(user)' has \(limit) races not yet finished, the most one runner may have open"
        case .tooManyRaces(let limit): return "the daemon holds \(limit) races not yet finished, its limit; try again later"
        case .notHost(let race, let user): return "'\(user)' did not create race '\(race)'; only its host may cancel it"
        }
    }
}
