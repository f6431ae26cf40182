import Foundation
import Synchronization
import Testing
import RunusCore
import Storage
import PostgresStorage

/// One race at a time (record 0550) on both stores: the key `(user_id, hour)` is what refuses
/// a second race, so it must hold on each store and under concurrent joins.
@Suite("Store conformance: race holds")
struct RaceHoldConformanceTests {
    static func hold(_ user: UserID, _ race: String, _ hours: ClosedRange<Int>) -> RaceHold {
        RaceHold(userID: user, raceID: race, hours: hours)
    }

    @Test("a runner holds each hour for one race; a refused hold keeps none of its hours; release, and deletion, free them",
          arguments: StoreKind.allCases)
    func holds(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            for user in ["ana", "bo"] { try store.upsertUser(Sample.user(user)) }
            for id in ["a", "b", "c"] { try store.insertRace(RaceConformanceTests.race(id, start: 3600 * 10)) }
            try store.holdRace(Self.hold("ana", "a", 10...12))
            try store.holdRace(Self.hold("ana", "a", 10...12))  // the same race again: nothing changes
            try store.holdRace(Self.hold("bo", "a", 10...12))   // another runner, the same race
            let refused = #expect(throws: RaceHoldConflict.self) { try store.holdRace(Self.hold("ana", "b", 12...14)) }
            #expect(refused?.holder == "a")
            #expect(try store.raceHolder(user: "ana", hour: 13) == nil, "a refused hold must keep none of its hours")
            try store.holdRace(Self.hold("ana", "c", 13...14))  // right after a: fine
            #expect(try (9...15).map { try store.raceHolder(user: "ana", hour: $0) } == [nil, "a", "a", "a", "c", "c", nil])
            try store.releaseRaceHold(user: "ana", race: "a")
            #expect(try store.raceHolder(user: "ana", hour: 11) == nil && store.raceHolder(user: "bo", hour: 11) == "a")
            try store.holdRace(Self.hold("ana", "b", 10...12))
            try store.releaseRaceHolds(race: "b")
            #expect(try store.raceHolder(user: "ana", hour: 10) == nil)
            #expect(try store.deleteUser(id: "bo"))
            #expect(try store.raceHolder(user: "bo", hour: 11) == nil)
            #expect(try store.raceHolder(user: "ana", hour: 13) == "c")
        }
    }

    @Test("8 threads hold overlapping races for one runner at once: exactly one wins every contested hour",
          arguments: StoreKind.allCases)
    func concurrentHolds(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("ana"))
            let races = (0..<8).map { "r\($0)" }
            for id in races { try store.insertRace(RaceConformanceTests.race(id, start: 3600 * 100)) }
            let won = Mutex<[String]>([])
            let failures = Mutex<[String]>([])
            let group = DispatchGroup()
            for race in races {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        try store.holdRace(Self.hold("ana", race, 100...101))
                        won.withLock { $0.append(race) }
                    } catch is RaceHoldConflict {
                    } catch {
                        failures.withLock { $0.append("\(race): \(error)") }
                    }
                }.start()
            }
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let winners = won.withLock { $0 }
            #expect(winners.count == 1, "\(winners)")
            #expect(try store.raceHolder(user: "ana", hour: 100) == winners.first && store.raceHolder(user: "ana", hour: 101) == winners.first)
        }
    }
}
