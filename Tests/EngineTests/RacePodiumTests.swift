import Testing
import Foundation
import RunusCore
import Tracking
import Missions
@testable import Engine

/// Record 0652: when a race starts, each runner is offered the podium place whose chance
/// against the field is nearest the band, at that chance, once; the race's result decides it.
@Suite("podium missions")
struct RacePodiumTests {
    typealias Service = RaceService<LiveRaceTracker>
    static let start = DurableRaceTests.start
    static var day: CivilDate { CivilDate(instant: start, utcOffset: 0) }
    /// 5 km paces, s/km: a clear favourite, two equals, and a runner far behind.
    static let paces: [(UserID, SecondsPerKm)] = [("fast", 240), ("mid1", 300), ("mid2", 302), ("slow", 400)]

    static func store() throws -> InMemoryStore {
        let store = InMemoryStore()
        for (user, pace) in paces {
            try store.upsertUser(UserProfile(id: user, timeZone: "UTC"))
            for run in history(user: user, runs: 20, distance: 5000, pace: pace, end: start) { _ = try store.insertRun(run) }
        }
        return store
    }

    static func service(_ store: InMemoryStore) -> Service {
        RaceService(store: store, runRules: PlausibilityRules(), makeTracker: { LiveRaceTracker() })
    }

    /// Creates a 5 km race starting at `start` and joins `users`.
    static func open(_ service: Service, _ users: [UserID], id: String = "r", start: EpochSeconds = start) throws {
        try service.create(RaceSettings(id: id, name: id, distance: 5000, startTime: start, capacity: 10, createdBy: users[0]),
                           now: Self.start - 100)
        for user in users { _ = try service.join(id, user: user, token: "\(id)-\(user)", now: Self.start - 50) }
    }

    static func podiums(_ store: InMemoryStore, _ user: UserID) throws -> [MissionAssignment] {
        try store.assignments(user: user, day: day).filter { $0.kind == MissionKind.podium.rawValue }
    }

