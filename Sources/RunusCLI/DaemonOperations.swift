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

    init(store: any EngineStore, scorer: any MissionScorer, artifact: AnyModelArtifact, clock: any Clock,
         startedAt: EpochSeconds, resolver: any UTCOffsetResolver = SystemTimeZones()) {
        self.store = store
        self.resolver = resolver
        self.missions = MissionService(store: store, scorer: scorer, resolver: resolver)
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
        router.register("missions.today") { request in try missionsToday(request) }
        router.register("users.upsert") { request in try usersUpsert(request) }
        router.register("runs.ingest") { request in try runsIngest(request) }
        router.register("history") { request in try history(request) }
        router.register("progress") { request in try progress(request) }
        router.register("goals.recommend") { request in try goalsRecommend(request) }
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

    func missionsToday(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        guard !user.isEmpty else { throw RequestError.badRequest("missions.today: parameter 'user' is empty") }
        let day = try Self.day(request, "date")
        var count = Self.defaultMissionCount
        if request.optional("k") != nil {
            count = try request.int("k")
            guard Self.missionCountRange.contains(count) else {
                throw RequestError.badRequest("missions.today: parameter 'k' is \(count), expected \(Self.missionCountRange.lowerBound)...\(Self.missionCountRange.upperBound)")
            }
        }
        let refresh = try Self.optionalBool(request, "refresh") ?? false
        let withStretch = try Self.optionalBool(request, "stretch") ?? false
        var answer: (day: CivilDate, missions: [TodayMission])
        do {
            answer = try missions.today(user: user, day: day, count: count, now: clock.now(), refresh: refresh)
            if !withStretch { answer.missions.removeAll { $0.isStretch } }
        } catch EngineError.unknownUser(let id) {
            throw Self.unknownUser("missions.today", id)
        }
        return [
            "user": .string(user),
            "day": .string(answer.day.description),
            "model_version": .string(missions.modelVersion),
            "missions": .array(answer.missions.map { m in
                [
                    "id": .string(m.assignmentID),
                    "kind": .string(m.spec.kind.rawValue),
                    "title": .string(m.title),
                    "spec": m.spec.json,
                    "p_complete": .number((m.pComplete * 10_000).rounded() / 10_000),
                    "xp": .number(Double(m.xp)),
                    "why": .string(m.why),
                    "status": .string(m.status.rawValue),
                    "stretch": .bool(m.isStretch),
                ]
            }),
        ]
    }

    static func unknownUser(_ op: String, _ id: UserID) -> RequestError {
        RequestError.notFound("\(op): no user '\(id)'; send users.upsert first")
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
