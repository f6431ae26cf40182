#if canImport(Glibc)
import Glibc
#endif

/// Everything `LineServer` can be told. Defaults are explained in
/// docs/decisions/0501-line-and-buffer-limits.md.
public struct ServerConfiguration: Sendable {
    /// Where to listen; at least one.
    public var addresses: [ServerAddress]
    /// Largest request line content in bytes (terminator excluded), 1...Int.max. Default 4 MiB.
    public var maximumLineBytes: Int = 4 * 1024 * 1024
    /// Pending output per connection, in bytes, above which the server stops reading (and
    /// answering) that connection until the client has read some. Default 1 MiB.
    public var outputHighWaterBytes: Int = 1024 * 1024
    /// Bytes read per `read` call, 1...Int.max. Default 64 KiB.
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
    /// Receives one line per noteworthy event (accept failures, internal errors).
    public var log: @Sendable (String) -> Void = ServerConfiguration.logToStandardError

    public init(addresses: [ServerAddress]) {
        self.addresses = addresses
    }

    /// Writes `text` and a newline to stderr with one `write` (no stdio buffering).
    public static let logToStandardError: @Sendable (String) -> Void = { text in
        var line = Array(text.utf8)
        line.append(0x0A)
        line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
