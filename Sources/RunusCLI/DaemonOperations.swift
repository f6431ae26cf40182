import RunusCore
import Engine
import Learning
import Missions
import Server

/// The wall clock (the only reader of the real time; pure code gets a `Clock`).
struct SystemClock: Clock {
    func now() -> EpochSeconds {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// The daemon's operations: wire parameters in, engine calls, wire results out. Specs and
/// examples of every operation are in docs/protocol.md.
struct DaemonOperations: Sendable {
    let missions: MissionService
    let artifact: AnyModelArtifact
    let clock: any Clock
    let startedAt: EpochSeconds
    let store: any EngineStore
    let resolver: any UTCOffsetResolver
    /// Answers, profiles and states kept between requests; one per daemon (decision 0520).
    let todayCache: MissionsTodayCache
    /// The limits `runs.ingest` checks runs against (record 0230).
    let plausibility: PlausibilityRules

    init(store: any EngineStore, scorer: any MissionScorer, artifact: AnyModelArtifact, clock: any Clock,
         startedAt: EpochSeconds, resolver: any UTCOffsetResolver = SystemTimeZones(),
         todayCache: MissionsTodayCache = MissionsTodayCache(), plausibility: PlausibilityRules = PlausibilityRules()) {
        self.plausibility = plausibility
        self.store = store
        self.resolver = resolver
        self.todayCache = todayCache
        self.missions = MissionService(store: store, scorer: scorer, resolver: resolver, stateCache: todayCache)
        self.artifact = artifact
        self.clock = clock
        self.startedAt = startedAt
    }

    /// Missions per `missions.today` answer: default and allowed range of `k`.
    static let defaultMissionCount = 3
    static let missionCountRange = 1...10

    func register(on router: Router) {
        router.register("health") { _ in health() }
        router.register("model.info") { _ in modelInfo() }
        router.register("stats") { [router] _ in .object(["operations": router.stats.json()]) }
        router.registerEncoded("missions.today") { request in try cachedMissionsToday(request) }
        router.register("users.upsert") { request in try invalidatingToday(request, usersUpsert) }
        router.register("runs.ingest") { request in try invalidatingToday(request, runsIngest) }
        router.register("runs.get") { request in try runsGet(request) }
        router.register("history") { request in try history(request) }
        router.register("progress") { request in try progress(request) }
        router.register("goals.recommend") { request in try goalsRecommend(request) }
        router.register("missions.evaluate") { request in try missionsEvaluate(request) }
        router.register("missions.progress") { request in try missionsProgress(request) }
        router.register("missions.score") { request in try missionsScore(request) }
    }

    func health() -> JSONValue {
        [
            "status": "ok",
            "version": .string(RunusCLI.version),
            "model_version": .string(artifact.modelVersion),
            "uptime_s": .number(((clock.now() - startedAt) * 1000).rounded() / 1000),
        ]
    }

    /// Version, kind, calibration, schema, provenance and metrics (`AnyModelArtifact.info`).
    func modelInfo() -> JSONValue { artifact.info }

    static func unknownUser(_ op: String, _ id: UserID) -> RequestError {
        RequestError.notFound("\(op): no user '\(id)'; send users.upsert first")
    }

    /// Runs an Engine call for operation `op`, mapping the Engine's errors to wire errors in one
    /// place: an unknown user is `not_found`, a day out of range `bad_request`.
    static func engine<T>(_ op: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch EngineError.unknownUser(let id) {
            throw unknownUser(op, id)
        } catch let error as EngineError {
            if case .schemaMismatch = error { throw error }
            throw RequestError.badRequest("\(op): \(error)")
        }
    }

    static func day(_ request: Request, _ key: String) throws -> CivilDate? {
        guard let value = request.optional(key) else { return nil }
        guard let text = value.stringValue, let day = CivilDate(iso: text) else {
            throw RequestError.badRequest("\(request.op): parameter '\(key)' is \(JSONWriter.string(value).prefix(40)), expected \"YYYY-MM-DD\"")
        }
        return day
    }

    static func optionalBool(_ request: Request, _ key: String) throws -> Bool? {
        guard let value = request.optional(key) else { return nil }
        guard let b = value.boolValue else {
            throw RequestError.badRequest("\(request.op): parameter '\(key)' is \(value.typeName), expected true or false")
        }
        return b
    }

    static func optionalNumber(_ request: Request, _ key: String, _ range: ClosedRange<Double>) throws -> Double? {
        guard let value = request.optional(key) else { return nil }
        guard let x = value.doubleValue, range.contains(x) else {
            throw RequestError.badRequest("\(request.op): parameter '\(key)' is \(JSONWriter.string(value).prefix(40)), expected a number in [\(range.lowerBound), \(range.upperBound)]")
        }
        return x
    }
}

#if canImport(Glibc)
import Glibc
#endif
