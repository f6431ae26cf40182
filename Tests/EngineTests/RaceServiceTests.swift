import Testing
import RunusCore
import Tracking
@testable import Engine

@Suite("RaceService")
struct RaceServiceTests {
    static let start: EpochSeconds = 1_800_000_000

    func race(_ service: RaceService<RecomputingRaceTracker>, id: String, start: EpochSeconds, users: [(UserID, Double)]) throws {
        try service.create(RaceSettings(id: id, name: id, distance: 400, startTime: start, capacity: 10))
        for (u, _) in users { _ = try service.join(id, user: u, token: "\(id)-\(u)", now: start - 5) }
        _ = service.tick(now: start)
        for (u, speed) in users {
            _ = try service.position(id, token: "\(id)-\(u)", points: northPoints(start: start, from: 0, to: Int(420 / speed) + 1, speed: speed),
                                     now: start + 200)
        }
    }

    @Test("a finished race awards finish XP, podium bonuses and race badges once")
    func awards() throws {
        let store = InMemoryStore()
        for u in ["ana", "bo", "cy", "di"] { try store.upsertUser(UserProfile(id: u)) }
        let service = RaceService(store: store, makeTracker: { RecomputingRaceTracker() })
        #expect(throws: RaceServiceError.unknownUser("ghost")) {
            try service.create(RaceSettings(id: "x", name: "x", distance: 400, startTime: Self.start, capacity: 2))
            _ = try service.join("x", user: "ghost", token: "g", now: Self.start - 1)
        }
        for k in 0..<3 {
            try race(service, id: "r\(k)", start: Self.start + Double(k) * 1000,
                     users: [("ana", 5), ("bo", 4.5), ("cy", 4), ("di", 3)])
        }
        let (ranking, awards) = try service.results("r2", now: Self.start + 3000)
        #expect(ranking.prefix(3).map(\.userID) == ["ana", "bo", "cy"])
        let ana = try #require(awards.first { $0.userID == "ana" })
        // 50 for finishing + 4 for 0.4 km + 100 for the win.
        #expect(ana.xp == 50 + 4 + 100)
        #expect(ana.badges == ["race_winner_3"])
        #expect(awards.first { $0.userID == "di" }?.xp == 54)
        let anaBadges = Set(try store.badges(user: "ana").map(\.badgeID))
        #expect(anaBadges == ["race_podium", "race_winner_3"])
        #expect(try store.rewards(user: "ana").reduce(0) { $0 + $1.xp } == 3 * 154)
        // A race nobody joined ends at its start; one still waiting has no results.
        #expect(try service.results("x", now: Self.start + 10).ranking.isEmpty)
        try service.create(RaceSettings(id: "later", name: "later", distance: 400, startTime: Self.start + 1e6, capacity: 2))
        #expect(throws: RaceServiceError.notFinished("later")) { _ = try service.results("later", now: Self.start) }
    }

    @Test("list shows public unfinished races filtered by distance and start")
    func list() throws {
        let service = RaceService(store: InMemoryStore(), makeTracker: { RecomputingRaceTracker() })
        try service.create(RaceSettings(id: "a", name: "5k", distance: 5000, startTime: 100, capacity: 5))
        try service.create(RaceSettings(id: "b", name: "10k", distance: 10_000, startTime: 50, capacity: 5))
        try service.create(RaceSettings(id: "c", name: "hidden", distance: 5000, startTime: 10, capacity: 5, isPublic: false))
        #expect(service.list().map(\.settings.id) == ["b", "a"])
        #expect(service.list(distance: 4000...6000).map(\.settings.id) == ["a"])
        #expect(service.list(start: 0...60).map(\.settings.id) == ["b"])
        #expect(throws: RaceServiceError.duplicate("a")) {
            try service.create(RaceSettings(id: "a", name: "again", distance: 5000, startTime: 100, capacity: 5))
        }
    }
}
