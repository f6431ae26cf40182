#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Synchronization

/// A line-delimited JSON server: listeners, one epoll loop, connections, and a `Router`.
///
///     let server = LineServer(configuration: config, router: router)
///     let bound = try server.start()        // listening now: print a readiness line
///     server.installShutdownSignals { signal in log("signal \(signal), stopping") }
///     try server.run()                       // blocks until stop() or SIGTERM/SIGINT
///
/// `stop()` may be called from any thread (or a handler). Loop state is confined to the
/// thread inside `run()`.
public final class LineServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    public let router: Router

    private enum Phase { case created, started, running, stopped }
    private let phase = Mutex<Phase>(.created)
    private let stopRequested = Atomic<Bool>(false)

    // Loop-confined state (set up in start(), used only by the thread in run()).
    private(set) var loop: EventLoop!
    private var listeners: [Listener] = []
    private var listenerSources: [ListenerSource] = []
    private var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 1
    private var draining = false
    private var drainDeadline: Int64 = 0
    private var acceptPaused = false
    /// Connections in lingering close, by id, with their deadline (monotonic ns).
    private var lingerDeadlines: [UInt64: Int64] = [:]
    /// Scratch space every read lands in before the framer copies it.
    private(set) var readBuffer: UnsafeMutableRawBufferPointer

    public init(configuration: ServerConfiguration, router: Router) {
        precondition(!configuration.addresses.isEmpty, "LineServer needs at least one address")
        precondition(configuration.readChunkBytes > 0 && configuration.outputHighWaterBytes > 0,
                     "readChunkBytes and outputHighWaterBytes must be positive")
        self.configuration = configuration
        self.router = router
        self.readBuffer = .allocate(byteCount: configuration.readChunkBytes, alignment: 16)
    }

    deinit {
        // Started but never run: release the sockets and the socket file.
        phase.withLock { phase in
            if phase == .started {
                listeners.forEach { $0.close() }
                loop.close()
                ShutdownSignals.detach(for: ObjectIdentifier(self))
            }
        }
        readBuffer.deallocate()
    }

    /// Opens every listener and returns the bound addresses (TCP port 0 replaced by the real
    /// port). When this returns, clients can connect (they are queued until `run()`).
    @discardableResult
    public func start() throws -> [ServerAddress] {
        try phase.withLock { phase in
            guard phase == .created else { throw ServerError.wrongState("LineServer.start() called twice") }
            Sys.ignoreSIGPIPE()
            let loop = try EventLoop()
            var opened: [Listener] = []
            do {
                for address in configuration.addresses {
                    opened.append(try Listener.open(address, backlog: configuration.listenBacklog,
                                                    unixMode: configuration.unixSocketMode))
                }
                for listener in opened {
                    let source = ListenerSource(listener: listener, server: self)
                    source.token = try loop.add(listener.fd, events: EpollBits.readable, source: source)
                    listenerSources.append(source)
                }
            } catch {
                opened.forEach { $0.close() }
                loop.close()
                listenerSources = []
                throw error
            }
            loop.setWakeHandler { [unowned self] in self.woke() }
            self.loop = loop
            self.listeners = opened
            phase = .started
            ShutdownSignals.attach(wakeFD: loop.rawWakeFD, for: ObjectIdentifier(self))
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
        defer { finish() }
        woke()  // a stop or signal that came before run()
        while true {
            var deadline = lingerDeadlines.values.min()
            if draining {
                if connections.isEmpty { break }
                if drainDeadline <= Sys.monotonicNanoseconds() { break }
                deadline = min(deadline ?? drainDeadline, drainDeadline)
            }
            var timeout: Int32 = -1
            if let deadline {
                let left = max(0, deadline - Sys.monotonicNanoseconds())
                timeout = Int32(clamping: (left + 999_999) / 1_000_000)
            }
            try loop.runOnce(timeoutMilliseconds: timeout)
            expireLingering()
        }
    }

    /// Stops accepting, finishes writing pending answers (up to `drainTimeout`), closes every
    /// socket and removes Unix socket files; `run()` then returns. Thread-safe, idempotent.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        phase.withLock { phase in
            if phase == .started || phase == .running { loop.wakeUp() }
        }
    }

    /// Installs SIGTERM and SIGINT handlers that make `run()` call `handler` (on the loop
    /// thread, with the signal number) and then stop as `stop()` does, so `main` can return 0.
    /// Call it early: signals before this call keep their default action.
    public func installShutdownSignals(_ handler: @escaping @Sendable (Int32) -> Void = { _ in }) {
        ShutdownSignals.install(for: ObjectIdentifier(self), handler)
        phase.withLock { phase in
            if phase == .started || phase == .running {
                ShutdownSignals.attach(wakeFD: loop.rawWakeFD, for: ObjectIdentifier(self))
            }
        }
    }

    /// The single place a request line becomes an answer line. Today it runs inline on the
    /// loop thread; moving work to a pool means making this asynchronous per connection while
    /// keeping answers in request order.
    func dispatch(line: ArraySlice<UInt8>, connectionID: UInt64) -> [UInt8] {
        router.answerLine(for: line, connectionID: connectionID)
    }

    // MARK: loop-thread internals

    private func woke() {
        if let handler = ShutdownSignals.handler(for: ObjectIdentifier(self)),
           let signal = ShutdownSignals.takePending() {
            handler(signal)
            stopRequested.store(true, ordering: .sequentiallyConsistent)
        }
        if stopRequested.load(ordering: .sequentiallyConsistent), !draining { beginDraining() }
    }

    private func beginDraining() {
        draining = true
        drainDeadline = Sys.monotonicNanoseconds() + Self.nanoseconds(configuration.drainTimeout)
        closeListeners()
        for connection in Array(connections.values) { connection.beginClosing() }
    }

    private static func nanoseconds(_ d: Duration) -> Int64 {
        let (seconds, attoseconds) = d.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private func closeListeners() {
        for source in listenerSources { loop.remove(source.listener.fd, token: source.token) }
        listenerSources = []
        listeners.forEach { $0.close() }
    }

    private func finish() {
        for connection in Array(connections.values) { connection.close() }
        if !draining { closeListeners() }
        ShutdownSignals.detach(for: ObjectIdentifier(self))
        phase.withLock { phase in
            loop.close()
            phase = .stopped
        }
    }

    func accepted(fd: Int32, unix: Bool) {
        if !unix {
            do {
                try Sys.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
            } catch {
                configuration.log("accepted connection: \(error)")
            }
        }
        let connection = Connection(fd: fd, id: nextConnectionID, server: self)
        nextConnectionID += 1
        do {
            connection.token = try loop.add(fd, events: EpollBits.readable, source: connection)
            connections[connection.id] = connection
        } catch {
            configuration.log("cannot watch accepted connection: \(error)")
            Sys.close(fd)
        }
    }

    /// Out of descriptors: stop accepting until a connection closes (level-triggered epoll
    /// would otherwise spin on the pending connection).
    func pauseAccepting(_ error: SystemError) {
        guard !acceptPaused else { return }
        configuration.log("\(error); not accepting until a connection closes")
        acceptPaused = true
        for source in listenerSources { try? loop.modify(source.listener.fd, token: source.token, events: 0) }
    }

    func linger(_ connection: Connection) {
        lingerDeadlines[connection.id] = Sys.monotonicNanoseconds() + Self.nanoseconds(configuration.lingerTimeout)
    }

    private func expireLingering() {
        guard !lingerDeadlines.isEmpty else { return }
        let now = Sys.monotonicNanoseconds()
        for (id, deadline) in lingerDeadlines where deadline <= now { connections[id]?.close() }
    }

    func connectionClosed(_ connection: Connection) {
        connections[connection.id] = nil
        lingerDeadlines[connection.id] = nil
        if acceptPaused {
            acceptPaused = false
            for source in listenerSources {
                try? loop.modify(source.listener.fd, token: source.token, events: EpollBits.readable)
            }
        }
    }
}

/// Accepts connections for one listener.
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
                    server.configuration.log("\(listener.boundAddress): \(error)")
                }
                return
            } catch {
                return
            }
        }
    }
}
