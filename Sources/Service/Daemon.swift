import RunusCore
import Engine
import Learning
import Server
import Tracking

/// What a running daemon is built from. The CLI fills it from flags and files (it is the one
/// reader of files and the environment); tests fill it with a fixed clock and a model in memory.
public struct DaemonConfiguration: Sendable {
    /// Addresses, limits, auth token, offloaded operations, log (records 0501–0532).
    public var server: ServerConfiguration
    public var store: any EngineStore
    /// Reads the model to serve, at start and at every `model.reload` or SIGHUP.
    public var loadModel: @Sendable () throws -> AnyModelArtifact
    public var clock: any Clock = SystemClock()
    public var resolver: any UTCOffsetResolver = SystemTimeZones()
    /// The limits `runs.ingest` checks runs against (record 0230).
    public var plausibility = PlausibilityRules()
    /// Caps on race rooms (record 0525).
    public var raceLimits = RaceLimits()
    /// Receives the daemon's JSON log lines (`ServerLog`).
    public var log: @Sendable (String) -> Void = ServerConfiguration.logToStandardError
    /// Whether a thread advances the race rooms once a second (tests drive ticks themselves).
    public var runsRaceClock = true
    /// The other daemons on a shared database (PostgreSQL replicas, record 0541); nil when the
    /// daemon is alone on its store.
    public var peers: (any PeerChannel)?
    /// One line per answered request (`--access-log`), when set.
    public var accessLog: AccessLog?

    public init(server: ServerConfiguration, store: any EngineStore,
                loadModel: @escaping @Sendable () throws -> AnyModelArtifact) {
        self.server = server; self.store = store; self.loadModel = loadModel
    }
}

/// The composition root of a daemon: the router of the served model (`ModelReloader`), the
/// race rooms (`RaceOperations`) and their clock, the line server, and their wiring (pushed
/// race lines, closed connections, SIGHUP). `start()` binds, `run()` serves until SIGTERM or
/// `stop()`, then stops the parts in order.
public final class Daemon: Sendable {
    public let server: LineServer
    public let reloader: ModelReloader
    public let races: RaceOperations
    /// The version of the model served at start.
    public let initialModelVersion: String
    private let raceClock: RaceClock?
    private let log: @Sendable (String) -> Void
    private let peers: (any PeerChannel)?
    /// The database, for `readiness()`.
    let store: any EngineStore

    /// Builds everything; throws when the model cannot be read or its schema is foreign.
    public init(_ configuration: DaemonConfiguration) throws {
        BLASThreads.useOne()  // one BLAS thread per request; parallelism from requests (record 0006)
        // The activity classifier's forest is built at first use: do it now, not inside the
        // first request (it took ~400 ms there).
        _ = ActivityClassifier.default
        let artifact = try configuration.loadModel()
        let pusher = ServerPusher()
        let races = RaceOperations(store: configuration.store, resolver: configuration.resolver, clock: configuration.clock,
                                   pusher: pusher, limits: configuration.raceLimits, runRules: configuration.plausibility,
                                   peers: configuration.peers)
        let reloader = ModelReloader(loadModel: configuration.loadModel, store: configuration.store, clock: configuration.clock,
                                     resolver: configuration.resolver, startedAt: configuration.clock.now(), stats: Stats(),
                                     log: configuration.log, persistentOperations: { races.register(on: $0) },
                                     plausibility: configuration.plausibility, peers: configuration.peers,
                                     userDeleted: { [races] user in races.forgetDeleted(user) },
                                     accessLog: configuration.accessLog)
        var serverConfiguration = configuration.server
        serverConfiguration.log = configuration.log
        // With replicas, a cached missions.today answer costs a generation read: one per loop
        // round for all of the round's requests (record 0545).
        if configuration.peers != nil, serverConfiguration.roundPreparation == nil {
            serverConfiguration.roundPreparation = GenerationPrefetch(store: configuration.store)
        }
        let server = LineServer(configuration: serverConfiguration, router: try reloader.initialRouter(model: artifact))
        reloader.attach(server)
        pusher.attach(server)
        // A race's runs and missions reach the runners' missions.today answers at once.
        races.onRunnerChanged { [reloader] user, runStart in reloader.todayCache.invalidate(user: user, runStart: runStart) }
        server.onConnectionClosed { races.connectionClosed($0) }
        // Races the store holds carry on where they were (record 0526), before any request.
        let resumed = try races.resume()
        if resumed > 0 { configuration.log(ServerLog.line(.info, "races_resumed", ["count": .number(Double(resumed))])) }
        self.server = server
        self.reloader = reloader
        self.races = races
        self.initialModelVersion = artifact.modelVersion
        self.raceClock = configuration.runsRaceClock ? RaceClock(races: races) : nil
        self.log = configuration.log
        self.peers = configuration.peers
        self.store = configuration.store
    }

    /// Binds the listeners and, with `signals`, installs the process's signals (SIGTERM/SIGINT
    /// stop, SIGHUP reloads; a process has one set, so in-process tests leave them alone);
    /// returns the bound addresses (a port 0 resolved).
    public func start(signals: Bool = true) throws -> [ServerAddress] {
        if signals {
            server.installShutdownSignals { [log] signal in log(ServerLog.line(.info, "shutdown", ["signal": .number(Double(signal))])) }
            server.installReloadSignal { [reloader] in reloader.reloadLogging(trigger: "SIGHUP") }
        }
        let bound = try server.start()
        raceClock?.start()
        // Other daemons' messages: a reload asked of one of them, races whose logs grew.
        try peers?.start { [reloader, races] message in
            if message.reload { reloader.reloadLogging(trigger: "peer", announce: false) }
            races.received(message)
        }
        log(ServerLog.line(.info, "started", [
            "model_version": .string(initialModelVersion), "loops": .number(Double(server.configuration.loopCount)),
            "addresses": .array(bound.map { .string($0.description) }),
        ]))
        return bound
    }

    /// Serves until a shutdown signal or `stop()`; pending answers are written first.
    public func run() throws {
        defer {
            raceClock?.stop()
            peers?.stop()
        }
        try server.run()
        log(ServerLog.line(.info, "stopped"))
    }

    public func stop() { server.stop() }
}
