import Testing
import Synchronization
import RunusCore
import Tracking
import Missions
@testable import Engine

/// Record 0649: a runner who joins a race is offered its finish mission on the race's day, and
/// the race's run decides it.
@Suite("race missions")
struct RaceMissionTests {
    typealias Service = RaceService<LiveRaceTracker>
    static let start = DurableRaceTests.start
    /// The race day of `DurableRaceTests.open` in UTC.
    static var day: CivilDate { CivilDate(instant: start, utcOffset: 0) }

    /// Whom a service told of a change, in order.
    final class Changes: Sendable {
        let list = Mutex<[(UserID, EpochSeconds?)]>([])
        func withLock<T>(_ body: ([(UserID, EpochSeconds?)]) -> T) -> T { list.withLock { body($0) } }
    }

    /// A service that stores race runs and records whom it told of a change.
    static func service(_ store: InMemoryStore, changed: Changes = Changes()) -> Service {
        RaceService(store: store, runRules: PlausibilityRules(),
                    runnerChanged: { user, start in changed.list.withLock { $0.append((user, start)) } },
                    makeTracker: { LiveRaceTracker() })
    }

    /// The runner's race missions of `kind` on `day` (a race's start adds podiums, record 0652).
    static func raceMissions(_ store: InMemoryStore, _ user: UserID, day: CivilDate = day,
                             kind: MissionKind = .raceFinish) throws -> [MissionAssignment] {
        try store.assignments(user: user, day: day).filter { $0.role == .race && $0.kind == kind.rawValue }
    }

    @Test("joining offers the race's finish mission on its day at the prior finish rate; finishers complete it with its XP, a leaver does not")
    func offeredAndDecided() throws {
        let store = try DurableRaceTests.store()
        let changed = Changes()
        let service = Self.service(store, changed: changed)
        try DurableRaceTests.open(service)
        for (user, _) in DurableRaceTests.runners {
            let missions = try Self.raceMissions(store, user)
            #expect(missions.count == 1, "\(user): \(missions)")
            let m = try #require(missions.first)
            #expect(m.id == "race:\(Self.day):1")
            #expect(try MissionSpec(json: try JSONParser.parse(m.specJSON)) == .raceFinish(minDistance: 1000))
            #expect(m.status == .offered && m.modelVersion == RaceMissions.version)
            #expect(abs(m.pComplete - RaceMissions.priorFinishRate) < 1e-12)
            #expect(m.xp == MissionXP.xp(for: .raceFinish(minDistance: 1000), pComplete: RaceMissions.priorFinishRate))
        }
        // Each join, then each podium offered at the start, was announced without a run start.
        let offers = DurableRaceTests.runners.map(\.0)
        #expect(changed.withLock { $0.map(\.0) } == offers + offers)
        #expect(changed.withLock { $0.allSatisfy { $0.1 == nil } })

        _ = try DurableRaceTests.feed(service, batches: 0..<20)
        _ = try service.leave("r", token: "token-cy", now: Self.start + 101)
        _ = try DurableRaceTests.feed(service, batches: 20..<70)
        _ = try service.results("r", now: Self.start + 400)
        for user in ["ana", "bo"] {
            let m = try #require(try Self.raceMissions(store, user).first)
            #expect(m.status == .completed && m.runID == "r", "\(user): \(m)")
            #expect(try store.rewards(user: user).contains { $0.reason == RewardReason.mission && $0.refID == m.id && $0.xp == m.xp })
        }
        let cy = try #require(try Self.raceMissions(store, "cy").first)
        #expect(cy.status == .offered, "a leaver's run does not finish the race: \(cy)")
        #expect(try !store.rewards(user: "cy").contains { $0.reason == RewardReason.mission })
        // Every race run was announced after it was written, with its start.
        let runs = changed.withLock { $0.filter { $0.1 != nil } }
        #expect(Set(runs.map(\.0)) == ["ana", "bo", "cy"])
        for (user, start) in runs {
            #expect(try store.run(user: user, id: "r")?.startTime == start, "\(user)")
        }
    }

