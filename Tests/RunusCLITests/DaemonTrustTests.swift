import Testing
import Foundation
import RunusCore
import Server
@testable import Service
@testable import ModelStore
@testable import RunusCLI

/// Issue 22 (found 2026-12-01), over a real socket: runners' records never collide, one run
/// uploaded from two devices counts once, and a model reload does not offer a second set.
@Suite("daemon trust: identities, duplicates, fixed missions", .serialized)
struct DaemonTrustTests {
    /// 2027-01-15 08:00 UTC, the daemon's clock.
    static let now: EpochSeconds = 1_800_000_000

    /// A run north from `latitude` at `speed` m/s, a fix every 2 s for `seconds`.
    static func run(start: EpochSeconds, seconds: Int, speed: Double = 3, latitude: Double = 37.5) -> JSONValue {
        .array(stride(from: 0, through: seconds, by: 2).map { i in
            [.number(start + Double(i)), .number(latitude + Double(i) * speed / 111_200), .number(127.0)]
        })
    }

    @Test("user 'bob:2026' run '12-01' and user 'bob' run '2026:12-01' are two runs with their own answers (record 0405)")
    func separatorsInIDs() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        for user in ["bob", "bob:2026"] {
            #expect(try client.call(["op": "users.upsert", "user": .string(user), "time_zone": "UTC", "weight_kg": 70])["ok"] == true)
        }
        let first = try client.call(["op": "runs.ingest", "user": "bob", "run_id": "2026:12-01",
                                     "points": Self.run(start: Self.now - 7200, seconds: 1800)])
        let second = try client.call(["op": "runs.ingest", "user": "bob:2026", "run_id": "12-01",
                                      "points": Self.run(start: Self.now - 4000, seconds: 900, speed: 2.5)])
        let d1 = try #require(first["result"]?["run"]?["distance_m"]?.doubleValue)
        let d2 = try #require(second["result"]?["run"]?["distance_m"]?.doubleValue, "\(JSONWriter.string(second).prefix(300))")
        #expect(abs(d1 - 5400) < 100 && abs(d2 - 2250) < 100, "each runner is answered with their own run")
        for (user, id, distance) in [("bob", "2026:12-01", d1), ("bob:2026", "12-01", d2)] {
            let got = try client.call(["op": "runs.get", "user": .string(user), "run_id": .string(id)])
            #expect(got["result"]?["run"]?["distance_m"]?.doubleValue == distance)
            let progress = try client.call(["op": "progress", "user": .string(user)])
            #expect((progress["result"]?["xp"]?.doubleValue ?? 0) > 0, "\(user) was rewarded for their own run")
        }
        #expect(try client.call(["op": "runs.get", "user": "bob", "run_id": "12-01"]).errorCode == "not_found")
    }

    @Test("the same run from a second device under a new id is answered duplicate_of and rewarded once (record 0231)")
    func duplicateUnderNewID() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let phone = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "phone-7",
                                     "points": Self.run(start: Self.now - 5000, seconds: 2400)])
        let xpAfterPhone = try #require(phone["result"]?["xp"]?["total"]?.doubleValue)
        #expect(phone["result"]?["rewarded"] == true && phone["result"]?["duplicate_of"] == .null)
        // The watch started 4 s later, stopped 6 s earlier, sampled a little differently.
        let watch = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "watch-7",
                                     "points": Self.run(start: Self.now - 4996, seconds: 2390, speed: 3.02, latitude: 37.50002)])
        #expect(watch["ok"] == true)
        #expect(watch["result"]?["duplicate_of"] == "phone-7", "\(JSONWriter.string(watch).prefix(400))")
        #expect(watch["result"]?["rewarded"] == false && watch["result"]?["xp"]?["awarded"] == 0)
        #expect(watch["result"]?["xp"]?["total"]?.doubleValue == xpAfterPhone)
        // Sending the watch's upload again repeats the answer; the history has the run once.
        #expect(try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "watch-7",
                                 "points": Self.run(start: Self.now - 4996, seconds: 2390, speed: 3.02, latitude: 37.50002)]) == watch)
        let history = try client.call(["op": "history", "user": "runner-0001", "from": "2027-01-15", "to": "2027-01-15"])
        #expect(history["result"]?["runs"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["phone-7"])
        // A later run of the same day is not a duplicate.
        let evening = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "evening",
                                       "points": Self.run(start: Self.now - 2500, seconds: 1200)])
        #expect(evening["result"]?["rewarded"] == true && evening["result"]?["duplicate_of"] == .null)
    }

    @Test("a model reload leaves the day's missions as offered; a run completes them once (record 0524)")
    func reloadKeepsTheDay() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let before = try #require(try client.call(["op": "missions.today", "user": "runner-0001"])["result"])
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "test-2"), card: "", to: daemon.dir.file("model"))
        #expect(try client.call(["op": "model.reload"])["result"]?["model_version"] == "test-2")
        let after = try #require(try client.call(["op": "missions.today", "user": "runner-0001"])["result"])
        #expect(after["model_version"] == "test-2")
        #expect(after["missions"] == before["missions"], "the same missions, ids, probabilities and XP after the reload")
        let offers = try daemon.store.assignments(user: "runner-0001", day: try #require(CivilDate(iso: "2027-01-15")))
        #expect(offers.count == before["missions"]?.arrayValue?.count)
        // A long fast run: whatever it completes, it completes from one set.
        let ingest = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "long",
                                      "points": Self.run(start: Self.now - 8000, seconds: 5000, speed: 3.6)])
        let checked = try #require(ingest["result"]?["missions"]?.arrayValue)
        #expect(checked.count == offers.count)
    }

    @Test("race ids are random; a private race is reached only with its invite; races list in pages (record 0525)")
    func raceAccess() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let start = Self.now + 600
        func create(_ extra: [String: JSONValue] = [:]) throws -> JSONValue {
            let request: [String: JSONValue] = ["op": "race.create", "user": "runner-0001", "name": "5K", "distance_m": 5000,
                                                "start_time": .number(start)]
            return try client.call(.object(request.merging(extra) { $1 }))
        }
        let a = try create(), b = try create()
        let ids = [a, b].compactMap { $0["result"]?["race_id"]?.stringValue }
        #expect(ids.count == 2 && ids[0] != ids[1])
        #expect(ids.allSatisfy { $0.hasPrefix("race-") && $0.dropFirst(5).count == 32 && $0.dropFirst(5).allSatisfy(\.isHexDigit) })
        let hidden = try create(["public": false])
        let race = try #require(hidden["result"]?["race_id"]?.stringValue)
        let invite = try #require(hidden["result"]?["invite"]?.stringValue)
        #expect(a["result"]?["invite"] == nil)
        for op in ["race.watch", "race.join", "race.results"] {
            var request: [String: JSONValue] = ["op": .string(op), "race_id": .string(race)]
            if op == "race.join" { request["user"] = "runner-0001" }  // the only one of the three that takes a user (record 0560)
            #expect(try client.call(.object(request)).errorCode == "not_found", "\(op) without the invite")
            request["invite"] = "0123456789abcdef0123456789abcdef"
            #expect(try client.call(.object(request)).errorCode == "not_found", "\(op) with a wrong invite")
        }
        // A watcher gets pushed lines: it has a connection of its own.
        let watcher = try daemon.client()
        #expect(try watcher.call(["op": "race.watch", "race_id": .string(race), "invite": .string(invite)])["ok"] == true)
        let joined = try client.call(["op": "race.join", "race_id": .string(race), "user": "runner-0001", "invite": .string(invite)])
        #expect(joined["ok"] == true)
        // The creator's cap: 10 open races.
        var refused: JSONValue = .null
        for _ in 0..<10 { refused = try create() }
        #expect(refused.errorCode == "bad_request" && refused["error"]?["message"]?.stringValue?.contains("10 races") == true,
                "\(JSONWriter.string(refused))")
        // Pages: the two public races one at a time; the private one is never listed.
        let first = try client.call(["op": "race.list", "limit": 1])
        #expect(first["ok"] == true)
        let cursor = try #require(first["result"]?["next_cursor"]?.stringValue)
        var listed = first["result"]?["races"]?.arrayValue ?? []
        var next: JSONValue = .string(cursor)
        while case .string = next {
            let page = try client.call(["op": "race.list", "limit": 1, "cursor": next])
            listed += page["result"]?["races"]?.arrayValue ?? []
            next = page["result"]?["next_cursor"] ?? .null
        }
        let listedIDs = listed.compactMap { $0["race_id"]?.stringValue }
        #expect(listedIDs.count == 9 && Set(listedIDs).count == 9 && !listedIDs.contains(race))
        #expect(try client.call(["op": "race.list", "cursor": "not-a-cursor"]).errorCode == "bad_request")
        #expect(try client.call(["op": "race.list", "limit": 201]).errorCode == "bad_request")
    }

    @Test("a race position timed ahead of the server clock is refused (found 2026-12-01: 5 km in 81 s)")
    func futurePositions() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let created = try client.call(["op": "race.create", "user": "runner-0001", "name": "now", "distance_m": 5000,
                                       "start_time": .number(Self.now)])
        let race = try #require(created["result"]?["race_id"]?.stringValue)
        let joined = try client.call(["op": "race.join", "race_id": .string(race), "user": "runner-0001"])
        let token = try #require(joined["result"]?["participant_token"]?.stringValue, "\(JSONWriter.string(joined))")
        // 90 points a minute apart, 5.3 km in all, sent at the start.
        let points: JSONValue = .array((0..<90).map { i in
            [.number(Self.now + Double(i) * 60), .number(37.5 + Double(i) * 60 / 111_200), .number(127.0)]
        })
        let answer = try client.call(["op": "race.position", "race_id": .string(race), "participant_token": .string(token),
                                      "points": points])
        #expect(answer.errorCode == "bad_request")
        #expect(answer["error"]?["message"]?.stringValue?.contains("ahead of the server clock") == true, "\(JSONWriter.string(answer))")
    }

    @Test("reads pipelined behind runs.ingest on one connection see the run (found 2026-12-01 by the fuzzer, record 0532)")
    func pipelinedReadAfterWrite() throws {
        let daemon = try ProductionDaemon(configure: { $0.offloadedOperations = ["runs.ingest", "runs.get", "model.reload"] })
        defer { daemon.stop() }
        let client = try daemon.client()
        for i in 0..<5 {
            let id = JSONValue.string("p-\(i)")
            try client.send(["op": "runs.ingest", "user": "runner-0001", "run_id": id,
                             "points": Self.run(start: Self.now - 80_000 + Double(i) * 7200, seconds: 1200)])
            try client.send(["op": "runs.get", "user": "runner-0001", "run_id": id])
            try client.send(["op": "progress", "user": "runner-0001"])
        }
        var xp = 0.0
        for i in 0..<5 {
            let ingest = try client.readAnswer()
            #expect(ingest["ok"] == true, "\(JSONWriter.string(ingest).prefix(200))")
            #expect(try client.readAnswer()["ok"] == true, "runs.get of p-\(i) ran before its ingest")
            let total = try #require(try client.readAnswer()["result"]?["xp"]?.doubleValue)
            #expect(total > xp, "progress after p-\(i) misses its XP")
            xp = total
        }
    }
}
