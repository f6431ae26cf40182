#if canImport(Glibc)
import Glibc
#endif
import Storage

/// A `PostgresStore`'s connections: at most `poolSize`, opened on demand and kept while they
/// work, so that concurrent requests run on connections of their own instead of queueing on
/// one. A transaction binds one connection to the thread that opened it, until it ends: every
/// store call that thread makes meanwhile (nested transactions included) runs on it, and no
/// other thread can use it.
///
/// A connection found broken is dropped (with the idle ones when the server went away: they
/// are dead too); the next request opens a new one. When connecting fails, requests fail fast
/// while `ReconnectStateMachine` backs off.
final class ConnectionPool: @unchecked Sendable {
    let info: PostgresConnectionInfo
    let configuration: PostgresConfiguration
    private let lock = PoolLock()
    private var idle: [PGConnection] = []
    /// Connections that exist or are being opened (idle, in use, connecting).
    private var open = 0
    private var reconnect: ReconnectStateMachine
    /// The connection of each thread's open transaction.
    private var bound: [pthread_t: PGConnection] = [:]
    private var isClosed = false

    init(info: PostgresConnectionInfo, configuration: PostgresConfiguration) {
        self.info = info
        self.configuration = configuration
        reconnect = ReconnectStateMachine(firstDelay: configuration.firstReconnectDelay,
                                          maximumDelay: configuration.maximumReconnectDelay)
    }

    var database: String { info.description }

    /// Connections open now (idle or in use).
    var openConnections: Int { lock.withLock { open } }

    /// The calling thread's transaction connection, if it has one open.
    var boundConnection: PGConnection? { lock.withLock { bound[pthread_self()] } }

    /// Runs `body` on the calling thread's transaction connection, or on a pooled one for the
    /// length of the call. An `idempotent` body (a read) runs once more on a new connection
    /// when the reused one it got had lost its server (which restarted since its last use).
    func withConnection<T>(idempotent: Bool, _ body: (PGConnection) throws -> T) throws -> T {
        if let connection = boundConnection { return try body(connection) }
        var retried = false
        while true {
            let connection = try checkOut()
            do {
                let result = try body(connection)
                checkIn(connection)
                return result
            } catch {
                checkIn(connection)
                let stale = connection.lostServer && connection.uses > 1
                if idempotent, stale, !retried {
                    retried = true
                    continue
                }
                throw error
            }
        }
    }

    // MARK: Checking out and in

    /// An idle connection, or a new one when fewer than `poolSize` are open; otherwise waits up
    /// to `acquireTimeout` for one to come back.
    func checkOut() throws -> PGConnection {
        let deadline = SocketWait.deadline(after: configuration.acquireTimeout)
        let reused: PGConnection? = try lock.withLock {
            while true {
                if isClosed { throw StorageError.closed(operation: "a statement on \(database)") }
                if let connection = idle.popLast() { return connection }
                if open < configuration.poolSize {
                    switch reconnect.connectionWanted(now: SocketWait.now()) {
                    case .connect:
                        open += 1
                        return nil
                    case let .failFast(detail, retryIn):
                        let next = retryIn > 0 ? "; next attempt in \(rounded(retryIn)) s" : "; another request is trying to reconnect"
                        throw StorageError.unavailable(database: database, operation: "connect",
                                                       reason: "the server could not be reached\(next)", detail: detail)
                    }
                }
                if !lock.wait(until: deadline), SocketWait.now() >= deadline {
                    throw StorageError.unavailable(
                        database: database, operation: "wait for a connection",
                        reason: "all \(configuration.poolSize) connections stayed busy for \(seconds(configuration.acquireTimeout))",
                        detail: "")
                }
            }
        }
        if let reused {
            reused.uses += 1
            return reused
        }
        do {
            let connection = try PGConnection.connect(
                info, timeout: configuration.connectTimeout, requestTimeout: configuration.requestTimeout,
                statementTimeout: configuration.statementTimeout, idleInTransactionTimeout: configuration.idleInTransactionTimeout)
            lock.withLock { reconnect.connected() }
            connection.uses = 1
            return connection
        } catch {
            lock.withLock {
                open -= 1
                reconnect.connectFailed(now: SocketWait.now(), reason: Self.detail(of: error))
                lock.broadcast()
            }
            throw error
        }
    }

    /// Returns a connection: kept when healthy and outside any transaction, dropped otherwise.
    func checkIn(_ connection: PGConnection) {
        lock.withLock {
            if connection.isBroken || connection.depth != 0 || isClosed {
                open -= 1
                if connection.lostServer {
                    open -= idle.count
                    idle.removeAll()
                }
            } else {
                idle.append(connection)
            }
            lock.broadcast()
        }
    }

    // MARK: Transactions' bindings

    func bind(_ connection: PGConnection) {
        lock.withLock { bound[pthread_self()] = connection }
    }

    func unbind() {
        _ = lock.withLock { bound.removeValue(forKey: pthread_self()) }
    }

    /// Closes the idle connections now and every other one as it comes back; later calls throw
    /// `StorageError.closed`.
    func close() {
        lock.withLock {
            isClosed = true
            open -= idle.count
            idle.removeAll()
            lock.broadcast()
        }
    }

    private static func detail(of error: any Error) -> String {
        if case let StorageError.unavailable(_, _, reason, detail) = error { return detail.isEmpty ? reason : "\(reason): \(detail)" }
        return "\(error)"
    }
}

/// Seconds with two decimals, for messages.
func rounded(_ seconds: Double) -> String {
    let hundredths = (seconds * 100).rounded() / 100
    return "\(hundredths)"
}
