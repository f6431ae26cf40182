#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// Structured log lines: one JSON object per line, sorted keys, with `ts` (UTC, milliseconds),
/// `level` and `event`, plus the event's fields (`request_id`, `op`, `connection`, `ms`, …).
/// They go to `ServerConfiguration.log` (stderr by default), never to a client.
///
///     {"connection":7,"event":"internal_error","level":"error","message":"…","op":"crash","request_id":"7.3","ts":"2026-11-29T14:40:00.123Z"}
public enum ServerLog {
    public enum Level: String, Sendable { case info, warn, error }

    /// The log line for one event (no trailing newline).
    public static func line(_ level: Level, _ event: String, _ fields: [String: JSONValue] = [:]) -> String {
        var object = fields
        object["ts"] = .string(timestamp())
        object["level"] = .string(level.rawValue)
        object["event"] = .string(event)
        return JSONWriter.string(.object(object))
    }

    /// The request id of the `number`-th request (1-based) on connection `connection`: unique for
    /// the server's lifetime, so a client's complaint can be found in the log.
    public static func requestID(connection: UInt64, number: UInt64) -> String { "\(connection).\(number)" }

    /// Now, as `YYYY-MM-DDTHH:MM:SS.mmmZ` (the wall clock: logs are for people).
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }
}
