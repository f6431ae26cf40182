import Foundation
import RunusCore
import Engine
import Server
import Storage
import Learning
import Tracking
import Synchronization

/// `runus serve`: the daemon.
enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the line-delimited JSON protocol on TCP and/or a Unix socket."
    static let usage = "--db PATH [--model DIR | --models DIR] [--listen HOST:PORT] [--unix PATH] [--token-file PATH] [limits]"
    static let discussion = """
    One JSON object per line in both directions (docs/protocol.md). Prints one 'listening' line
    per address on stdout when ready; logs are JSON lines on stderr. SIGTERM or SIGINT stops
    accepting, finishes pending answers and exits 0. SIGHUP or a 'model.reload' request re-reads
    the model directory and swaps the model in without failing a request. Without --model, the
    daemon serves the model promoted in the registry (`runus models promote`), or MODELS/default
    when none is, and a reload picks up a newer promotion. The model's feature
    schema must match this build's, or the daemon refuses to start (and a reload is refused).
    Listening on a non-loopback address needs --token-file (mode 0600 or stricter); TCP clients
    then send {"op":"auth","token":"…"} first (Unix socket clients are exempt), and a connection
    is closed after 3 wrong tokens. Limits that keep one client from hurting the others:
    --max-line-bytes, --max-connections, --idle-timeout, --max-buffered-bytes
    (memory for all clients together) and --line-deadline (slow senders); docs/decisions/0501,
    0512, 0513, 0530 and 0531 give the reasons for each default.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH", help: "Database (created if absent)."),
        .optional("model", "DIR", help: "Model directory holding model.json (default: the registry's promoted model)."),
        .value("models", "DIR", default: "models", help: "Model registry: the promoted model, else DIR/default."),
        .repeated("listen", "HOST:PORT", help: "TCP address (default 127.0.0.1:7878 when no --unix)."),
        .optional("unix", "PATH", help: "Unix socket path (created with mode 0660)."),
        .optional("token-file", "PATH", help: "File whose content (trimmed, >= 16 bytes) TCP clients must 'auth' with; mode 0600 or stricter."),
        .value("max-line-bytes", "N", default: "4194304", help: "Longest accepted request line in bytes (1024-1073741824)."),
        .value("loops", "N", default: "0", help: "Event loops (threads), 1-256; 0: one per core."),
        .value("max-connections", "N", default: "4096", help: "Open connections above which new ones are refused (1-1000000)."),
        .value("idle-timeout", "SECONDS", default: "300", help: "Close connections silent this long (0.01-86400)."),
        .value("max-buffered-bytes", "N", default: "268435456",
               help: "Memory all connections together may hold in buffers; beyond it new work gets 'unavailable' (1048576-1099511627776, at least 2 × --max-line-bytes)."),
        .value("line-deadline", "SECONDS", default: "30",
               help: "A request line must end this long after its first byte, else 'line_timeout' and close (0.01-86400)."),
        .value("offload", "OPS", default: "runs.ingest,runs.get,model.reload", help: "Comma-separated operations run on the worker pool."),
        .value("reward-window-days", "DAYS", default: "7", help: "Runs that started longer ago complete no mission and earn no XP (1-365)."),
    ])

    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let tokenPath = arguments.string("token-file")
        var addresses = try arguments.strings("listen").map { text -> ServerAddress in
            let address = try parseAddress(text)
            if case .tcp(let host, _) = address, !loopbackHosts.contains(host), tokenPath == nil {
                throw UsageError("--listen: \(text) is not a loopback address; listening there needs --token-file")
            }
            return address
        }
        if let unix = arguments.string("unix") { addresses.append(.unix(path: unix)) }
        if addresses.isEmpty { addresses = [.tcp(host: "127.0.0.1", port: 7878)] }

        var configuration = ServerConfiguration(addresses: addresses)
        configuration.maximumLineBytes = try arguments.int("max-line-bytes", in: 1024...(1 << 30))!
        let loops = try arguments.int("loops", in: 0...256)!
        configuration.loopCount = loops == 0 ? ServerConfiguration.availableCores : loops
        configuration.maximumConnections = try arguments.int("max-connections", in: 1...1_000_000)!
        configuration.idleTimeout = .milliseconds(Int64(try arguments.double("idle-timeout", in: 0.01...86_400)! * 1000))
        if let cap = try arguments.int("max-buffered-bytes", in: (1 << 20)...(1 << 40)) {
            guard cap / 2 >= configuration.maximumLineBytes else {
                throw UsageError("--max-buffered-bytes: \(cap) is less than twice --max-line-bytes \(configuration.maximumLineBytes); "
                                 + "a long line could never be read")
            }
            configuration.maximumBufferedBytes = cap
        }
        if let deadline = try arguments.double("line-deadline", in: 0.01...86_400) { configuration.lineDeadline = .seconds(deadline) }
        configuration.offloadedOperations = Set(try arguments.require("offload").split(separator: ",").map {
            String($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty })
        if let tokenPath { configuration.authToken = try readToken(tokenPath) }
        let log: @Sendable (String) -> Void = { line in StandardStreams().err(line + "\n") }
        configuration.log = log

        BLASThreads.useOne()  // one BLAS thread per request; parallelism from requests (record 0006)
        // The activity classifier trains itself on synthetic tracks at first use (record 0143):
        // do it now, not inside the first request (it took ~400 ms there).
        _ = ActivityClassifier.default
        let source = try ModelSource(model: arguments.string("model"), models: try arguments.require("models"))
        let artifact = try ModelFiles.readAny(from: try source.directory())
        let store = try SQLiteStore(path: try arguments.require("db"), log: log)
        let clock = SystemClock()
        let pusher = ServerPusher()
        let races = RaceOperations(store: store, resolver: SystemTimeZones(), clock: clock, pusher: pusher)
        var plausibility = PlausibilityRules()
        plausibility.rewardWindow = try arguments.double("reward-window-days", in: 1...365)! * 86_400
        let reloader = ModelReloader(source: source, store: store, clock: clock,
                                     startedAt: clock.now(), stats: Stats(), log: log,
                                     persistentOperations: { races.register(on: $0) }, plausibility: plausibility)
        let server = LineServer(configuration: configuration, router: try reloader.initialRouter(model: artifact))
        reloader.attach(server)
        pusher.attach(server)
        server.onConnectionClosed { races.connectionClosed($0) }
        let ticking = RaceClock(races: races)
        ticking.start()
        defer { ticking.stop() }
        server.installShutdownSignals { signal in log(ServerLog.line(.info, "shutdown", ["signal": .number(Double(signal))])) }
        server.installReloadSignal { reloader.reloadLogging(trigger: "SIGHUP") }
        let bound = try server.start()
        for address in bound { output.out("listening on \(address)\n") }
        let example = bound.first.map { "--addr \($0) " } ?? ""
        let binary = CommandLine.arguments.first ?? "runus"
        output.out("model \(artifact.modelVersion); try: \(binary) call \(example)'{\"op\":\"missions.today\",\"user\":\"runner-0001\"}'\n")
        log(ServerLog.line(.info, "started", [
            "model_version": .string(artifact.modelVersion), "loops": .number(Double(configuration.loopCount)),
            "addresses": .array(bound.map { .string($0.description) }),
        ]))
        try server.run()
        try store.close()
        log(ServerLog.line(.info, "stopped"))
        return .success
    }

    static func parseAddress(_ text: String) throws -> ServerAddress {
        do { return try ServerAddress(parsing: text) } catch { throw UsageError("\(error)") }
    }

    /// The token: the file's bytes without surrounding white space, at least 16 of them. The
    /// file must give group and others no access at all, as ssh demands of a private key
    /// (record 0513): a secret anyone on the machine can read is no secret.
    static func readToken(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CLIError("--token-file: cannot read \(path)") }
        let mode = Int(info.st_mode) & 0o7777
        if mode & 0o077 != 0 {
            let octal = String(mode, radix: 8)
            throw CLIError("--token-file: \(path) has mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal): "
                           + "group or others can access the token; run: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("--token-file: cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError("--token-file: \(path) is not UTF-8") }
        let token = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard token.count >= 16 else {
            throw CLIError("--token-file: \(path) holds \(token.count) bytes, expected a token of at least 16")
        }
        return token
    }
}

/// Builds the daemon's router for a model artifact and swaps a new one in on `model.reload` or
/// SIGHUP: the model directory is resolved (the registry's promoted model may have changed) and
/// read again, the schema checked, a new scorer (any artifact kind) and `MissionService` built, and `LineServer.replaceRouter` installs them atomically. Requests
/// already running finish on the old model; none fails. Counters (`Stats`) carry over.
final class ModelReloader: Sendable {
    /// Where the model comes from: a fixed directory, or the registry's promoted model.
    let source: ModelSource
    let store: SQLiteStore
    let clock: any Clock
    let startedAt: EpochSeconds
    let stats: Stats
    let log: @Sendable (String) -> Void
    /// Operations whose state must survive a reload (race rooms), registered on every router.
    let persistentOperations: @Sendable (Router) -> Void
    private let server = Mutex<LineServer?>(nil)
    /// missions.today answers kept across reloads, dropped on each (decision 0520).
    let todayCache = MissionsTodayCache()
    /// Serialises reloads; holds the version being served.
    private let serving = Mutex<String>("")
    /// The limits runs.ingest checks runs against (`--reward-window-days`, record 0230).
    let plausibility: PlausibilityRules

    convenience init(modelDirectory: String, store: SQLiteStore, clock: any Clock, startedAt: EpochSeconds, stats: Stats,
                     log: @escaping @Sendable (String) -> Void, persistentOperations: @escaping @Sendable (Router) -> Void = { _ in }) {
        self.init(source: .directory(modelDirectory), store: store, clock: clock, startedAt: startedAt, stats: stats, log: log,
                  persistentOperations: persistentOperations)
    }

    init(source: ModelSource, store: SQLiteStore, clock: any Clock, startedAt: EpochSeconds, stats: Stats,
         log: @escaping @Sendable (String) -> Void, persistentOperations: @escaping @Sendable (Router) -> Void = { _ in },
         plausibility: PlausibilityRules = PlausibilityRules()) {
        self.plausibility = plausibility
        self.source = source; self.store = store; self.clock = clock
        self.startedAt = startedAt; self.stats = stats; self.log = log
        self.persistentOperations = persistentOperations
    }

    func attach(_ server: LineServer) { self.server.withLock { $0 = server } }

    /// The router serving `artifact`; throws `EngineError.schemaMismatch` for a foreign schema.
    func makeRouter(artifact: AnyModelArtifact) throws -> Router {
        let scorer = try MissionScorers.make(artifact)
        let operations = DaemonOperations(store: store, scorer: scorer, artifact: artifact,
                                          clock: clock, startedAt: startedAt, todayCache: todayCache,
                                          plausibility: plausibility)
        let router = Router(stats: stats, log: log)
        operations.register(on: router)
        persistentOperations(router)
        router.register("model.reload") { [self] _ in
            do {
                return try reload()
            } catch {
                throw RequestError(code: .unavailable, message: "model.reload: \(error); still serving the previous model")
            }
        }
        return router
    }

    /// The first router, before the server starts.
    func initialRouter(artifact: ModelArtifact) throws -> Router {
        try initialRouter(model: .logisticRegression(artifact))
    }

    /// The first router for any artifact kind, before the server starts.
    func initialRouter(model artifact: AnyModelArtifact) throws -> Router {
        let router = try makeRouter(artifact: artifact)
        serving.withLock { $0 = artifact.modelVersion }
        return router
    }

    /// Re-reads the model directory and swaps the new model in. Returns the wire result.
    func reload() throws -> JSONValue {
        try serving.withLock { version in
            let previous = version
            let artifact = try ModelFiles.readAny(from: try source.directory())
            let router = try makeRouter(artifact: artifact)
            server.withLock { _ = $0?.replaceRouter(with: router) }
            todayCache.invalidateAll()
            version = artifact.modelVersion
            log(ServerLog.line(.info, "model_reloaded", [
                "model_version": .string(artifact.modelVersion), "previous_model_version": .string(previous)]))
            return ["model_version": .string(artifact.modelVersion), "previous_model_version": .string(previous)]
        }
    }

    func reloadLogging(trigger: String) {
        do { _ = try reload() } catch {
            log(ServerLog.line(.error, "model_reload_failed", ["trigger": .string(trigger), "message": .string("\(error)")]))
        }
    }
}

/// Pushes race events through the running server.
final class ServerPusher: LinePusher {
    private let server = Mutex<LineServer?>(nil)
    func attach(_ server: LineServer) { self.server.withLock { $0 = server } }
    func push(connectionID: UInt64, line: [UInt8]) -> Bool {
        server.withLock { $0 }?.push(connectionID: connectionID, line: line) ?? false
    }
}

/// Advances the race rooms' clocks once a second (starts at start time, countdowns, cutoffs).
final class RaceClock: Sendable {
    let races: RaceOperations
    private let running = Atomic<Bool>(false)
    /// Tick interval, seconds.
    static let interval = 1.0

    init(races: RaceOperations) { self.races = races }

    func start() {
        running.store(true, ordering: .relaxed)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Self.interval)
                races.tick()
            }
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}
