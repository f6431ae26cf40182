import Foundation
import Synchronization
import RunusCore
import Storage

/// Daemons on one PostgreSQL database tell each other what changed with LISTEN/NOTIFY on the
/// channel `runus_peers` (docs/decisions/0541-replicas.md). A committing transaction that
/// issued NOTIFY takes a database-wide lock, so nothing notifies inside the race log's
/// appends: announced races are gathered for `coalescing` seconds and sent together, one
/// `pg_notify` a window at most (a payload is kept under PostgreSQL's 8,000 bytes by
/// splitting), from a connection of the channel's own.
///
/// Both directions survive a lost server: the sender keeps what it could not send and tries
/// again with backoff; the listener reconnects with backoff and then delivers a `resync`
/// (messages sent meanwhile are lost, so everything is caught up from the database).
public final class PostgresPeerChannel: PeerChannel, @unchecked Sendable {
    /// This daemon's name on the channel: 128 random bits, so that it skips its own messages.
    public let replicaID: String
    /// How long announced races are gathered before one notification carries them, seconds.
    public let coalescing: Double
    static let channel = "runus_peers"
    /// The largest payload sent, bytes (PostgreSQL refuses 8,000 and more).
    static let payloadLimit = 7_000

    private let info: PostgresConnectionInfo
    private let configuration: PostgresConfiguration
    private let log: @Sendable (String) -> Void
    private let lock = PoolLock()
    // Guarded by `lock`.
    private var pendingRaces: Set<String> = []
    private var pendingReload = false
    private var pendingForgotten: [UserID] = []
    private var running = false
    /// Counters for the benchmark: notifications sent and received (others' only).
    private let sentCount = Atomic<Int>(0)
    private let receivedCount = Atomic<Int>(0)

