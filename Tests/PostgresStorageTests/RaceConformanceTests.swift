import Foundation
import Testing
import RunusCore
import Storage
import PostgresStorage

/// The race store (record 0526) on both stores: what goes in comes out, ids are never reused,
/// the log is append-only, and a runner's deletion takes their race rows with it.
@Suite("Store conformance: durable races")
struct RaceConformanceTests {
    static func race(_ id: String, start: EpochSeconds, by host: UserID = "ana", invite: String? = nil) -> StoredRace {
        StoredRace(id: id, name: "name of \(id) 🏃", distance: 5000, startTime: start, capacity: 20, isPublic: invite == nil,
                   createdBy: host, inviteDigest: invite.map(SHA256.hex), createdAt: start - 600)
    }

    static let entries = [
        RaceLogEntry(raceID: "a", seq: 1, kind: .join, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 1900, points: nil),
        RaceLogEntry(raceID: "a", seq: 2, kind: .position, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 2010.5,
                     points: [1, 0, 0, 255]),
        RaceLogEntry(raceID: "a", seq: 3, kind: .position, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 2011, points: []),
        RaceLogEntry(raceID: "a", seq: 4, kind: .leave, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 2020, points: nil),
    ]

    static let results = [
        StoredRaceResult(raceID: "a", rank: 1, userID: "bo", status: "finished", distance: 5000, finishTime: 1500.25,
                         pace: 300.05, gap: 0, timeGap: 0, xp: 200, badges: ["race_win_1", "race_podium"], finishedAt: 4000),
        StoredRaceResult(raceID: "a", rank: 2, userID: "ana", status: "left", distance: 40, finishTime: nil, pace: nil,
                         gap: 4960, timeGap: nil, xp: 0, badges: [], finishedAt: 4000),
    ]

