import RunusCore
import Engine
import Learning
import Missions
import Server

/// The daemon's operations: wire parameters in, one Engine call, wire results out (each
/// handler is parse → call → encode, as Redis's commands are). Specs and examples of every
/// operation are in docs/protocol.md; one file per resource: `+Users`, `+Runs`, `+Missions`,
/// `+MissionsCustom`, `+MissionsHistory`, `+Today`, and `RaceOperations` for the races. Errors go through `WireErrors`.
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
    /// Told of each runner `users.delete` deleted, after the store's deletion (record 0553).
    let userDeleted: @Sendable (UserID) -> Void

    init(store: any EngineStore, scorer: any MissionScorer, artifact: AnyModelArtifact, clock: any Clock,
         startedAt: EpochSeconds, resolver: any UTCOffsetResolver = SystemTimeZones(),
         todayCache: MissionsTodayCache = MissionsTodayCache(), plausibility: PlausibilityRules = PlausibilityRules(),
         userDeleted: @escaping @Sendable (UserID) -> Void = { _ in }) {
        self.plausibility = plausibility
        self.userDeleted = userDeleted
        self.store = store
        self.resolver = resolver
        self.todayCache = todayCache
        self.missions = MissionService(store: store, scorer: scorer, resolver: resolver, stateCache: todayCache,
                                       digestCache: todayCache.digests)
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
        router.register("users.get") { request in try usersGet(request) }
        router.register("users.delete") { request in try invalidatingToday(request, usersDelete) }
        router.registerStreamed("users.export") { request in try usersExport(request) }
        router.register("runs.ingest") { request in try invalidatingToday(request, runsIngest) }
        router.register("runs.get") { request in try runsGet(request) }
        router.register("history") { request in try history(request) }
        router.register("progress") { request in try progress(request) }
        router.register("badges.catalog") { request in try badgesCatalog(request) }
        router.register("goals.recommend") { request in try goalsRecommend(request) }
        router.register("missions.evaluate") { request in try missionsEvaluate(request) }
        router.register("missions.progress") { request in try missionsProgress(request) }
        router.register("missions.score") { request in try missionsScore(request) }
        router.register("missions.custom") { request in try invalidatingToday(request, missionsCustom) }
        router.register("missions.history") { request in try missionsHistory(request) }
    }

    func health() -> JSONValue {
        [
            "status": "ok",
            "version": .string(RunusVersion.current),
            "model_version": .string(artifact.modelVersion),
            "uptime_s": .number(((clock.now() - startedAt) * 1000).rounded() / 1000),
        ]
    }

    /// Version, kind, calibration, schema, provenance and metrics (`AnyModelArtifact.info`).
    func modelInfo() -> JSONValue { artifact.info }
}

extension DaemonOperations {
    /// Operations serving a logistic-regression artifact.
    init(store: any EngineStore, scorer: any MissionScorer, artifact: ModelArtifact, clock: any Clock,
         startedAt: EpochSeconds, resolver: any UTCOffsetResolver = SystemTimeZones()) {
        self.init(store: store, scorer: scorer, artifact: .logisticRegression(artifact), clock: clock,
                  startedAt: startedAt, resolver: resolver)
    }
}
