import Foundation
import RunusCore
import Server
import Testing
import Tracking
@testable import Service
@testable import RunusCLI

/// Record 0553 (issue 55, found 2026-12-07): a runner deleted mid-race stayed in the race: their
/// positions were still accepted and stored under the deleted id, their name stayed in the
/// results, and an account re-created with the same id inherited the result, its XP and badge.
@Suite("a deleted runner leaves their races (record 0553)", .serialized)
struct DeletedRunnerRaceTests {
    static let start: EpochSeconds = 1_800_000_600

    /// Points one second apart due north from (45, 6) at `speed` m/s, seconds `from...to` of the race.
    static func points(from: Int, to: Int, speed: Double, lane: Double) -> JSONValue {
        .array((from...to).map { s in
            let p = Geodesy.destination(latitude: 45, longitude: 6 + lane, bearing: 0, distance: speed * Double(s))
            return [.number(start + Double(s)), .number(p.latitude), .number(p.longitude)]
        })
    }

    @Test("deleted mid-race: positions refused, out of the ranking and results, and a re-created account inherits nothing")
    func deletedMidRace() throws {
        let clock = ManualClock(Self.start - 60)
        let harness = try ProductionDaemon(clock: clock)
        defer { harness.stop() }
        let client = try harness.client()
        for (user, name) in [("ana", "Ana K."), ("bo", "Bo the Fast")] {
            let upserted = try client.call(["op": "users.upsert", "user": .string(user), "time_zone": "UTC", "display_name": .string(name)])
            #expect(upserted["ok"] == true, "\(upserted)")
        }
        let created = try client.call(["op": "race.create", "user": "ana", "name": "1K", "distance_m": 1000,
                                       "start_time": .number(Self.start)])
        let race = try #require(created["result"]?["race_id"]?.stringValue, "\(created)")
        var tokens: [String: String] = [:]
        for user in ["ana", "bo"] {
            let joined = try client.call(["op": "race.join", "race_id": .string(race), "user": .string(user)])
            tokens[user] = try #require(joined["result"]?["participant_token"]?.stringValue, "\(joined)")
        }
        func position(_ user: String, _ from: Int, _ to: Int, speed: Double) throws -> JSONValue {
            try client.call(["op": "race.position", "race_id": .string(race), "participant_token": .string(tokens[user] ?? ""),
                             "points": Self.points(from: from, to: to, speed: speed, lane: user == "ana" ? 0 : 0.001)])
        }
        clock.set(Self.start + 60)
        harness.daemon.races.tick()
        #expect(try position("ana", 0, 60, speed: 3)["ok"] == true)
        #expect(try position("bo", 0, 60, speed: 5)["ok"] == true)
        // The watch answer's ranking is the live state (a fresh connection each time: a watcher
        // also gets pushed lines).
        func ranking() throws -> JSONValue {
            try harness.client().call(["op": "race.watch", "race_id": .string(race)])
        }
        let before = try ranking()
        #expect(before["result"]?["ranking"]?.arrayValue?.first?["user"] == "bo", "\(before)")

        #expect(try client.call(["op": "users.delete", "user": "bo"])["result"]?["deleted"] == true)
        // Re-created at once, with the same id: a new runner.
        #expect(try client.call(["op": "users.upsert", "user": "bo", "time_zone": "UTC"])["ok"] == true)
        let refused = try position("bo", 61, 150, speed: 5)
        #expect(refused["ok"] == false, "a deleted runner's token still raced: \(refused)")
        let during = try ranking()
        let names = during["result"]?["ranking"]?.arrayValue?.compactMap { $0["user"]?.stringValue } ?? []
        #expect(names == ["ana"], "\(during)")
        #expect(!JSONWriter.string(during).contains("Bo the Fast"))

        // Ana finishes; the race ends with her alone.
        clock.set(Self.start + 400)
        #expect(try position("ana", 61, 400, speed: 3)["ok"] == true)
        harness.daemon.races.tick()
        let results = try client.call(["op": "race.results", "race_id": .string(race)])
        #expect(results["result"]?["ranking"]?.arrayValue?.map { $0["user"] } == ["ana"], "\(results)")
        #expect(results["result"]?["awards"]?.arrayValue?.map { $0["user"] } == ["ana"], "\(results)")
        let progress = try client.call(["op": "progress", "user": "bo"])
        #expect(progress["result"]?["xp"] == 0 && progress["result"]?["badges"] == [], "\(progress)")
        let export = try client.call(["op": "users.export", "user": "bo"])
        #expect(export["result"]?["races"] == [] && export["result"]?["runs"] == [] && export["result"]?["rewards"] == [], "\(export)")
        // Nothing of the deleted runner's is in the race's log or results on the store.
        let entries = try harness.store.raceEntries(race: race)
        #expect(!entries.contains { $0.userID == "bo" }, "\(entries.filter { $0.userID == "bo" }.count) entries of bo")
        #expect(try harness.store.raceResults(race: race).map(\.userID) == ["ana"])
    }
}
