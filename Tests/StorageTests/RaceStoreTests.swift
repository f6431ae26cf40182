import Testing
import RunusCore
@testable import Storage

/// `SQLiteStore` as a `RaceStore` (record 0526): what goes in comes out, ids are never reused,
/// the log is append-only, and a runner's deletion takes their race rows with it.
@Suite("SQLite race store")
struct RaceStoreTests {
    static func race(_ id: String, start: EpochSeconds, by host: UserID = "ana", invite: String? = nil) -> StoredRace {
        StoredRace(id: id, name: "name of \(id)", distance: 5000, startTime: start, capacity: 20, isPublic: invite == nil,
                   createdBy: host, inviteDigest: invite.map(SHA256.hex), createdAt: start - 600)
    }

    @Test("races, their log and results round-trip; a duplicate id or seq is refused; cancelled races are not active")
    func roundTrip() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
            let a = Self.race("a", start: 2000), b = Self.race("b", start: 1000, invite: "secret"), c = Self.race("c", start: 3000)
            for r in [a, b, c] { try store.insertRace(r) }
            #expect(throws: StorageError.self) { try store.insertRace(Self.race("a", start: 5)) }
            try store.cancelRace(id: "c", at: 2500)
            #expect(try store.activeRaces(startingFrom: 0) == [b, a])
            #expect(try store.activeRaces(startingFrom: 1500) == [a])

            let entries = [
                RaceLogEntry(raceID: "a", seq: 1, kind: .join, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 1900, points: nil),
                RaceLogEntry(raceID: "a", seq: 2, kind: .position, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 2010,
                             points: [1, 0, 0]),
                RaceLogEntry(raceID: "a", seq: 3, kind: .leave, userID: "ana", tokenDigest: SHA256.hex("t1"), time: 2020, points: nil),
            ]
            for e in entries.reversed() { try store.appendRaceEntry(e) }
            // Appends commit with synchronous=NORMAL and put FULL back for every other write.
            let sync = try store.connection.withStatement("PRAGMA synchronous") { s -> Int in _ = try s.step(); return s.int(at: 0) }
            #expect(sync == 2, "synchronous must be FULL (2) again after a race append, got \(sync)")
            #expect(try store.raceEntries(race: "a") == entries)
            #expect(throws: StorageError.self) { try store.appendRaceEntry(entries[0]) }
            #expect(try store.races(user: "ana") == [a])

            let results = [
                StoredRaceResult(raceID: "a", rank: 1, userID: "bo", status: "finished", distance: 5000, finishTime: 1500.25,
                                 pace: 300.05, gap: 0, timeGap: 0, xp: 200, badges: ["race_win_1", "race_podium"], finishedAt: 4000),
                StoredRaceResult(raceID: "a", rank: 2, userID: "ana", status: "left", distance: 40, finishTime: nil, pace: nil,
                                 gap: 4960, timeGap: nil, xp: 0, badges: [], finishedAt: 4000),
            ]
            try store.insertRaceResults(results.reversed())
            #expect(try store.raceResults(race: "a") == results)
            #expect(throws: StorageError.self) { try store.insertRaceResults([results[0]]) }
            #expect(try store.raceResults(race: "b").isEmpty)
        }
    }

    @Test("users.delete removes a runner's race log and results and their name as host; the race stays for the others")
    func deletion() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
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
}
