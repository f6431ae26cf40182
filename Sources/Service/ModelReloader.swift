import Synchronization
import RunusCore
import Engine
import Learning
import Server

/// Builds the daemon's router for a model artifact and swaps a new one in on `model.reload` or
/// SIGHUP: the model is loaded again (`loadModel`: the CLI resolves the registry's promoted
/// model and reads its file), the schema checked, a new scorer (any artifact kind) and
/// `MissionService` built, and `LineServer.replaceRouter` installs them atomically. Requests
/// already running finish on the old model; none fails. Counters (`Stats`) carry over, and so
/// do the day's offers (record 0524): a reload changes the scores of new offers only.
public final class ModelReloader: Sendable {
    /// Reads the model to serve now; throws when it cannot (the old one stays).
    let loadModel: @Sendable () throws -> AnyModelArtifact
    let store: any EngineStore
    let clock: any Clock
    let resolver: any UTCOffsetResolver
    let startedAt: EpochSeconds
    let stats: Stats
    let log: @Sendable (String) -> Void
    /// Operations whose state must survive a reload (race rooms), registered on every router.
    let persistentOperations: @Sendable (Router) -> Void
    private let server = Mutex<LineServer?>(nil)
    /// missions.today answers kept across reloads, dropped on each (decision 0520).
    let todayCache: MissionsTodayCache
    /// Serialises reloads; holds the version being served.
    private let serving = Mutex<String>("")
    /// The limits runs.ingest checks runs against (`--reward-window-days`, record 0230).
    let plausibility: PlausibilityRules
    /// The other daemons on the database, told of every reload asked of this one (record 0541).
    let peers: (any PeerChannel)?
    /// Told of every runner `users.delete` deleted (their races forget them, record 0553).
    let userDeleted: @Sendable (UserID) -> Void
    /// The access log every router writes to, when the daemon keeps one (issue 53).
    let accessLog: AccessLog?
    /// `model_reload_failed` lines of `model.reload` requests: a client may send them in a
    /// loop, so the first 10 a minute are written and the rest counted (`suppressed_before`).
    private let reloadFailureLog = Mutex(LogRateLimiter(perWindow: 10, windowNanoseconds: 60_000))  // times in ms

    public init(loadModel: @escaping @Sendable () throws -> AnyModelArtifact, store: any EngineStore, clock: any Clock,
                resolver: any UTCOffsetResolver = SystemTimeZones(), startedAt: EpochSeconds, stats: Stats,
                log: @escaping @Sendable (String) -> Void, persistentOperations: @escaping @Sendable (Router) -> Void = { _ in },
                plausibility: PlausibilityRules = PlausibilityRules(), peers: (any PeerChannel)? = nil,
                userDeleted: @escaping @Sendable (UserID) -> Void = { _ in }, accessLog: AccessLog? = nil) {
        self.peers = peers
        self.userDeleted = userDeleted
        self.accessLog = accessLog
        todayCache = MissionsTodayCache(generation: { [store] in try store.generation(user: $0) })
        self.loadModel = loadModel; self.store = store; self.clock = clock; self.resolver = resolver
        self.startedAt = startedAt; self.stats = stats; self.log = log
        self.persistentOperations = persistentOperations; self.plausibility = plausibility
    }

    public func attach(_ server: LineServer) { self.server.withLock { $0 = server } }

    /// The router serving `artifact`; throws `EngineError.schemaMismatch` for a foreign schema.
    func makeRouter(artifact: AnyModelArtifact) throws -> Router {
        let scorer = try MissionScorers.make(artifact)
        let operations = DaemonOperations(store: store, scorer: scorer, artifact: artifact, clock: clock,
                                          startedAt: startedAt, resolver: resolver, todayCache: todayCache,
                                          plausibility: plausibility, userDeleted: userDeleted)
        let router = Router(stats: stats, log: log, accessLog: accessLog, parameters: OperationParameters.table)
        operations.register(on: router)
        persistentOperations(router)
        router.register("model.reload") { [self] request in
            do {
                return try reload()
            } catch {
                logReloadFailure(error, requestID: request.requestID)
                throw RequestError(code: .unavailable, message: "model.reload: \(error); still serving the previous model")
            }
        }
        return router
    }

    /// The first router, before the server starts.
    public func initialRouter(model artifact: AnyModelArtifact) throws -> Router {
        let router = try makeRouter(artifact: artifact)
        serving.withLock { $0 = artifact.modelVersion }
        return router
    }

    /// The version of the model served now.
    public var servedVersion: String { serving.withLock { $0 } }

    /// Loads the model again and swaps it in, and with `announce` has the other daemons on the
    /// database do the same (each reads its own `--model`). Returns the wire result.
    public func reload(announce: Bool = true) throws -> JSONValue {
        let answer = try serving.withLock { version -> JSONValue in
            let previous = version
            let artifact = try loadModel()
            let router = try makeRouter(artifact: artifact)
            server.withLock { _ = $0?.replaceRouter(with: router) }
            todayCache.invalidateAll()
            version = artifact.modelVersion
            log(ServerLog.line(.info, "model_reloaded", [
                "model_version": .string(artifact.modelVersion), "previous_model_version": .string(previous)]))
            return ["model_version": .string(artifact.modelVersion), "previous_model_version": .string(previous)]
        }
        if announce { peers?.announceReload() }
        return answer
    }

    /// Logs a failed `model.reload` request, rate-limited.
    private func logReloadFailure(_ error: any Error, requestID: String) {
        let (write, suppressed) = reloadFailureLog.withLock { $0.admit(now: Int64(Int(saturating: clock.now() * 1000))) }
        guard write else { return }
        var fields: [String: JSONValue] = ["trigger": "request", "request_id": .string(requestID), "message": .string("\(error)")]
        if suppressed > 0 { fields["suppressed_before"] = .number(Double(suppressed)) }
        log(ServerLog.line(.error, "model_reload_failed", fields))
    }

    /// `reload`, with a failure logged instead of thrown (SIGHUP and peers have nobody to answer).
    public func reloadLogging(trigger: String, announce: Bool = true) {
        do { _ = try reload(announce: announce) } catch {
            log(ServerLog.line(.error, "model_reload_failed", ["trigger": .string(trigger), "message": .string("\(error)")]))
        }
    }
}