    /// What `RaceMissions` should offer each of `users` (everyone at the prior finish rate).
    static func expected(_ store: InMemoryStore, _ users: [UserID]) throws -> [UserID: (place: Int, pComplete: Double)] {
        let finish = RaceMissions.finishProbability(results: [])
        let field = try users.map { user in
            RaceMissions.podiumRunner(runs: try store.runs(user: user, from: start - 100 * 86_400, to: start),
                                      distance: 5000, start: start, finish: finish)
        }
        let chances = try #require(PodiumForecast.placeProbabilities(RaceMissions.completed(field, finish: users.map { _ in finish }),
                                                                      places: min(3, users.count - 1)))
        var offers: [UserID: (place: Int, pComplete: Double)] = [:]
        for (i, user) in users.enumerated() { offers[user] = RaceMissions.podiumPlace(chances[i]) }
        return offers
    }

    @Test("at the start the favourite is offered the win, the equals a top-3 place, and the runner far behind nothing")
    func offeredAtStart() throws {
        let store = try Self.store()
        let service = Self.service(store)
        let users = Self.paces.map(\.0)
        try Self.open(service, users)
        for user in users { #expect(try Self.podiums(store, user).isEmpty, "no podium before the start: \(user)") }
        _ = service.tick(now: Self.start)
        let expected = try Self.expected(store, users)
        #expect(expected["fast"]?.place == 1 && expected["mid1"]?.place == 3 && expected["mid2"]?.place == 3)
        #expect(expected["slow"] == nil, "\(String(describing: expected["slow"]))")
        for user in users {
            let podiums = try Self.podiums(store, user)
            guard let (place, p) = expected[user] else { #expect(podiums.isEmpty, "\(user): \(podiums)"); continue }
            let m = try #require(podiums.first)
            #expect(podiums.count == 1 && m.role == .race && m.status == .offered && m.modelVersion == RaceMissions.podiumVersion)
            #expect(try MissionSpec(json: try JSONParser.parse(m.specJSON)) == .podium(maxPlace: place))
            #expect(abs(m.pComplete - p) < 1e-12 && p >= RaceMissions.podiumFloor)
            #expect(m.xp == MissionXP.xp(for: .podium(maxPlace: place), pComplete: p))
            let listed = try #require(RaceMissions.todayMission(m))
            #expect(listed.isRace && listed.why.contains(place == 1 ? "a win" : "top \(place)"), "\(listed.why)")
        }
        // The race-finish missions of the joins are still there, beside the podiums.
        for user in users {
            #expect(try store.assignments(user: user, day: Self.day).contains { $0.kind == MissionKind.raceFinish.rawValue })
        }
    }

    @Test("later ticks, a service rebuilt from the store and a second race that day add no podium; a start seen after the window offers none")
    func once() throws {
        let store = try Self.store()
        let users = Self.paces.map(\.0)
        let service = Self.service(store)
        try Self.open(service, users)
        _ = service.tick(now: Self.start)
        let first = try users.flatMap { try Self.podiums(store, $0) }
        try #require(!first.isEmpty)
        _ = service.tick(now: Self.start + 1)
        let resumed = Self.service(store)
        #expect(try resumed.resume(now: Self.start + 2) == 1)
        _ = resumed.tick(now: Self.start + 3)
        // A second race at the same time cannot take them: a runner races one race at a time (record 0550).
        #expect(throws: RaceServiceError.self) { try Self.open(resumed, users, id: "r2") }
        _ = resumed.tick(now: Self.start + 4)
        #expect(try users.flatMap { try Self.podiums(store, $0) }.map(\.id) == first.map(\.id))

        let late = try Self.store()
        let lateService = Self.service(late)
        try Self.open(lateService, users)
        _ = lateService.tick(now: Self.start + RaceMissions.podiumOfferWindow + 1)
        #expect(try users.flatMap { try Self.podiums(late, $0) }.isEmpty)
    }

    @Test("two services sharing the store, both ticking at the start, offer each runner one podium")
    func sharedOnce() throws {
        let store = try Self.store()
        store.sharedRaces.store(true, ordering: .relaxed)
        let users = Self.paces.map(\.0)
        let a = Self.service(store), b = Self.service(store)
        try Self.open(a, users)
        // b holds the room too (read from the store), so both rooms start and both offer.
        #expect(try b.summary("r", now: Self.start - 10).participants.count == users.count)
        #expect(b.rooms.withLock { $0["r"] != nil })
        _ = a.tick(now: Self.start)
        _ = b.tick(now: Self.start)
        let expected = try Self.expected(store, users)
        for user in users { #expect(try Self.podiums(store, user).count == (expected[user] == nil ? 0 : 1), "\(user)") }
    }

    @Test("a runner alone in a race is offered no podium")
    func alone() throws {
        let store = try Self.store()
        let service = Self.service(store)
        try Self.open(service, ["fast"])
        _ = service.tick(now: Self.start)
        #expect(try Self.podiums(store, "fast").isEmpty)
    }

    @Test("the race's result decides it: the two runners first over 1 km complete a top-2 podium, the third's stays open")
    func decidedByTheRace() throws {
        let store = try DurableRaceTests.store()
        let service = RaceMissionTests.service(store)
        try DurableRaceTests.open(service)
        // Three runners without runs: alike, so each has top 2 at 0.85 × (1 − 0.85² / 3).
        for (user, _) in DurableRaceTests.runners {
            let m = try #require(try RaceMissionTests.raceMissions(store, user, kind: .podium).first)
            #expect(try MissionSpec(json: try JSONParser.parse(m.specJSON)) == .podium(maxPlace: 2))
            #expect(abs(m.pComplete - 0.85 * (1 - 0.85 * 0.85 / 3)) < 1e-4, "\(m.pComplete)")
        }
        _ = try DurableRaceTests.feed(service, batches: 0..<70)
        _ = try service.results("r", now: Self.start + 400)
        for user in ["ana", "bo"] {
            let m = try #require(try RaceMissionTests.raceMissions(store, user, kind: .podium).first)
            #expect(m.status == .completed && m.runID == "r", "\(user): \(m)")
        }
        #expect(try RaceMissionTests.raceMissions(store, "cy", kind: .podium).first?.status == .offered)
    }
}
