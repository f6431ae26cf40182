#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Synchronization

/// `runus serve --access-log PATH|-` (issue 53): one JSON line per answered request, with `ts`
/// (`ServerLog`'s UTC time), `op`, `request_id`, `user` (when the request names one, quoted in
/// 128 characters), `code` (`ok` or the error code) and `ms` (service time). Lines are appended
/// to a buffer and written by a thread of its own every 100 ms, so a request never waits on the
/// disk; past `maximumBufferedBytes` unwritten, lines are dropped and counted, and the count is
/// written as an `access_log_dropped` line once the writer catches up. A long-running part with
/// a clean `stop()` that writes what is left.
public final class AccessLog: Sendable {
    private let fd: Int32
    private let closesFD: Bool
    private struct State {
        var buffer: [UInt8] = []
        var dropped = 0
        var running = true
    }
    private let state = Mutex(State())
    private let stopped = Mutex(false)

    /// Unwritten bytes kept at most.
    static let maximumBufferedBytes = 4 << 20
    /// How often the writer wakes, ms.
    static let flushIntervalMilliseconds: UInt32 = 100

    /// Appends to `path` (created with mode 0640), or to standard output for `-`.
    public init(path: String) throws {
        if path == "-" {
            fd = 1
            closesFD = false
        } else {
            let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
            guard opened >= 0 else { throw SystemError(call: "open \(path)", errno: errno) }
            fd = opened
            closesFD = true
        }
        Sys.spawnThread { [self] in writeLoop() }
    }

    /// Records one answer. `user` is the request's `user` when it is a string.
    func record(op: String, requestID: String, user: String?, code: String, microseconds: UInt64) {
        var fields: [String: JSONValue] = [
            "ts": .string(ServerLog.timestamp()), "op": .string(op), "request_id": .string(requestID), "code": .string(code),
            "ms": .number(Double(microseconds) / 1000),
        ]
        if let user { fields["user"] = .string(ClientText.quoted(user, limit: 128)) }
        var line = JSONWriter.bytes(.object(fields))
        line.append(0x0A)
        state.withLock { s in
            guard s.buffer.count + line.count <= Self.maximumBufferedBytes else { s.dropped += 1; return }
            s.buffer += line
        }
    }

    /// Writes what is buffered and stops the writer (idempotent).
    public func stop() {
        state.withLock { $0.running = false }
        while !stopped.withLock({ $0 }) { usleep(Self.flushIntervalMilliseconds * 100) }
    }

    private func writeLoop() {
        while true {
            usleep(Self.flushIntervalMilliseconds * 1000)
            let (bytes, dropped, running) = state.withLock { s -> ([UInt8], Int, Bool) in
                defer { s.buffer = []; s.dropped = 0 }
                return (s.buffer, s.dropped, s.running)
            }
            var out = bytes
            if dropped > 0 {
                out += JSONWriter.bytes(["ts": .string(ServerLog.timestamp()), "event": "access_log_dropped",
                                         "count": .number(Double(dropped))]) + [0x0A]
            }
            writeAll(out)
            if !running {
                if closesFD { Glibc.close(fd) }
                stopped.withLock { $0 = true }
                return
            }
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n > 0 { written += n } else if n < 0, errno == EINTR { continue } else { return }  // a full disk: lose the lines, not the daemon
        }
    }
}
