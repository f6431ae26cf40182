import Foundation
import Testing
import Synchronization
import RunusCore
import Tracking
@testable import Engine

/// Two race services on one store whose races are shared, as replicas share PostgreSQL
/// (record 0541): commands may arrive at either, each catches up from the log, results are
/// stored once and equal an uninterrupted single service's.
@Suite("races shared by two daemons")
struct SharedRaceTests {
    typealias Service = RaceService<LiveRaceTracker>
    static let start = DurableRaceTests.start

    /// Events each service handed to its watchers from the other's commands.
    final class Relayed: Sendable {
        let events = Mutex<[String: [SequencedRaceEvent]]>([:])
        func append(_ race: String, _ new: [SequencedRaceEvent]) { events.withLock { $0[race, default: []] += new } }
        func take(_ race: String) -> [SequencedRaceEvent] { events.withLock { $0.removeValue(forKey: race) ?? [] } }
    }

    static func sharedStore() throws -> InMemoryStore {
        let store = try DurableRaceTests.store()
        store.sharedRaces.store(true, ordering: .relaxed)
        return store
    }

    static func service(_ store: InMemoryStore, _ relayed: Relayed) -> Service {
        RaceService(store: store, caughtUp: { relayed.append($0, $1) }, makeTracker: { LiveRaceTracker() })
    }

    /// Batch `k` of every runner through `route(runner index, k)`'s service.
    static func feed(_ services: [Service], batches: Range<Int>, route: (Int, Int) -> Int) {
        for k in batches {
            for (i, (u, speed)) in DurableRaceTests.runners.enumerated() {
                let points = northPoints(start: start, from: 5 * k, to: 5 * k + 4, speed: speed, offset: Double(5 * k) * speed)
                _ = try? services[route(i, k)].position("r", token: "token-\(u)", points: points, now: start + Double(5 * k + 5))
            }
            for service in services { _ = service.tick(now: start + Double(5 * k + 5)) }
        }
    }

