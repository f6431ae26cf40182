#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import RunusCore
import Synchronization

/// A line-delimited JSON server: listeners, N epoll loops with their connections, a worker
/// pool for slow operations, and a `Router` that can be swapped while serving.
///
///     let server = LineServer(configuration: config, router: router)
///     let bound = try server.start()        // listening now: print a readiness line
///     server.installShutdownSignals { signal in log("signal \(signal), stopping") }
///     try server.run()                       // blocks until stop() or SIGTERM/SIGINT
///
/// `stop()` may be called from any thread (or a handler). Loop 0 runs on the thread inside
/// `run()`, accepts, and deals connections to the loops in turn (decision 0510).
public final class LineServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    private let routerBox: Reloadable<Router>
    /// Where offloaded operations (and SIGHUP reloads) run.
    let workers: WorkerPool

    private enum Phase { case created, started, running, stopped }
    private let phase = Mutex<Phase>(.created)
    private let stopRequested = Atomic<Bool>(false)
    private let openConnections = Atomic<Int>(0)
    private let nextConnectionID = Atomic<UInt64>(1)
    private let acceptPaused = Atomic<Bool>(false)
    /// Memory held for clients, all loops together (record 0530).
    let budget: BufferBudget
    /// Failed `auth` attempts by source address (record 0513).
    let authThrottle: Mutex<AuthThrottle>
    /// Log lines a client can cause at will, limited per second daemon-wide (record 0513).
    private let limitedLogs: Mutex<[LimitedLogEvent: LogRateLimiter]>
    /// Which loop owns each open connection (for pushed lines), and who hears of closes.
    let connectionLoopIndex = Mutex<[UInt64: Int]>([:])
    let closedHandler = Mutex<HandlerBox<UInt64>?>(nil)

    // Set up in start(); loop 0's state is confined to the thread in run().
    private(set) var loops: [ConnectionLoop] = []
    private var listeners: [Listener] = []
    private var listenerSources: [ListenerSource] = []
    private var draining = false
    private var nextLoop = 0

    public init(configuration: ServerConfiguration, router: Router) {
        precondition(!configuration.addresses.isEmpty, "LineServer needs at least one address")
        precondition(configuration.readChunkBytes > 0 && configuration.outputHighWaterBytes > 0,
                     "readChunkBytes and outputHighWaterBytes must be positive")
        precondition((1...256).contains(configuration.loopCount), "loopCount \(configuration.loopCount) outside 1...256")
        precondition(configuration.maximumConnections > 0
                     && configuration.linesPerTurn > 0 && configuration.maximumAuthFailures > 0
                     && configuration.clientEventLogsPerSecond > 0 && configuration.lineDeadline > .zero,
                     "connection limits must be positive")
        self.configuration = configuration
        self.budget = BufferBudget(limit: configuration.maximumBufferedBytes, smallInputBytes: configuration.readChunkBytes)
        let limiter = LogRateLimiter(perWindow: configuration.clientEventLogsPerSecond, windowNanoseconds: 1_000_000_000)
        self.authThrottle = Mutex(AuthThrottle(burst: configuration.authFailuresPerSource,
                                               refill: Self.nanoseconds(configuration.authFailureRefill)))
        self.limitedLogs = Mutex(Dictionary(uniqueKeysWithValues: LimitedLogEvent.allCases.map { ($0, limiter) }))
        self.routerBox = Reloadable(router)
        self.workers = WorkerPool(threads: configuration.workerThreads)
    }

    deinit {
        workers.shutdown()
        // Started but never run: release the sockets and the socket file.
        phase.withLock { phase in
            if phase == .started {
                listeners.forEach { $0.close() }
                loops.forEach { $0.loop.close() }
                ShutdownSignals.detach(for: ObjectIdentifier(self))
            }
        }
    }

    /// The router answering requests now.
    public var router: Router { routerBox.current }

    /// Installs `router` for every request taken from now on; requests already running finish
    /// with the old one. This is the atomic swap behind a hot model reload.
    @discardableResult
    public func replaceRouter(with router: Router) -> Router { routerBox.replace(with: router) }

    /// Connections open now (all loops), >= 0.
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    /// Bytes of memory connections hold now for their clients (buffers and queues, all loops),
    /// what `maximumBufferedBytes` caps (record 0530).
    public var bufferedByteCount: Int { budget.heldBytes }

    /// The most `bufferedByteCount` has been since start.
    public var peakBufferedByteCount: Int { budget.peakBytes }

    /// Opens every listener and returns the bound addresses (TCP port 0 replaced by the real
    /// port). When this returns, clients can connect (they are queued until `run()`).
    @discardableResult
    public func start() throws -> [ServerAddress] {
        try phase.withLock { phase in
            guard phase == .created else { throw ServerError.wrongState("LineServer.start() called twice") }
            Sys.ignoreSIGPIPE()
            Sys.pinMmapThreshold(Int32(clamping: configuration.readChunkBytes))
            var created: [ConnectionLoop] = []
            var opened: [Listener] = []
            do {
                for index in 0..<configuration.loopCount { created.append(try ConnectionLoop(index: index, server: self)) }
                for address in configuration.addresses {
                    opened.append(try Listener.open(address, backlog: configuration.listenBacklog,
                                                    unixMode: configuration.unixSocketMode))
                }
                for listener in opened {
                    let source = ListenerSource(listener: listener, server: self)
                    source.token = try created[0].loop.add(listener.fd, events: EpollBits.readable, source: source)
                    listenerSources.append(source)
                }
            } catch {
                opened.forEach { $0.close() }
                created.forEach { $0.loop.close() }
                listenerSources = []
                throw error
            }
            created[0].loop.setWakeHandler { [unowned self] in self.woke() }
            self.loops = created
            self.listeners = opened
            phase = .started
            ShutdownSignals.attach(wakeFD: created[0].loop.rawWakeFD, for: ObjectIdentifier(self))
            ShutdownSignals.attachReload(wakeFD: created[0].loop.rawWakeFD, for: ObjectIdentifier(self))
        }
        return boundAddresses
    }

    /// The addresses listened on, after `start()`.
    public var boundAddresses: [ServerAddress] { listeners.map(\.boundAddress) }

    /// Serves until `stop()` (or a shutdown signal), then drains and closes everything.
    public func run() throws {
        try phase.withLock { phase in
            guard phase == .started else { throw ServerError.wrongState("LineServer.run() needs start() first, and runs once") }
            phase = .running
        }
        let others = loops.dropFirst()
        let finished = DispatchSemaphore(value: 0)
        let failures = Mutex<[String]>([])
        for context in others {
            Sys.spawnThread {
                do { try context.run() } catch { failures.withLock { $0.append("loop \(context.index): \(error)") } }
                finished.signal()
            }
        }
        defer {
            for _ in others { finished.wait() }
            finish()
        }
        woke()  // a stop or signal that came before run()
        try loops[0].run()
        for failure in failures.withLock({ $0 }) { configuration.log(ServerLog.line(.error, "loop_failed", ["message": .string(failure)])) }
    }

    /// Stops accepting, finishes pending answers (up to `drainTimeout`), closes every socket
    /// and removes Unix socket files; `run()` then returns. Thread-safe, idempotent.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        phase.withLock { phase in
            if phase == .started || phase == .running { loops[0].loop.wakeUp() }
        }
    }

    /// Installs SIGTERM and SIGINT handlers that make `run()` call `handler` (on loop 0's
    /// thread, with the signal number) and then stop as `stop()` does, so `main` can return 0.
    /// Call it early: signals before this call keep their default action.
    public func installShutdownSignals(_ handler: @escaping @Sendable (Int32) -> Void = { _ in }) {
        ShutdownSignals.install(for: ObjectIdentifier(self), handler)
        phase.withLock { phase in
            if phase == .started || phase == .running {
                ShutdownSignals.attach(wakeFD: loops[0].loop.rawWakeFD, for: ObjectIdentifier(self))
            }
        }
    }

    /// Installs a SIGHUP handler: each SIGHUP runs `reload` once on the worker pool (never on a
    /// loop, so reading a model does not stall requests). A process has one SIGHUP owner: the
    /// latest caller.
    public func installReloadSignal(_ reload: @escaping @Sendable () -> Void) {
        ShutdownSignals.installReload(for: ObjectIdentifier(self), reload)
        phase.withLock { phase in
            if phase == .started || phase == .running {
                ShutdownSignals.attachReload(wakeFD: loops[0].loop.rawWakeFD, for: ObjectIdentifier(self))
            }
        }
    }

    static func nanoseconds(_ d: Duration) -> Int64 {
        let (seconds, attoseconds) = d.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Logs a request slower than `slowRequestThreshold`.
    func noteLatency(_ request: Request, startedAt: Int64) {
        let elapsed = Sys.monotonicNanoseconds() - startedAt
        guard elapsed >= Self.nanoseconds(configuration.slowRequestThreshold) else { return }
        configuration.log(ServerLog.line(.warn, "slow_request", [
            "op": .string(request.op), "request_id": .string(request.requestID), "id": request.id,
            "connection": .number(Double(request.connectionID)), "ms": .number(Double(elapsed / 1000) / 1000),
        ]))
    }

    /// Events a client can cause as often as it likes, whose log lines are rate-limited.
    enum LimitedLogEvent: CaseIterable { case authFailed, bufferCap, lineDeadline, writeDeadline }

    /// Writes the event's line unless this second already had `clientEventLogsPerSecond` of
    /// them; a line counting the suppressed ones follows the window (here or in
    /// `flushLimitedLogs`).
    func logLimited(_ kind: LimitedLogEvent, _ fields: [String: JSONValue]) {
        let now = Sys.monotonicNanoseconds()
        let (write, suppressed) = limitedLogs.withLock { $0[kind]?.admit(now: now) ?? (true, 0) }
        if suppressed > 0 { logSuppressed(Self.eventName(kind), suppressed) }
        if write { configuration.log(ServerLog.line(.warn, Self.eventName(kind), fields)) }
    }

    /// Reports the counts of windows that ended with suppressed lines (called by every loop's
    /// sweep, at most a second apart).
    func flushLimitedLogs(now: Int64) {
        let due: [(LimitedLogEvent, Int)] = limitedLogs.withLock { table in
            LimitedLogEvent.allCases.compactMap { kind in table[kind]?.flush(now: now).map { (kind, $0) } }
        }
        for (kind, count) in due { logSuppressed(Self.eventName(kind), count) }
    }

    private static func eventName(_ kind: LimitedLogEvent) -> String {
        switch kind {
        case .authFailed: "auth_failed"
        case .bufferCap: "buffer_cap_refused"
        case .lineDeadline: "line_deadline"
        case .writeDeadline: "write_deadline"
        }
    }

    private func logSuppressed(_ event: String, _ count: Int) {
        configuration.log(ServerLog.line(.warn, event + "_suppressed", ["count": .number(Double(count)), "seconds": 1]))
    }

    // MARK: loop-0 internals

    private func woke() {
        if let handler = ShutdownSignals.handler(for: ObjectIdentifier(self)),
           let signal = ShutdownSignals.takePending() {
            handler(signal)
            stopRequested.store(true, ordering: .sequentiallyConsistent)
        }
        if let reload = ShutdownSignals.reloadHandler(for: ObjectIdentifier(self)), ShutdownSignals.takePendingReload() {
            workers.async { reload() }
        }
        if stopRequested.load(ordering: .sequentiallyConsistent), !draining { beginDraining() }
    }

    private func beginDraining() {
        draining = true
        let deadline = Sys.monotonicNanoseconds() + Self.nanoseconds(configuration.drainTimeout)
        closeListeners()
        loops[0].beginDraining(deadline: deadline)
        for context in loops.dropFirst() { context.loop.execute { context.beginDraining(deadline: deadline) } }
    }

    private func closeListeners() {
        for source in listenerSources { loops[0].loop.remove(source.listener.fd, token: source.token) }
        listenerSources = []
        listeners.forEach { $0.close() }
    }

    private func finish() {
        for context in loops { context.closeAll() }
        if !draining { closeListeners() }
        ShutdownSignals.detach(for: ObjectIdentifier(self))
        phase.withLock { phase in
            loops.forEach { $0.loop.close() }
            phase = .stopped
        }
        workers.shutdown()
    }

    /// A new descriptor from a listener (loop 0): refused when full, else dealt to the next loop.
    func accepted(fd: Int32, unix: Bool) {
        if !unix {
            do {
                try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
            } catch {
                configuration.log(ServerLog.line(.warn, "accept_option_failed", ["message": .string("\(error)")]))
            }
        }
        if openConnections.load(ordering: .relaxed) >= configuration.maximumConnections {
            refuse(fd)
            return
        }
        openConnections.add(1, ordering: .relaxed)
        let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
        let context = loops[nextLoop]
        connectionLoopIndex.withLock { $0[id] = context.index }
        nextLoop = (nextLoop + 1) % loops.count
        if context.index == 0 {
            context.adopt(fd: fd, unix: unix, id: id)
        } else {
            context.loop.execute { context.adopt(fd: fd, unix: unix, id: id) }
        }
    }

    /// Over `maximumConnections`: one `unavailable` line (best effort, never blocking), then close.
    private func refuse(_ fd: Int32) {
        router.stats.record(op: Stats.invalidOp, ok: false, code: .unavailable)
        let line = Answer.failureLine(
            id: .null, code: .unavailable,
            message: "too many connections (limit \(configuration.maximumConnections)); retry later")
        _ = line.withUnsafeBytes { try? Sys.send(fd, $0.baseAddress!, $0.count) }
        Sys.close(fd)
        configuration.log(ServerLog.line(.warn, "connection_refused", ["limit": .number(Double(configuration.maximumConnections))]))
    }

    /// Out of descriptors: stop accepting until a connection closes (level-triggered epoll
    /// would otherwise spin on the pending connection).
    func pauseAccepting(_ error: SystemError) {
        guard !acceptPaused.load(ordering: .relaxed) else { return }
        configuration.log(ServerLog.line(.error, "accept_paused", ["message": .string("\(error)")]))
        acceptPaused.store(true, ordering: .relaxed)
        for source in listenerSources { try? loops[0].loop.modify(source.listener.fd, token: source.token, events: 0) }
    }

    /// A connection closed on some loop.
    func connectionEnded(id: UInt64) {
        openConnections.subtract(1, ordering: .relaxed)
        connectionLoopIndex.withLock { $0[id] = nil }
        if let handler = closedHandler.withLock({ $0 }) { handler.body(id) }
        guard acceptPaused.load(ordering: .relaxed) else { return }
        loops[0].loop.execute { [self] in
            guard acceptPaused.exchange(false, ordering: .relaxed), !draining else { return }
            for source in listenerSources {
                try? loops[0].loop.modify(source.listener.fd, token: source.token, events: EpollBits.readable)
            }
        }
    }
}

/// Accepts connections for one listener (on loop 0).
final class ListenerSource: EventSource {
    let listener: Listener
    var token: UInt64 = 0
    private unowned let server: LineServer
    /// Accepts per wake-up, 1...Int.max: bounds the time other connections wait (decision 0501).
    static let acceptBatch = 64

    init(listener: Listener, server: LineServer) {
        self.listener = listener
        self.server = server
    }

    func handle(events: UInt32) {
        for _ in 0..<Self.acceptBatch {
            do {
                guard let fd = try Sys.accept(listener.fd) else { return }
                server.accepted(fd: fd, unix: listener.isUnix)
            } catch let error as SystemError {
                if error.errno == EMFILE || error.errno == ENFILE { server.pauseAccepting(error) } else {
                    server.configuration.log(ServerLog.line(.error, "accept_failed", [
                        "address": .string("\(listener.boundAddress)"), "message": .string("\(error)")]))
                }
                return
            } catch {
                return
            }
        }
    }
}
