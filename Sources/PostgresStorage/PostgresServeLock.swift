import Synchronization
import RunusCore
import Storage

/// One daemon per PostgreSQL database, until replicas share races (issue 26, item 4; record
/// 0406 amendment): `runus serve` holds a session advisory lock on a connection of its own for
/// as long as it runs, so a second daemon on the same database is refused at start, naming the
/// holder, instead of resuming the same races and writing their logs twice. PostgreSQL drops
/// the lock when the holder's session ends (the process died, or its connection was lost).
public final class PostgresServeLock: Sendable {
    /// The advisory lock key ("runS" as a number): below 2^32, so it shows in `pg_locks` as
    /// classid 0, objid key, objsubid 1.
    static let key: Int64 = 0x72_75_6E_53
    private let connection: Mutex<PGConnectionBox?>

    final class PGConnectionBox: @unchecked Sendable {
        let connection: PGConnection
        init(_ connection: PGConnection) { self.connection = connection }
    }

    /// Takes the lock on `store`'s database; throws `StorageError.alreadyServed` naming the
    /// holder's server backend when another session has it.
    public init(store: PostgresStore) throws {
        let configuration = store.pool.configuration
        let c = try PGConnection.connect(store.pool.info, timeout: configuration.connectTimeout,
                                         requestTimeout: configuration.requestTimeout,
                                         statementTimeout: configuration.statementTimeout, idleInTransactionTimeout: 0)
        let taken = try c.run(PGQuery("SELECT pg_try_advisory_lock($1)", [.int8]), [.int64(Self.key)], prepare: false)
        guard try taken.bool(0, 0) else {
            let holder = try? c.run(PGQuery("""
                SELECT a.pid::int8, coalesce(host(a.client_addr), 'a local socket'), a.application_name,
                       extract(epoch from a.backend_start)::float8
                FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid::int8 = $1 AND l.objsubid = 1
                """, [.int8]), [.int64(Self.key)], prepare: false)
            var text = "holder unknown"
            if let holder, holder.count > 0 {
                let pid = (try? holder.int64(0, 0)) ?? 0
                let client = (try? holder.string(0, 1)) ?? "?"
                let since = Int(saturating: ((try? holder.double(0, 3)) ?? 0).rounded())
                text = "server backend pid \(pid), client \(client), since \(since) (Unix seconds)"
            }
            throw StorageError.alreadyServed(path: store.location, holder: text)
        }
        connection = Mutex(PGConnectionBox(c))
    }

    /// Gives the lock up (the daemon stopped): closing the session releases it.
    public func release() { connection.withLock { $0 = nil } }
}