    @Test("a position goes in as the race's next entry (record 0543): from a runner who joined on the other service it is taken after a catch-up; a token of nobody is refused and not logged; the other service ranks it alike")
    func positionsAppendedIfNext() throws {
        let store = try Self.sharedStore()
        let relayedA = Relayed(), relayedB = Relayed()
        let a = Self.service(store, relayedA), b = Self.service(store, relayedB)
        try a.create(RaceSettings(id: "r", name: "1k", distance: 1000, startTime: Self.start, capacity: 5, createdBy: "ana"),
                     now: Self.start - 100)
        _ = try a.join("r", user: "ana", token: "token-ana", now: Self.start - 50)
        #expect(try b.summary("r", now: Self.start - 40).participants == ["ana"])  // B's room knows ana only
        _ = try a.join("r", user: "bo", token: "token-bo", now: Self.start - 30)
        let logged = store.raceEntryCount
        for k in 0..<6 {
            let points = northPoints(start: Self.start, from: 5 * k, to: 5 * k + 4, speed: 3.8, offset: Double(5 * k) * 3.8)
            _ = try b.position("r", token: "token-bo", points: points, now: Self.start + Double(5 * k + 5))
            #expect(store.raceEntryCount == logged + k + 1)
        }
        let points = northPoints(start: Self.start, from: 30, to: 34, speed: 3.8)
        #expect(throws: RaceError.unknownParticipant) {
            try b.position("r", token: "token-nobody", points: points, now: Self.start + 35)
        }
        #expect(store.raceEntryCount == logged + 6)
        let rankingB = try b.ranking("r", now: Self.start + 35), rankingA = try a.ranking("r", now: Self.start + 35)
        #expect(rankingA == rankingB)
        #expect((rankingB.first { $0.userID == "bo" }?.distance ?? 0) > 50, "\(rankingB)")
        #expect(relayedA.take("r").compactMap(\.cause).map(\.user).contains("bo"))
    }

    @Test("commands alternate between two services: both rank every runner alike, results are stored once and equal one service's")
    func alternating() throws {
        let referenceStore = try DurableRaceTests.store()
        let reference = DurableRaceTests.service(referenceStore)
        try DurableRaceTests.open(reference)
        _ = try DurableRaceTests.feed(reference, batches: 0..<70)
        let expected = try reference.results("r", now: Self.start + 400)

        let store = try Self.sharedStore()
        let relayedA = Relayed(), relayedB = Relayed()
        let a = Self.service(store, relayedA), b = Self.service(store, relayedB)
        try a.create(RaceSettings(id: "r", name: "1k", distance: 1000, startTime: Self.start, capacity: 5, createdBy: "ana"),
                     now: Self.start - 100)
        // B has never seen the race: it is loaded from the store on first use.
        _ = try b.join("r", user: "ana", token: "token-ana", now: Self.start - 50)
        _ = try a.join("r", user: "bo", token: "token-bo", now: Self.start - 49)
        _ = try b.join("r", user: "cy", token: "token-cy", now: Self.start - 48)
        #expect(try a.summary("r", now: Self.start - 40).participants == ["ana", "bo", "cy"])
        #expect(try b.summary("r", now: Self.start - 40).participants == ["ana", "bo", "cy"])
        _ = a.tick(now: Self.start)
        _ = b.tick(now: Self.start)
        _ = relayedA.take("r"); _ = relayedB.take("r")

        // Runner i's batch k goes to A or B by (i + k) parity: every runner uses both.
        Self.feed([a, b], batches: 0..<30) { i, k in (i + k) % 2 }
        let rankingA = try a.ranking("r", now: Self.start + 150), rankingB = try b.ranking("r", now: Self.start + 150)
        #expect(rankingA == rankingB)
        #expect(rankingA.allSatisfy { $0.distance > 400 && $0.status == .running }, "\(rankingA)")
        // A's watchers were told of B's positions with their cause, and the other way round.
        let toA = relayedA.take("r").compactMap(\.cause), toB = relayedB.take("r").compactMap(\.cause)
        #expect(Set(toA.map(\.user)) == ["ana", "bo", "cy"])
        #expect(Set(toB.map(\.user)) == ["ana", "bo", "cy"])
        #expect(toA.allSatisfy { $0.pointTime != nil })

        Self.feed([a, b], batches: 30..<70) { i, k in (i + k) % 2 }
        let gotA = try a.results("r", now: Self.start + 400), gotB = try b.results("r", now: Self.start + 400)
        #expect(gotA.ranking == expected.ranking)
        #expect(gotB.ranking == expected.ranking)
        #expect(gotA.awards == expected.awards && gotB.awards == expected.awards)
        #expect(try store.raceResults(race: "r").count == 3, "results are stored once")
        for (u, _) in DurableRaceTests.runners {
            #expect(try store.rewards(user: u).map(\.xp) == (try referenceStore.rewards(user: u)).map(\.xp), "XP of \(u) once")
        }
    }

    @Test("a join one service accepted before the start is applied by the other even after its clock started the race")
    func joinAcrossTicks() throws {
        let store = try Self.sharedStore()
        let a = Self.service(store, Relayed()), b = Self.service(store, Relayed())
        try a.create(RaceSettings(id: "r", name: "1k", distance: 1000, startTime: Self.start, capacity: 5, createdBy: "ana"),
                     now: Self.start - 100)
        _ = try b.join("r", user: "ana", token: "token-ana", now: Self.start - 10)
        _ = b.tick(now: Self.start + 0.5)          // B's clock is ahead: the race runs there
        _ = try a.join("r", user: "bo", token: "token-bo", now: Self.start - 0.2)  // A's is behind
        #expect(try b.summary("r", now: Self.start + 1).participants == ["ana", "bo"])
        #expect(throws: RaceError.alreadyStarted) { _ = try a.join("r", user: "cy", token: "token-cy", now: Self.start + 0.1) }
    }

    @Test("a race one service cancels is gone from the other, whose watchers are told")
    func cancelAcross() throws {
        let store = try Self.sharedStore()
        let relayedB = Relayed()
        let a = Self.service(store, Relayed()), b = Self.service(store, relayedB)
        try a.create(RaceSettings(id: "r", name: "1k", distance: 1000, startTime: Self.start, capacity: 5, createdBy: "ana"),
                     now: Self.start - 100)
        _ = try b.join("r", user: "bo", token: "token-bo", now: Self.start - 90)
        #expect(try a.summary("r", now: Self.start - 80).participants == ["bo"])
        _ = try a.cancel("r", by: "ana", now: Self.start - 60)
        #expect(throws: RaceServiceError.unknownRace("r")) { try b.catchUp("r", now: Self.start - 59) }
        #expect(relayedB.take("r").map(\.event) == [.cancelled])
        #expect(throws: RaceServiceError.unknownRace("r")) { _ = try b.summary("r", now: Self.start - 58) }
        #expect(throws: RaceServiceError.unknownRace("r")) { _ = try b.join("r", user: "cy", token: "token-cy", now: Self.start - 57) }
    }

    @Test("a race created on one service is listed by the other")
    func listedAcross() throws {
        let store = try Self.sharedStore()
        let a = Self.service(store, Relayed()), b = Self.service(store, Relayed())
        #expect(b.list(now: Self.start - 200).races.isEmpty)
        try a.create(RaceSettings(id: "r", name: "1k", distance: 1000, startTime: Self.start, capacity: 5, createdBy: "ana"),
                     now: Self.start - 100)
        _ = try a.join("r", user: "bo", token: "token-bo", now: Self.start - 90)
        let listed = b.list(now: Self.start - 80).races
        #expect(listed.map(\.settings.id) == ["r"])
        #expect(listed.first?.participants == ["bo"])
    }

    @Test("creations on two services at once never pass a cap: 12 threads creating for one runner leave exactly the creator's cap of rooms, then others' creations stop at the total; both services list the same races; every insert follows a read of the active races inside one creation step")
    func capsAcrossServices() throws {
        let store = try Self.sharedStore()
        var limits = RaceLimits()
        limits.openPerCreator = 4
        limits.openInTotal = 7
        let relayed = Relayed()
        let services = [0, 1].map { _ in
            RaceService(store: store, limits: limits, caughtUp: { relayed.append($0, $1) }, makeTracker: { LiveRaceTracker() })
        }
        let outcomes = Mutex<[String: Int]>([:])
        func create(_ threads: Int, by host: UserID, prefix: String) {
            let group = DispatchGroup()
            for t in 0..<threads {
                group.enter()
                Thread {
                    defer { group.leave() }
                    let settings = RaceSettings(id: "\(prefix)\(t)", name: "5k", distance: 5000, startTime: Self.start,
                                                capacity: 5, createdBy: host)
                    let outcome: String
                    do {
                        try services[t % 2].create(settings, now: Self.start - 600)
                        outcome = "created"
                    } catch let error as RaceServiceError {
                        outcome = "\(error)"
                    } catch {
                        outcome = "other: \(error)"
                    }
                    outcomes.withLock { $0[outcome, default: 0] += 1 }
                }.start()
            }
            group.wait()
        }
        create(12, by: "ana", prefix: "a")
        #expect(outcomes.withLock { $0 } == ["created": 4, "\(RaceServiceError.tooManyRacesByCreator("ana", limit: 4))": 8])
        #expect(try store.activeRaces(startingFrom: 0).filter { $0.createdBy == "ana" }.count == 4)
        outcomes.withLock { $0 = [:] }
        create(12, by: "bo", prefix: "b")
        #expect(outcomes.withLock { $0 } == ["created": 3, "\(RaceServiceError.tooManyRaces(limit: 7))": 9])
        #expect(try store.activeRaces(startingFrom: 0).count == 7)
        #expect(store.uncountedInserts.load(ordering: .relaxed) == 0,
                "a race was inserted other than right after reading the others' in the same step")
        let lists = services.map { Set($0.list(now: Self.start - 500).races.map(\.settings.id)) }
        #expect(lists[0] == lists[1] && lists[0].count == 7)
    }
}