    public init(store: PostgresStore, coalescing: Double = 0.005, log: @escaping @Sendable (String) -> Void) {
        info = store.pool.info
        configuration = store.pool.configuration
        self.coalescing = coalescing
        self.log = log
        var generator = SystemRandomNumberGenerator()
        replicaID = (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Notifications this daemon sent, and received from others, since it started.
    public var counts: (sent: Int, received: Int) { (sentCount.load(ordering: .relaxed), receivedCount.load(ordering: .relaxed)) }

    public func start(_ receive: @escaping @Sendable (PeerMessage) -> Void) throws {
        // The first LISTEN is made here, so that a daemon that starts has its channel (or fails).
        let listener = try connectListening()
        lock.withLock { running = true }
        let box = ConnectionBox(listener)
        Thread.detachNewThread { [self] in listen(box, receive) }
        Thread.detachNewThread { [self] in send() }
    }

    public func announce(races: [String]) {
        lock.withLock {
            let wasEmpty = pendingRaces.isEmpty && !pendingReload
            pendingRaces.formUnion(races)
            if wasEmpty { lock.broadcast() }
        }
    }

    public func announceForgotten(users: [UserID]) {
        lock.withLock {
            pendingForgotten += users
            lock.broadcast()
        }
    }

    public func announceReload() {
        lock.withLock {
            pendingReload = true
            lock.broadcast()
        }
    }

    public func stop() {
        lock.withLock {
            running = false
            lock.broadcast()
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    // MARK: listening

    final class ConnectionBox: @unchecked Sendable {
        var connection: PGConnection?
        init(_ connection: PGConnection?) { self.connection = connection }
    }

    private func connect() throws -> PGConnection {
        try PGConnection.connect(info, timeout: configuration.connectTimeout, requestTimeout: configuration.requestTimeout,
                                 statementTimeout: configuration.statementTimeout, idleInTransactionTimeout: 0)
    }

    private func connectListening() throws -> PGConnection {
        let connection = try connect()
        try connection.execute("LISTEN \(Self.channel)")
        return connection
    }

    private func listen(_ box: ConnectionBox, _ receive: @Sendable (PeerMessage) -> Void) {
        var backoff = ReconnectBackoff()
        while isRunning {
            guard let connection = box.connection else {
                SocketWait.sleep(seconds: backoff.next())
                if let fresh = try? connectListening() {
                    box.connection = fresh
                    backoff = ReconnectBackoff()
                    log(Self.line("info", "peer_channel_restored", "listen", nil))
                    receive(PeerMessage(resync: true))
                }
                continue
            }
            do {
                for (channel, payload) in try connection.notifications(waiting: 0.25) where channel == Self.channel {
                    guard let message = Self.decode(payload, skipping: replicaID) else { continue }
                    receivedCount.add(1, ordering: .relaxed)
                    receive(message)
                }
            } catch {
                box.connection = nil
                log(Self.line("warning", "peer_channel_lost", "listen", error))
            }
        }
    }

    // MARK: sending

    private func send() {
        var connection: PGConnection?
        var backoff = ReconnectBackoff()
        while true {
            let alive: Bool = lock.withLock {
                while running && pendingRaces.isEmpty && !pendingReload && pendingForgotten.isEmpty {
                    _ = lock.wait(until: SocketWait.deadline(after: 1))
                }
                return running
            }
            guard alive else { return }
            // Gather what else is announced in the window, then send it all.
            SocketWait.sleep(seconds: coalescing)
            let (races, reload, forgotten) = lock.withLock { () -> ([String], Bool, [UserID]) in
                defer { pendingRaces.removeAll(); pendingReload = false; pendingForgotten.removeAll() }
                return (pendingRaces.sorted(), pendingReload, pendingForgotten)
            }
            do {
                if connection == nil { connection = try connect() }
                for payload in Self.payloads(from: replicaID, races: races, reload: reload, forgotten: forgotten) {
                    guard let c = connection else { break }
                    try c.run(PGQuery("SELECT pg_notify($1, $2)", [.text, .text]), [.text(Self.channel), .text(payload)])
                    sentCount.add(1, ordering: .relaxed)
                }
                backoff = ReconnectBackoff()
            } catch {
                connection = nil
                // Keep what was not sent: it goes with the next window.
                lock.withLock {
                    pendingRaces.formUnion(races)
                    pendingReload = pendingReload || reload
                    pendingForgotten = forgotten + pendingForgotten
                }
                log(Self.line("warning", "peer_channel_lost", "send", error))
                SocketWait.sleep(seconds: backoff.next())
            }
        }
    }

    /// A JSON log line like the daemon's own.
    static func line(_ level: String, _ event: String, _ direction: String, _ error: (any Error)?) -> String {
        var members: [String: JSONValue] = ["level": .string(level), "event": .string(event), "direction": .string(direction)]
        if let error { members["message"] = .string("\(error)") }
        return JSONWriter.string(.object(members))
    }

    // MARK: payloads

    /// The JSON payloads that carry `races`, `forgotten` and `reload` from `from`, each under
    /// `payloadLimit` bytes: {"from": id, "races": [...], "reload": bool}, with "forget":
    /// [...] when runners were deleted (a daemon built before record 0553 ignores it).
    static func payloads(from: String, races: [String], reload: Bool, forgotten: [UserID] = []) -> [String] {
        struct Batch { var races: [JSONValue] = []; var forgotten: [JSONValue] = [] }
        var batches: [Batch] = []
        var batch = Batch()
        var size = 0
        let room = payloadLimit - 200  // the rest of the object
        for (id, isRace) in races.map({ ($0, true) }) + forgotten.map({ ($0, false) }) {
            let encoded = JSONWriter.string(.string(id)).utf8.count + 1
            guard encoded < room else { continue }  // no race or runner id is this long
            if size + encoded > room {
                batches.append(batch)
                batch = Batch()
                size = 0
            }
            if isRace { batch.races.append(.string(id)) } else { batch.forgotten.append(.string(id)) }
            size += encoded
        }
        if !batch.races.isEmpty || !batch.forgotten.isEmpty || reload { batches.append(batch) }
        return batches.enumerated().map { i, b in
            var object: [String: JSONValue] = ["from": .string(from), "races": .array(b.races), "reload": .bool(reload && i == batches.count - 1)]
            if !b.forgotten.isEmpty { object["forget"] = .array(b.forgotten) }
            return JSONWriter.string(.object(object))
        }
    }

    /// The message in a payload; nil for one this daemon sent or one that is not a message.
    static func decode(_ payload: String, skipping own: String) -> PeerMessage? {
        guard payload.utf8.count <= 8_000, let value = try? JSONParser.parse(payload),
              let from = value["from"]?.stringValue, from != own else { return nil }
        let races = (value["races"]?.arrayValue ?? []).prefix(1_000).compactMap(\.stringValue)
        let forgotten = (value["forget"]?.arrayValue ?? []).prefix(1_000).compactMap(\.stringValue)
        return PeerMessage(races: Array(races), reload: value["reload"]?.boolValue ?? false, forgotten: Array(forgotten))
    }
}

/// Waits between reconnection attempts: 0.1 s doubling to 5 s.
struct ReconnectBackoff {
    private var delay = 0.05
    mutating func next() -> Double {
        delay = min(5, delay * 2)
        return delay
    }
}
