import Testing
import RunusCore
import Tracking
@testable import Engine

@Suite("RaceService")
struct RaceServiceTests {
    static let start: EpochSeconds = 1_800_000_000

    func race(_ service: RaceService<RecomputingRaceTracker>, id: String, start: EpochSeconds, users: [(UserID, Double)]) throws {
        try service.create(RaceSettings(id: id, name: id, distance: 400, startTime: start, capacity: 10), now: 0)
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
            try service.create(RaceSettings(id: "x", name: "x", distance: 400, startTime: Self.start, capacity: 2), now: 0)
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
        // The first win earns race_win_1 and the podium; the third, race_winner_3.
        #expect(anaBadges == ["race_win_1", "race_podium", "race_winner_3"])
        #expect(Set(try store.badges(user: "bo").map(\.badgeID)) == ["race_podium"])
        #expect(try store.rewards(user: "ana").reduce(0) { $0 + $1.xp } == 3 * 154)
        // A race nobody joined ends at its start; one still waiting has no results.
        #expect(try service.results("x", now: Self.start + 10).ranking.isEmpty)
        try service.create(RaceSettings(id: "later", name: "later", distance: 400, startTime: Self.start + 1e6, capacity: 2), now: 0)
        #expect(throws: RaceServiceError.notFinished("later")) { _ = try service.results("later", now: Self.start) }
    }

    @Test("list shows public unfinished races filtered by distance and start")
    func list() throws {
        let service = RaceService(store: InMemoryStore(), makeTracker: { RecomputingRaceTracker() })
        try service.create(RaceSettings(id: "a", name: "5k", distance: 5000, startTime: 100, capacity: 5), now: 0)
        try service.create(RaceSettings(id: "b", name: "10k", distance: 10_000, startTime: 50, capacity: 5), now: 0)
        try service.create(RaceSettings(id: "c", name: "hidden", distance: 5000, startTime: 10, capacity: 5, isPublic: false), now: 0)
        #expect(service.list().races.map(\.settings.id) == ["b", "a"])
        #expect(service.list(distance: 4000...6000).races.map(\.settings.id) == ["a"])
        #expect(service.list(start: 0...60).races.map(\.settings.id) == ["b"])
        #expect(throws: RaceServiceError.duplicate("a")) {
            try service.create(RaceSettings(id: "a", name: "again", distance: 5000, startTime: 100, capacity: 5), now: 0)
        }
    }

    @Test("race.list pages: every public race once, in order, across pages of any size (found 2026-12-01: one 4.5 MB answer)",
          arguments: [1, 2, 3, 7, 50])
    func pages(size: Int) throws {
        let service = RaceService(store: InMemoryStore(), limits: { var l = RaceLimits(); l.openPerCreator = 100; return l }(),
                                  makeTracker: { RecomputingRaceTracker() })
        // Ties in start time, ids with the cursor's separator in them.
        var expected: [String] = []
        for i in 0..<23 {
            let id = "r.\(i % 5).\(i)"
            try service.create(RaceSettings(id: id, name: id, distance: 5000, startTime: Double(100 + i % 4), capacity: 5, createdBy: "host"), now: 0)
            expected.append(id)
        }
        try service.create(RaceSettings(id: "private", name: "p", distance: 5000, startTime: 100, capacity: 5, isPublic: false, createdBy: "host"), now: 0)
        expected.sort { a, b in
            let ia = Int(a.split(separator: ".").last!)!, ib = Int(b.split(separator: ".").last!)!
            return (100 + ia % 4, a) < (100 + ib % 4, b)
        }
        var seen: [String] = [], cursor: RaceListCursor?
        repeat {
            let page = service.list(after: cursor, limit: size)
            #expect(page.races.count <= size)
            seen += page.races.map(\.settings.id)
            cursor = page.next.flatMap { RaceListCursor(text: $0.text) }
            #expect(page.next == nil || cursor == page.next, "the cursor survives its wire form")
        } while cursor != nil
        #expect(seen == expected)
    }

    @Test("open races are capped per creator and in total; finished ones stop counting and are forgotten after a day")
    func caps() throws {
        var limits = RaceLimits()
        limits.openPerCreator = 2
        limits.openInTotal = 3
        let service = RaceService(store: InMemoryStore(), limits: limits, makeTracker: { RecomputingRaceTracker() })
        func create(_ id: String, by user: String, start: EpochSeconds = Self.start) throws {
            try service.create(RaceSettings(id: id, name: id, distance: 400, startTime: start, capacity: 2, createdBy: user), now: 0)
        }
        try create("a1", by: "ana")
        try create("a2", by: "ana")
        #expect(throws: RaceServiceError.tooManyRacesByCreator("ana", limit: 2)) { try create("a3", by: "ana") }
        try create("b1", by: "bo", start: Self.start + 1e6)
        #expect(throws: RaceServiceError.tooManyRaces(limit: 3)) { try create("c1", by: "cy") }
        // Nobody joined ana's races: they start, then finish on the next tick, and free her places.
        _ = service.tick(now: Self.start + 1)
        _ = service.tick(now: Self.start + 2)
        try create("a3", by: "ana")
        #expect(try service.summary("a1").phase == .finished)
        // A day after the cutoff the finished rooms are gone.
        _ = service.tick(now: Self.start + 3600 + limits.finishedRetention + 1)
        #expect(throws: RaceServiceError.unknownRace("a1")) { _ = try service.summary("a1") }
        #expect(try service.summary("b1").phase == .waiting)
    }
}

@Suite("race.cancel")
struct RaceCancelTests {
    @Test("the host cancels a waiting race, which is then gone; nobody else may, and not once it started")
    func cancel() throws {
        let store = InMemoryStore()
        for u in ["ana", "bo"] { try store.upsertUser(UserProfile(id: u, timeZone: "UTC")) }
        let service = RaceService(store: store, makeTracker: { RecomputingRaceTracker() })
        let start: EpochSeconds = 1_800_000_000
        try service.create(RaceSettings(id: "r", name: "5k", distance: 5000, startTime: start, capacity: 5, createdBy: "ana"), now: 0)
        _ = try service.join("r", user: "bo", token: "t", now: start - 60)
        #expect(throws: RaceServiceError.notHost(race: "r", user: "bo")) { _ = try service.cancel("r", by: "bo", now: start - 30) }
        #expect(try service.cancel("r", by: "ana", now: start - 30).map(\.event) == [.cancelled])
        #expect(throws: RaceServiceError.unknownRace("r")) { _ = try service.summary("r") }
        #expect(throws: RaceServiceError.unknownRace("r")) { _ = try service.cancel("r", by: "ana", now: start - 30) }
        // Once the start has passed (a tick runs it), the race stays.
        try service.create(RaceSettings(id: "s", name: "5k", distance: 5000, startTime: start, capacity: 5, createdBy: "ana"), now: 0)
        _ = try service.join("s", user: "bo", token: "u", now: start - 60)
        _ = service.tick(now: start + 1)
        #expect(throws: RaceError.alreadyStarted) { _ = try service.cancel("s", by: "ana", now: start + 2) }
        #expect(try service.summary("s").phase == .running)
    }
}
