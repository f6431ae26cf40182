import RunusCore
import Engine
import Server

/// The one mapping from the Engine's errors to the wire's closed set of codes
/// (docs/decisions/0502-wire-answers-and-error-codes.md): what does not exist is `not_found`,
/// what the client got wrong is `bad_request`, what the daemon cannot take now is
/// `unavailable`. Anything else a handler throws becomes `internal` in the Router (and is logged).
enum WireErrors {
    static func unknownUser(_ op: String, _ id: UserID) -> RequestError {
        RequestError.notFound("\(op): no user '\(id.prefix(128))'; send users.upsert first", field: "user")
    }

    /// Runs an Engine call for operation `op`, translating its errors.
    static func engine<T>(_ op: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RequestError {
            throw error
        } catch {
            throw wire(error, op: op) ?? error
        }
    }

    /// The wire error for an Engine error; nil for one that is not the client's (internal).
    /// Errors about one parameter name it (`error.field`, and `error.index` for an element).
    static func wire(_ error: any Error, op: String) -> RequestError? {
        let message = "\(op): \(error)"
        switch error {
        case EngineError.unknownUser(let id), IngestError.unknownUser(let id), RaceServiceError.unknownUser(let id):
            return RequestError.notFound(unknownUser(op, id).message, field: "user")
        case EngineError.dayOutOfRange:
            return .badRequest(message, field: "date")
        case EngineError.unknownRun:
            return .notFound(message, field: "run_id")
        case EngineError.undecodableTrack:
            return RequestError(code: .internal, message: message)
        case IngestError.refused(_, let refusal):
            return .badRequest(message, field: "points", index: refusal.index)
        case IngestError.refusedSummary(_, let refusal):
            return .badRequest(message, field: "summary." + refusal.field)
        case IngestError.emptyTrack, IngestError.impossible:
            return .badRequest(message, field: "points")
        case IngestError.runIDTaken:
            return .badRequest(message, field: "run_id")
        case CustomMissionError.raceKind, CustomMissionError.duplicate:
            return .badRequest(message, field: "spec")
        case CustomMissionError.dayOutOfRange:
            return .badRequest(message, field: "date")
        case CustomMissionError.tooMany:
            return .badRequest(message)
        case ProfileError.timeZoneRequired:
            return .badRequest(message, field: "time_zone")
        case let error as RaceServiceError:
            switch error {
            case .unknownRace: return .notFound(message, field: "race_id")
            case .unknownUser: return .notFound(message, field: "user")
            case .duplicate, .notFinished: return .badRequest(message, field: "race_id")
            case .tooManyRacesByCreator, .notHost: return .badRequest(message, field: "user")
            case .tooManyRaces, .tooManyRacesAhead, .tooManyRacesByNewHosts: return RequestError(code: .unavailable, message: message)
            case .inAnotherRace: return .badRequest(message, field: "user")
            case .startTooFar: return .badRequest(message, field: "start_time")
            }
        case RaceError.pointInTheFuture(let index, _, _, _):
            return .badRequest(message, field: "points", index: index)
        case RaceError.implausibleFinish:
            return .badRequest(message, field: "points")
        case RaceError.unknownParticipant:
            return .badRequest(message, field: "participant_token")
        case RaceError.alreadyJoined, RaceError.full, RaceError.alreadyStarted:
            return .badRequest(message, field: "race_id")
        case let error as RaceError:
            return .badRequest("\(op): \(error)")
        default:
            return nil
        }
    }
}
