import Testing
import RunusCore
import Tracking
@testable import Engine

/// One race at a time (record 0550) and the caps one host cannot fill for everyone (record
/// 0552). Issue 55, found 2026-12-07: one 100 s run sent to 20 races of 400 m paid 3,080 XP.
@Suite("one race at a time")
struct OneRaceAtATimeTests {
    static let start: EpochSeconds = 1_800_000_000
    typealias Service = RaceService<LiveRaceTracker>

    static func service(_ store: InMemoryStore, limits: RaceLimits = RaceLimits()) throws -> Service {
        for u in ["ana", "bo", "host"] { try store.upsertUser(UserProfile(id: u, timeZone: "UTC")) }
        return Service(store: store, limits: limits, makeTracker: { LiveRaceTracker() })
    }

    static func create(_ service: Service, _ id: String, start: EpochSeconds = start, distance: Meters = 400) throws {
        try service.create(RaceSettings(id: id, name: id, distance: distance, startTime: start, capacity: 10, createdBy: "host"),
                           now: Self.start - 1000)
    }

    @Test("one run sent to 20 races at one start pays one race: the second join is refused, naming the first race; regression 2026-12-07")
    func oneRunOneRace() throws {
        let store = InMemoryStore()
        var limits = RaceLimits()
        limits.openPerCreator = 20  // the attack's 20 hosts, as one
        let service = try Self.service(store, limits: limits)
        var refused: [RaceServiceError] = []
        for k in 0..<20 {
            try Self.create(service, "r\(k)")
            do {
                _ = try service.join("r\(k)", user: "ana", token: "t\(k)", now: Self.start - 100)
            } catch let error as RaceServiceError {
                refused.append(error)
            }
        }
        #expect(refused.count == 19)
        #expect(refused.allSatisfy { $0.reason == "in_another_race" && "\($0)".hasPrefix("in_another_race: 'ana' is in race 'r0'") })
        // Only r0's log holds her.
        #expect(try (0..<20).filter { k in try store.raceEntries(race: "r\(k)").contains { $0.userID == "ana" } } == [0])
        let points = northPoints(start: Self.start, from: 0, to: 100, speed: 4.5)
        for k in 0..<20 { _ = try? service.position("r\(k)", token: "t\(k)", points: points, now: Self.start + 101) }
        _ = service.tick(now: Self.start + 4000)
        let xp = try store.rewards(user: "ana").filter { $0.reason != RewardReason.mission }.map(\.xp).reduce(0, +)
        // One 400 m finish and its win: 50 + 4 + 100 XP (record 0008), and the race's run's own XP at most.
        #expect(try store.rewards(user: "ana").filter { $0.reason == RewardReason.raceFinish }.count == 1)
        #expect(xp < 2 * (Service.finishXP + Service.winXP + 4))
    }

    @Test("races whose windows share no hour can both hold a runner; leaving, cancelling and the end free the hours")
    func sequentialRaces() throws {
        let store = InMemoryStore()
        let service = try Self.service(store)
        try Self.create(service, "ten")                         // 10:00, a 400 m race holds one hour
        try Self.create(service, "eleven", start: Self.start + 3600)
        try Self.create(service, "half", start: Self.start + 1800)
        _ = try service.join("ten", user: "ana", token: "a1", now: Self.start - 100)
        _ = try service.join("eleven", user: "ana", token: "a2", now: Self.start - 100)
        #expect(throws: RaceServiceError.inAnotherRace(user: "ana", race: "half", holder: "ten")) {
            _ = try service.join("half", user: "ana", token: "a3", now: Self.start - 100)
        }
        _ = try service.leave("ten", token: "a1", now: Self.start - 50)
        #expect(throws: RaceServiceError.inAnotherRace(user: "ana", race: "half", holder: "eleven")) {
            _ = try service.join("half", user: "ana", token: "a3", now: Self.start - 50)
        }
        _ = try service.leave("eleven", token: "a2", now: Self.start - 40)
        _ = try service.join("half", user: "ana", token: "a3", now: Self.start - 40)
        // The host calls "half" off: ana may join "ten" again.
        _ = try service.cancel("half", by: "host", now: Self.start - 30)
        _ = try service.join("ten", user: "ana", token: "a4", now: Self.start - 20)
        #expect(try store.raceHolder(user: "ana", hour: 500_000) == "ten")
    }

    @Test("a race that ends gives its runners' hours back")
    func endReleases() throws {
        let store = InMemoryStore()
        let service = try Self.service(store)
        try Self.create(service, "a")
        _ = try service.join("a", user: "bo", token: "b", now: Self.start - 100)
        _ = try service.position("a", token: "b", points: northPoints(start: Self.start, from: 0, to: 110, speed: 4), now: Self.start + 111)
        #expect(try service.results("a", now: Self.start + 112).awards.count == 1)
        #expect(try store.raceHolder(user: "bo", hour: 500_000) == nil)
    }

    @Test("races starting more than a day ahead take at most their share of the daemon's cap; races within a day still open")
    func aheadShare() throws {
        var limits = RaceLimits()
        limits.openInTotal = 6
        limits.openAheadInTotal = 3
        limits.openPerCreator = 100
        let service = try Self.service(InMemoryStore(), limits: limits)
        let now = Self.start - 3 * 86_400
        for k in 0..<3 {
            try service.create(RaceSettings(id: "far\(k)", name: "f", distance: 400, startTime: Self.start + Double(k), capacity: 2,
                                            createdBy: "host"), now: now)
        }
        #expect(throws: RaceServiceError.tooManyRacesAhead(limit: 3)) {
            try service.create(RaceSettings(id: "far3", name: "f", distance: 400, startTime: Self.start, capacity: 2, createdBy: "host"),
                               now: now)
        }
        try service.create(RaceSettings(id: "soon", name: "s", distance: 400, startTime: now + 3600, capacity: 2, createdBy: "bo"),
                           now: now)
    }
}
