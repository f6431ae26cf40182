import RunusCore
import Engine
import Server

/// The one mapping from the Engine's errors to the wire's closed set of codes
/// (docs/decisions/0502-wire-answers-and-error-codes.md): what does not exist is `not_found`,
/// what the client got wrong is `bad_request`, what the daemon cannot take now is
/// `unavailable`. Anything else a handler throws becomes `internal` in the Router (and is logged).
enum WireErrors {
    static func unknownUser(_ op: String, _ id: UserID) -> RequestError {
        RequestError.notFound("\(op): no user '\(id.prefix(128))'; send users.upsert first")
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
    static func wire(_ error: any Error, op: String) -> RequestError? {
        switch error {
        case EngineError.unknownUser(let id), IngestError.unknownUser(let id):
            return unknownUser(op, id)
        case EngineError.dayOutOfRange:
            return .badRequest("\(op): \(error)")
        case EngineError.unknownRun:
            return .notFound("\(op): \(error)")
        case EngineError.undecodableTrack:
            return RequestError(code: .internal, message: "\(op): \(error)")
        case let error as IngestError:
            return .badRequest("\(op): \(error)")
        case let error as ProfileError:
            return .badRequest("\(op): \(error)")
        case let error as RaceServiceError:
            switch error {
            case .unknownRace, .unknownUser: return .notFound("\(op): \(error)")
            case .duplicate, .notFinished, .tooManyRacesByCreator: return .badRequest("\(op): \(error)")
            case .tooManyRaces: return RequestError(code: .unavailable, message: "\(op): \(error)")
            }
        case let error as RaceError:
            return .badRequest("\(op): \(error)")
        default:
            return nil
        }
    }
}