    @Test("races, their log and results round-trip; a duplicate id or seq is refused; cancelled races are not active",
          arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let a = Self.race("a", start: 2000), b = Self.race("b", start: 1000, invite: "secret"), c = Self.race("c", start: 3000)
            for r in [a, b, c] { try store.insertRace(r) }
            #expect(throws: StorageError.self) { try store.insertRace(Self.race("a", start: 5)) }
            try store.cancelRace(id: "c", at: 2500)
            try store.cancelRace(id: "c", at: 2600)  // the first call off stands
            #expect(try store.activeRaces(startingFrom: 0) == [b, a])
            #expect(try store.activeRaces(startingFrom: 1500) == [a])
            var cancelled = c
            cancelled.cancelledAt = 2500
            #expect(try store.allRaces() == [b, a, cancelled])

            for e in Self.entries.reversed() { try store.appendRaceEntry(e) }
            #expect(try store.raceEntries(race: "a") == Self.entries)
            let error = #expect(throws: StorageError.self) { try store.appendRaceEntry(Self.entries[0]) }
            #expect(error?.isConstraintViolation == true)
            #expect(try store.races(user: "ana") == [a])
            #expect(try store.races(user: "nobody") == [])

            try store.insertRaceResults(Self.results.reversed())
            #expect(try store.raceResults(race: "a") == Self.results)
            #expect(throws: StorageError.self) { try store.insertRaceResults([Self.results[0]]) }
            #expect(try store.raceResults(race: "a") == Self.results)  // the refused call stored nothing
            #expect(try store.raceResults(race: "b").isEmpty)
            let totals = try store.totals()
            #expect(totals.races == 3 && totals.raceEntries == 4 && totals.raceResults == 2)
        }
    }

    @Test("users.delete removes a runner's race log and results and their name as host; the race stays for the others",
          arguments: StoreKind.allCases)
    func deletion(kind: StoreKind) throws {
        try withStore(kind) { store in
            try store.upsertUser(Sample.user("ana"))
            try store.insertRace(Self.race("a", start: 2000, by: "ana"))
            try store.appendRaceEntry(RaceLogEntry(raceID: "a", seq: 1, kind: .join, userID: "ana", tokenDigest: "x", time: 1, points: nil))
            try store.appendRaceEntry(RaceLogEntry(raceID: "a", seq: 2, kind: .join, userID: "bo", tokenDigest: "y", time: 2, points: nil))
            try store.insertRaceResults([StoredRaceResult(raceID: "a", rank: 1, userID: "ana", status: "finished", distance: 5000,
                                                          finishTime: 1, pace: 1, gap: 0, timeGap: 0, xp: 1, badges: [], finishedAt: 3)])
            #expect(try store.deleteUser(id: "ana"))
            #expect(try store.raceEntries(race: "a").map(\.userID) == ["bo"])
            #expect(try store.raceResults(race: "a").isEmpty)
            #expect(try store.activeRaces(startingFrom: 0).map(\.createdBy) == [""])
        }
    }

    @Test("two threads appending the same seq of a race: one succeeds, the log has it once", arguments: StoreKind.allCases)
    func racingAppends(kind: StoreKind) throws {
        try withStore(kind) { store in
            try store.insertRace(Self.race("a", start: 2000))
            let seen = Observations()
            onThreads(4) { t in
                do {
                    try store.appendRaceEntry(RaceLogEntry(raceID: "a", seq: 1, kind: .join, userID: "u\(t)", tokenDigest: "d",
                                                           time: 1, points: nil))
                    seen.add(t)
                } catch let error as StorageError where error.isConstraintViolation {
                } catch {
                    seen.fail("thread \(t): \(error)")
                }
            }
            #expect(seen.failures == [])
            #expect(seen.values.count == 1)
            #expect(try store.raceEntries(race: "a").map(\.userID) == seen.values.map { "u\($0)" })
        }
    }

    @Test("locked appends (record 0541): 4 threads each appending after what it last saw never collide; the tail says what others wrote and whether the race was called off; a refused build writes nothing",
          arguments: StoreKind.allCases)
    func lockedAppends(kind: StoreKind) throws {
        try withStore(kind) { store in
            try store.insertRace(Self.race("a", start: 2000))
            #expect(try store.raceTail(race: "nope", after: 0) == nil)
            let seen = Observations()
            onThreads(4) { t in
                var known = 0
                for _ in 0..<25 {
                    do {
                        try store.appendRaceEntry(race: "a", after: known) { tail in
                            if let last = tail.entries.last?.seq { known = last }
                            if tail.entries.contains(where: { $0.seq <= known - tail.entries.count }) { seen.fail("thread \(t): a tail repeated an entry") }
                            return RaceLogEntry(raceID: "a", seq: known + 1, kind: .position, userID: "u\(t)", tokenDigest: "d\(t)",
                                                time: Double(known + 1), points: [UInt8(t)])
                        }
                        known += 1
                        seen.add(known)
                    } catch {
                        seen.fail("thread \(t): \(error)")
                    }
                }
            }
            #expect(seen.failures == [])
            #expect(seen.values.sorted() == Array(1...100))
            let log = try store.raceEntries(race: "a")
            #expect(log.map(\.seq) == Array(1...100))
            #expect(try store.raceTail(race: "a", after: 98)?.entries == Array(log.suffix(2)))

            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.appendRaceEntry(race: "a", after: 100) { _ in
                    try store.cancelRace(id: "a", at: 2100)  // undone with the rest
                    throw Refused()
                }
            }
            #expect(try store.raceTail(race: "a", after: 100) == RaceLogTail(cancelled: false, entries: []))
            #expect(try store.appendRaceEntry(race: "a", after: 100) { _ in
                try store.cancelRace(id: "a", at: 2100)
                return nil
            } == false)
            #expect(try store.raceTail(race: "a", after: 100) == RaceLogTail(cancelled: true, entries: []))
            #expect(try store.race(id: "a")?.cancelledAt == 2100)
            #expect(store.racesAreShared == (kind == .postgres))
        }
    }

    @Test("appends at the end (record 0543): a command goes after whatever the log holds and comes back with the entries after the seq the caller knew; none for no race or a called-off one; mixed with locked appends on 4 threads the log is 1...101 with nothing lost or twice",
          arguments: StoreKind.allCases)
    func appendsAtEnd(kind: StoreKind) throws {
        try withStore(kind) { store in
            @Sendable func entry(_ seq: Int, _ race: String = "a", by t: Int = 0) -> RaceLogEntry {
                RaceLogEntry(raceID: race, seq: seq, kind: .position, userID: "u\(t)", tokenDigest: "d\(t)",
                             time: Double(t), points: [UInt8(t)])
            }
            try store.insertRace(Self.race("a", start: 2000))
            #expect(try store.appendRaceEntryAtEnd(entry(1, "nope"), after: 0) == nil)
            #expect(try store.appendRaceEntryAtEnd(entry(1), after: 0) == [entry(1)])
            // Its own seq is ignored: the caller who knew nothing gets the whole log back.
            #expect(try store.appendRaceEntryAtEnd(entry(7, by: 1), after: 0) == [entry(1), entry(2, by: 1)])

            let seen = Observations()
            onThreads(4) { t in
                var known = 2
                for _ in 0..<25 {
                    do {
                        if t % 2 == 0 {
                            guard let appended = try store.appendRaceEntryAtEnd(entry(0, by: t), after: known),
                                  let own = appended.last else {
                                seen.fail("thread \(t): a standing race answered none")
                                return
                            }
                            if appended.map(\.seq) != Array(known + 1...own.seq) { seen.fail("thread \(t): a gap or repeat in \(appended.map(\.seq))") }
                            if own.userID != "u\(t)" { seen.fail("thread \(t): the last entry is not its own") }
                            known = own.seq
                        } else {
                            try store.appendRaceEntry(race: "a", after: known) { tail in
                                if let last = tail.entries.last?.seq { known = last }
                                return entry(known + 1, by: t)
                            }
                            known += 1
                        }
                        seen.add(known)
                    } catch {
                        seen.fail("thread \(t): \(error)")
                        return
                    }
                }
            }
            #expect(seen.failures == [])
            #expect(seen.values.sorted() == Array(3...102))
            let log = try store.raceEntries(race: "a")
            #expect(log.map(\.seq) == Array(1...102))
            #expect(Dictionary(grouping: log.dropFirst(2), by: \.userID).mapValues(\.count) == ["u0": 25, "u1": 25, "u2": 25, "u3": 25])

            try store.cancelRace(id: "a", at: 2100)
            #expect(try store.appendRaceEntryAtEnd(entry(0), after: 102) == nil)
            #expect(try store.raceEntries(race: "a").count == 102)

            // Several tails in one read: each race's own, after its own seq; unknown races absent.
            try store.insertRace(Self.race("b", start: 2000))
            try store.insertRace(Self.race("c", start: 2000))
            for seq in 1...3 { try store.appendRaceEntry(entry(seq, "b")) }
            let tails = try store.raceTails([(race: "a", after: 99), (race: "b", after: 1), (race: "c", after: 0), (race: "nope", after: 0)])
            #expect(Set(tails.keys) == ["a", "b", "c"])
            #expect(tails["a"] == RaceLogTail(cancelled: true, entries: Array(log.suffix(3))))
            #expect(tails["b"] == RaceLogTail(cancelled: false, entries: [entry(2, "b"), entry(3, "b")]))
            #expect(tails["c"] == RaceLogTail(cancelled: false, entries: []))
            #expect(try store.raceTails([]).isEmpty)
        }
    }

    @Test("race creations on two stores of one PostgreSQL (replicas) run one at a time: 8 threads each insert the race named by the count they read, none twice; a body that throws leaves no race")
    func creationsOneAtATime() throws {
        try TestServer.withSchema { uri, _ in
            let a = try PostgresStore(uri: uri), b = try PostgresStore(uri: uri)
            defer { try? a.close(); try? b.close() }
            let seen = Observations()
            let rounds = 5
            onThreads(8) { t in
                let store = t % 2 == 0 ? a : b
                for _ in 0..<rounds {
                    do {
                        // Read, pause, insert: two bodies overlapping would read one count and
                        // insert one id twice (refused as a duplicate).
                        try store.creatingRace {
                            let count = try store.activeRaces(startingFrom: 0).count
                            Thread.sleep(forTimeInterval: 0.002)
                            try store.insertRace(Self.race("r\(count)", start: 2000))
                        }
                        seen.add(t)
                    } catch {
                        seen.fail("thread \(t): \(error)")
                    }
                }
            }
            #expect(seen.failures == [])
            #expect(try a.activeRaces(startingFrom: 0).map(\.id).sorted() == (0..<(8 * rounds)).map { "r\($0)" }.sorted())
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try b.creatingRace {
                    try b.insertRace(Self.race("gone", start: 2000))
                    throw Refused()
                }
            }
            #expect(try a.race(id: "gone") == nil)
        }
    }
}

