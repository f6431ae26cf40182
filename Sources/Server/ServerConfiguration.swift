#if canImport(Glibc)
import Glibc
#endif

/// Everything `LineServer` can be told. Defaults are explained in
/// docs/decisions/0501-line-and-buffer-limits.md, 0512-connection-limits.md, 0513-auth-token.md,
/// 0530-daemon-memory-cap.md and 0531-line-deadline.md.
public struct ServerConfiguration: Sendable {
    /// Where to listen; at least one.
    public var addresses: [ServerAddress]
    /// Largest request line content in bytes (terminator excluded), 1...Int.max. Default 4 MiB.
    public var maximumLineBytes: Int = 4 * 1024 * 1024
    /// Pending output per connection, in bytes, above which the server stops reading (and
    /// answering) that connection until the client has read some. Default 1 MiB.
    public var outputHighWaterBytes: Int = 1024 * 1024
    /// Bytes read per `read` call, 1...Int.max. Default 64 KiB. Also the buffer capacity a
    /// connection keeps per direction once drained, and the size of a short request for the
    /// memory cap (record 0530).
    public var readChunkBytes: Int = 64 * 1024
    /// `listen` backlog (connections queued before accept), 1...SOMAXCONN. Default 511.
    public var listenBacklog: Int32 = 511
    /// How long `stop()` waits for pending answers to be written before closing anyway.
    public var drainTimeout: Duration = .seconds(5)
    /// After a `line_too_long` answer, how long to keep reading (and dropping) what the client
    /// still sends, so that our close does not reset the connection before it reads the answer.
    public var lingerTimeout: Duration = .seconds(2)
    /// Mode of a Unix socket file (owner and group read/write). Default 0o660.
    public var unixSocketMode: UInt32 = 0o660
    /// Event loops (threads) serving connections, 1...256. Default: one per available core
    /// (decision 0510). Loop 0 also accepts and hands connections to the loops in turn.
    public var loopCount: Int = ServerConfiguration.availableCores
    /// Operations run on the worker pool instead of the loop (imports, reloads: anything that
    /// takes milliseconds or blocks). Answers still come back in request order.
    public var offloadedOperations: Set<String> = []
    /// Threads running offloaded operations, 1...1024. Default 4: they mostly wait (on the
    /// store's lock, on disk), so a few more than the cores keep the cores busy.
    public var workerThreads: Int = 4
    /// Open connections above which a new one gets an `unavailable` answer and is closed,
    /// 1...Int.max. Default 4096 (keep it under the process's descriptor limit).
    public var maximumConnections: Int = 4096
    /// A connection with no byte read or written for this long is closed (a stalled client
    /// holds no buffers for ever). Requests running for it keep it open. Default 300 s.
    public var idleTimeout: Duration = .seconds(300)
    /// Lines answered per connection per loop turn before other connections get theirs,
    /// 1...Int.max. Default 32.
    public var linesPerTurn: Int = 32
    /// Bytes all connections together may hold in input buffers, output queues and answers
    /// waiting behind a running request, 1...Int.max (record 0530). Partial lines longer than
    /// one read may use three quarters of it. Default 256 MiB.
    public var maximumBufferedBytes: Int = 256 * 1024 * 1024
    /// A request line must be complete this long after its first byte arrived, or the
    /// connection gets `line_timeout` and is closed (record 0531): a client trickling bytes
    /// resets the idle timeout but not this. Default 30 s.
    public var lineDeadline: Duration = .seconds(30)
    /// Pending output must see a byte read by the client this long after it was last sent to,
    /// or the connection is closed (record 0555): a client that asks and never reads holds
    /// its answers' memory no longer than this. Default 30 s.
    public var writeDeadline: Duration = .seconds(30)
    /// Bytes of a streamed answer (`Router.registerStreamed`) made at a time, 1...Int.max
    /// (record 0555). Default 256 KiB.
    public var streamPartBytes: Int = 256 * 1024
    /// When set, TCP connections must send `{"op":"auth","token":…}` with these bytes first;
    /// Unix socket connections are exempt (file permissions guard them).
    public var authToken: [UInt8]? = nil
    /// Failed `auth` attempts a connection may make; the last one's answer says so and the
    /// connection is closed, 1...Int.max (record 0513). Default 3.
    public var maximumAuthFailures: Int = 3
    /// After a failed `auth`, the connection reads and answers nothing more for this long
    /// (its answer is sent at once). Default 1 s.
    public var authFailureDelay: Duration = .seconds(1)
    /// Failed `auth` attempts one source address may make in a burst, daemon-wide, before its
    /// attempts are refused uncompared (`AuthThrottle`; record 0513), 1...Int.max. Default 10.
    public var authFailuresPerSource: Int = 10
    /// How long until one failure of a source is forgiven. Default 6 s: 10 a minute once the
    /// burst is spent.
    public var authFailureRefill: Duration = .seconds(6)
    /// Log lines written per second, daemon-wide, for each event a client can cause at will
    /// (`auth_failed`, `buffer_cap_refused`, `line_deadline`), 1...Int.max; the rest are counted
    /// in one `<event>_suppressed` line per second. Default 10.
    public var clientEventLogsPerSecond: Int = 10
    /// Requests slower than this are logged (`slow_request`, with the request id). Default 250 ms.
    public var slowRequestThreshold: Duration = .milliseconds(250)
    /// When set, each loop round first reads every waiting connection, shows the round's lines
    /// to this, and answers them inside its `answer` (record 0545). Nil: each connection is
    /// answered as soon as it is read.
    public var roundPreparation: (any RoundPreparation)? = nil
    /// Receives one line per noteworthy event (accept failures, internal errors).
    public var log: @Sendable (String) -> Void = ServerConfiguration.logToStandardError

    public init(addresses: [ServerAddress]) {
        self.addresses = addresses
    }

    /// Online cores (sysconf), at least 1.
    public static var availableCores: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Writes `text` and a newline to stderr with one `write` (no stdio buffering).
    public static let logToStandardError: @Sendable (String) -> Void = { text in
        var line = Array(text.utf8)
        line.append(0x0A)
        line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
