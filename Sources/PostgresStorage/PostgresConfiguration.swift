/// Pool size and timeouts of a `PostgresStore` (record 0406 gives the reasons). Seconds
/// throughout.
public struct PostgresConfiguration: Sendable, Equatable {
    /// Connections the pool opens at most, ≥ 1: the daemon's event loops (one per core) plus its
    /// 4 workers on the reference 2-core machine, so that concurrent requests never queue for
    /// a connection there. Each costs the server a backend process (~10 MB).
    public var poolSize = 8
    /// Longest wait for a connection to be established.
    public var connectTimeout = 3.0
    /// The server's `statement_timeout`: it cancels a statement that runs (or waits for a lock)
    /// longer.
    public var statementTimeout = 8.0
    /// The client's deadline for one exchange (a statement, a prepare, a commit): longer than
    /// `statementTimeout`, so that a live server's own cancellation, with its clearer message,
    /// arrives first; it only fires when the server does not answer at all.
    public var requestTimeout = 10.0
    /// The server's `idle_in_transaction_session_timeout`: a transaction whose client stopped
    /// (frozen, partitioned) releases its locks after this long.
    public var idleInTransactionTimeout = 60.0
    /// Longest wait for a free connection when all `poolSize` are in use.
    public var acquireTimeout = 10.0
    /// Times a transaction is run in all when the server refuses it as not serialisable
    /// (40001), picks it as a deadlock victim (40P01), or loses its connection before COMMIT.
    public var transactionAttempts = 20
    /// Reconnect backoff: the first delay after a failed connect, doubling up to the maximum.
    public var firstReconnectDelay = 0.1
    public var maximumReconnectDelay = 5.0

    public init() {}

    /// The daemon's: requests fail within seconds when the server does not answer.
    public static let daemon = PostgresConfiguration()

    /// Offline commands (train, report, copy, import): statements over a whole history may
    /// take minutes; there is no client waiting on a socket.
    public static var offline: PostgresConfiguration {
        var c = PostgresConfiguration()
        c.statementTimeout = 600
        c.requestTimeout = 610
        c.acquireTimeout = 600
        c.idleInTransactionTimeout = 600
        return c
    }
}