/// Runners' generations (record 0541): on PostgreSQL a number that moves at every write to a
/// runner's profile, runs or missions and never comes back; SQLite keeps none.
@Suite("Store conformance: generations")
struct GenerationConformanceTests {
    @Test("every write to a runner's rows moves their generation, and only theirs; a runner made again never meets an old one",
          arguments: StoreKind.allCases)
    func generations(kind: StoreKind) throws {
        try withStore(kind) { store in
            guard kind == .postgres else {
                try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC"))
                #expect(try store.generation(user: "ana") == nil)
                return
            }
            #expect(try store.generation(user: "ana") == 0)
            try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC"))
            try store.upsertUser(UserProfile(id: "bo", timeZone: "UTC"))
            var seen: Set<Int64> = []
            func moved(_ user: UserID, _ what: String) throws {
                let g = try #require(try store.generation(user: user))
                #expect(seen.insert(g).inserted, "\(what): generation \(g) came back")
            }
            try moved("ana", "created")
            let bo = try store.generation(user: "bo")
            try store.upsertUser(UserProfile(id: "ana", timeZone: "Europe/Zurich"))
            try moved("ana", "profile")
            _ = try store.insertRun(Sample.run("r1", user: "ana", start: 1000))
            try moved("ana", "run")
            let day = try #require(CivilDate(year: 2026, month: 12, day: 1))
            try store.insertAssignment(Sample.assignment("m1", user: "ana", day: day, offeredAt: 900))
            try moved("ana", "mission")
            #expect(try store.generation(user: "bo") == bo, "another runner's writes leave bo's alone")
            _ = try store.deleteUser(id: "ana")
            #expect(try store.generation(user: "ana") == 0)
            try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC"))
            try moved("ana", "made again")
        }
    }

    @Test("generations(of:) reads what generation(user:) does for every runner, in order, ids told apart by their bytes",
          arguments: StoreKind.allCases)
    func batchedGenerations(kind: StoreKind) throws {
        try withStore(kind) { store in
            // "jos\u{E9}" and "jose\u{301}" are one String to Swift and two runners to a store.
            let ids = ["ana", "jos\u{E9}", "jose\u{301}", "🏃 \"q\"", "bo"]
            for id in ids.dropLast() { try store.upsertUser(UserProfile(id: id, timeZone: "UTC")) }
            _ = try store.insertRun(Sample.run("r1", user: "jose\u{301}", start: 1000))
            guard kind == .postgres else {
                #expect(try store.generations(of: ids) == nil)
                return
            }
            #expect(try store.generations(of: []) == [])
            let asked = ids + ["ana", "nobody"]  // a repeat, and a runner never written
            let expected = try asked.map { try #require(try store.generation(user: $0)) }
            #expect(try store.generations(of: asked) == expected)
            #expect(expected[1] != expected[2], "the two spellings of josé share a generation")
            #expect(expected.last == 0)
            #expect(throws: (any Error).self) { try store.generations(of: ["ana", "a\u{0}b"]) }
        }
    }
}