    @Test("a second race of the same distance that day adds nothing, another distance adds a mission, and a day holds at most three")
    func onePerDistanceAndCapped() throws {
        let store = try DurableRaceTests.store()
        let service = Self.service(store)
        // An hour apart: a runner races one race at a time (record 0550).
        for (i, distance) in [1000.0, 1000, 2000, 3000, 4000].enumerated() {
            try service.create(RaceSettings(id: "r\(i)", name: "r\(i)", distance: distance, startTime: Self.start + Double(i) * 3600,
                                            capacity: 5, createdBy: "bo"), now: Self.start - 100)
            _ = try service.join("r\(i)", user: "ana", token: "t\(i)", now: Self.start - 90)
        }
        let specs = try Self.raceMissions(store, "ana").map { try MissionSpec(json: try JSONParser.parse($0.specJSON)) }
        #expect(specs == [.raceFinish(minDistance: 1000), .raceFinish(minDistance: 2000), .raceFinish(minDistance: 3000)])
        #expect(RaceMissions.perDay == 3)
        // A race of another day goes to that day (the runner's zone at the start).
        try store.upsertUser(UserProfile(id: "bo", timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        let late = Self.start + 86_400 * 2
        try service.create(RaceSettings(id: "far", name: "far", distance: 5000, startTime: late, capacity: 5, createdBy: "ana"),
                           now: Self.start - 100)
        _ = try service.join("far", user: "bo", token: "tf", now: Self.start - 80)
        let boDay = CivilDate(instant: late, utcOffset: 9 * 3600)
        #expect(try Self.raceMissions(store, "bo", day: boDay).count == 1)
        #expect(try Self.raceMissions(store, "bo").isEmpty)
    }

    @Test("the probability is the runner's finish rate shrunk toward the prior: a finisher's next race is likelier, a leaver's less")
    func finishRate() throws {
        #expect(abs(RaceMissions.finishProbability(results: []) - RaceMissions.priorFinishRate) < 1e-12)
        let store = try DurableRaceTests.store()
        let service = Self.service(store)
        try DurableRaceTests.open(service)
        _ = try DurableRaceTests.feed(service, batches: 0..<20)
        _ = try service.leave("r", token: "token-cy", now: Self.start + 101)
        _ = try DurableRaceTests.feed(service, batches: 20..<70)
        _ = try service.results("r", now: Self.start + 400)
        let next = Self.start + 86_400
        try service.create(RaceSettings(id: "next", name: "next", distance: 1000, startTime: next, capacity: 5, createdBy: "bo"),
                           now: Self.start + 500)
        let k = RaceMissions.priorStrength, prior = RaceMissions.priorFinishRate
        for (user, finished) in [("ana", 1.0), ("cy", 0.0)] {
            _ = try service.join("next", user: user, token: "n-\(user)", now: Self.start + 600)
            let m = try #require(try Self.raceMissions(store, user, day: CivilDate(instant: next, utcOffset: 0)).first)
            #expect(abs(m.pComplete - (finished + prior * k) / (1 + k)) < 1e-12, "\(user): \(m.pComplete)")
        }
    }

    @Test("a run that is no race leaves the race mission open; the day's end fails it when the runner ran")
    func otherRuns() throws {
        let store = try DurableRaceTests.store()
        let service = Self.service(store)
        try service.create(RaceSettings(id: "r", name: "r", distance: 1000, startTime: Self.start + 3600, capacity: 5, createdBy: "bo"),
                           now: Self.start - 100)
        _ = try service.join("r", user: "ana", token: "t", now: Self.start - 90)
        let ingestion = RunIngestion(store: store)
        let points = northPoints(start: Self.start, from: 0, to: 400, speed: 3.5, offset: 0)
        let answer = try ingestion.ingest(user: "ana", clientRunID: "morning", track: Track(points: points), now: Self.start + 500)
        let listed = try #require(answer["missions"]?.arrayValue?.first { $0["race"] == true }, "\(JSONWriter.string(answer))")
        #expect(listed["verdict"] == "not_completed" && listed["status"] == "offered", "\(listed)")
        #expect(listed["evidence"]?.arrayValue == ["the run was not part of a race"])
        #expect(try Self.raceMissions(store, "ana").first?.status == .offered)
        let tomorrow = northPoints(start: Self.start + 86_400, from: 0, to: 400, speed: 3.5, offset: 0)
        _ = try ingestion.ingest(user: "ana", clientRunID: "next", track: Track(points: tomorrow), now: Self.start + 86_400 + 500)
        #expect(try Self.raceMissions(store, "ana").first?.status == .failed)
    }

    @Test("a race mission joined after a run cannot be completed by that run")
    func joinedAfterRun() {
        let day = Self.day
        let race = MissionAssignment(id: RaceMissions.id(day: day, ordinal: 1), userID: "ana", day: day, kind: "race_finish",
                                     specJSON: "{}", modelVersion: RaceMissions.version, pComplete: 0.85, xp: 10, offeredAt: Self.start + 100)
        let daily = MissionAssignment(id: "\(day)-0-1", userID: "ana", day: day, kind: "distance", specJSON: "{}",
                                      modelVersion: "m", pComplete: 0.7, xp: 10, offeredAt: Self.start + 200)
        #expect(race.role == .race && daily.role == .daily)
        #expect(!RunIngestion.mayComplete(race, runEndingAt: Self.start + 50, dayOffers: [race, daily]))
        #expect(RunIngestion.mayComplete(race, runEndingAt: Self.start + 150, dayOffers: [race, daily]))
        // A race mission never makes the day's first set a later one.
        #expect(RunIngestion.mayComplete(daily, runEndingAt: Self.start + 50, dayOffers: [race, daily]))
    }
}
