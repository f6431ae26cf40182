/// Errors of the Server module that are not an OS call failing (those are `SystemError`).
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An address that cannot be used: the text and what was expected.
    case badAddress(String, String)
    /// A Unix socket path is taken by a live server or by something that is not a socket.
    case addressInUse(String, String)
    /// A client operation ("connect to …", "read answer from …") did not finish in time.
    case timedOut(String)
    /// The peer closed the connection in the middle of a line.
    case connectionClosed(String)
    /// An answer line longer than the client's limit (bytes).
    case answerTooLong(Int)
    /// An answer line that is not JSON.
    case badAnswer(String)
    /// `start()` called twice, or `run()` before `start()`.
    case wrongState(String)

    public var description: String {
        switch self {
        case .badAddress(let text, let expected): return "bad address '\(text)': \(expected)"
        case .addressInUse(let path, let why): return "cannot listen on \(path): \(why)"
        case .timedOut(let what): return "timed out: \(what)"
        case .connectionClosed(let what): return "connection closed: \(what)"
        case .answerTooLong(let limit): return "answer line longer than \(limit) bytes"
        case .badAnswer(let why): return "answer is not valid JSON: \(why)"
        case .wrongState(let why): return why
        }
    }
}
