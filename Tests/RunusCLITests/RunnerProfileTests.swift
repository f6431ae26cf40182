import Testing
import Foundation
import RunusCore
import Server
@testable import Service
@testable import RunusCLI

/// Issue 24, item 1, over a real socket: users.upsert merges, users.get reads, users.delete
/// removes every record in one transaction, users.export answers all of it.
@Suite("runner profiles: merge, get, delete, export", .serialized)
struct RunnerProfileTests {
    @Test("a field left out keeps its value and null clears it (found 2026-12-01: a time-zone-only upsert wiped the weight)")
    func mergeUpdate() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        #expect(try client.call(["op": "users.upsert", "user": "ana"])["error"]?["message"]?.stringValue?.contains("time_zone") == true)
        let created = try client.call(["op": "users.upsert", "user": "ana", "time_zone": "Europe/Paris", "weight_kg": 58,
                                       "birth_year": 1990, "sex": "f", "display_name": "Ana R."])
        #expect(created["result"]?["created"] == true)
        let moved = try client.call(["op": "users.upsert", "user": "ana", "time_zone": "Asia/Tokyo"])
        #expect(moved["result"]?["created"] == false)
        let profile = try #require(try client.call(["op": "users.get", "user": "ana"])["result"]?["profile"])
        #expect(profile == ["birth_year": 1990, "sex": "f", "height_cm": nil, "weight_kg": 58, "time_zone": "Asia/Tokyo",
                            "display_name": "Ana R."])
        _ = try client.call(["op": "users.upsert", "user": "ana", "weight_kg": nil, "display_name": nil])
        let cleared = try #require(try client.call(["op": "users.get", "user": "ana"])["result"]?["profile"])
        #expect(cleared["weight_kg"] == .null && cleared["display_name"] == .null && cleared["birth_year"] == 1990)
        for bad: JSONValue in [["op": "users.upsert", "user": "ana", "time_zone": nil],
                               ["op": "users.upsert", "user": "ana", "weight_kg": 5],
                               ["op": "users.upsert", "user": "ana", "sex": "q"],
                               ["op": "users.upsert", "user": "ana", "display_name": ""]] {
            #expect(try client.call(bad).errorCode == "bad_request", "\(JSONWriter.string(bad))")
        }
        #expect(try client.call(["op": "users.get", "user": "nobody"]).errorCode == "not_found")
    }

    @Test("users.export answers everything kept; users.delete removes all of it and nothing of another runner")
    func exportAndDelete() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let now: EpochSeconds = 1_800_000_000
        let points: JSONValue = .array(stride(from: 0, through: 1800, by: 2).map { i in
            [.number(now - 4000 + Double(i)), .number(37.5 + Double(i) * 3 / 111_200), .number(127.0), .number(40)]
        })
        #expect(try client.call(["op": "missions.today", "user": "runner-0001"])["ok"] == true)
        #expect(try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "w", "points": points])["ok"] == true)
        _ = try client.call(["op": "users.upsert", "user": "other", "time_zone": "UTC"])
        #expect(try client.call(["op": "runs.ingest", "user": "other", "run_id": "w", "points": points])["ok"] == true)

        let export = try #require(try client.call(["op": "users.export", "user": "runner-0001", "tracks": true])["result"])
        let runs = try #require(export["runs"]?.arrayValue)
        #expect(runs.count == 13)  // twelve summaries and the ingested run
        let ingested = try #require(runs.first { $0["id"] == "w" })
        #expect(ingested["points"]?.arrayValue?.count == 901 && ingested["points"]?.arrayValue?.first?.arrayValue?.count == 4)
        #expect((export["missions"]?.arrayValue?.count ?? 0) >= 3)
        #expect((export["rewards"]?.arrayValue?.count ?? 0) >= 1 && (export["badges"]?.arrayValue?.count ?? 0) >= 1)

        #expect(try client.call(["op": "users.delete", "user": "runner-0001"])["result"]?["deleted"] == true)
        for op in ["users.get", "users.export", "progress", "missions.today", "users.delete"] {
            #expect(try client.call(["op": .string(op), "user": "runner-0001"]).errorCode == "not_found", "\(op)")
        }
        for table in ["runs", "mission_assignments", "rewards", "badges", "ingest_answers"] {
            let left = try daemon.store.connection.withStatement("SELECT COUNT(*) FROM \(table) WHERE user_id = ?") { s in
                try s.bind("runner-0001", at: 1)
                _ = try s.step()
                return s.int(at: 0)
            }
            #expect(left == 0, "\(table) keeps \(left) rows of the deleted runner")
        }
        #expect(try client.call(["op": "runs.get", "user": "other", "run_id": "w"])["ok"] == true)
        // The id can be used again from scratch.
        #expect(try client.call(["op": "users.upsert", "user": "runner-0001", "time_zone": "UTC"])["result"]?["created"] == true)
    }
}

/// Issue 24, item 8: a bad_request about one parameter names it, and the element of a list.
@Suite("errors a form can use", .serialized)
struct ErrorFieldTests {
    static let now: EpochSeconds = 1_800_000_000

    @Test("error.field and error.index name the parameter and the element", arguments: [
        (#"{"op":"users.upsert","user":"a","time_zone":"Mars/Olympus"}"#, "time_zone", nil as Int?),
        (#"{"op":"users.upsert","user":"a","time_zone":"UTC","weight_kg":5}"#, "weight_kg", nil),
        (#"{"op":"missions.today","user":"runner-0001","k":99}"#, "k", nil),
        (#"{"op":"missions.today","user":"runner-0001","date":"2020-01-01"}"#, "date", nil),
        (#"{"op":"missions.today"}"#, "user", nil),
        (#"{"op":"missions.score","user":"runner-0001","specs":[{"kind":"distance","distance_m":5000},{"kind":"nope"}]}"#, "specs", 1),
        (#"{"op":"runs.ingest","user":"runner-0001","run_id":"x","points":[[1799990000,37.5,127],[1799990060,91,127]]}"#, "points", 1),
        (#"{"op":"runs.ingest","user":"runner-0001","run_id":"x","points":[[1799990000,37.5,127],[1799990060,37.6,127],[1799990030,37.7,127]]}"#, "points", 2),
        (#"{"op":"runs.ingest","user":"runner-0001","run_id":"","points":[]}"#, "run_id", nil),
        (#"{"op":"history","user":"runner-0001","from":"2027-01-01","to":"2027-01-31","bucket":"year"}"#, "bucket", nil),
        (#"{"op":"race.list","limit":0}"#, "limit", nil),
        (#"{"op":"race.create","user":"runner-0001","name":"x","distance_m":5,"start_time":1800000600}"#, "distance_m", nil),
    ])
    func fields(line: String, field: String, index: Int?) throws {
        let daemon = try ProductionDaemon("fields\(abs(line.hashValue) % 1000)")
        defer { daemon.stop() }
        let client = try daemon.client()
        try client.send(line: line)
        let answer = try client.readAnswer()
        #expect(answer.errorCode == "bad_request", "\(JSONWriter.string(answer))")
        #expect(answer["error"]?["field"] == .string(field), "\(JSONWriter.string(answer))")
        #expect(answer["error"]?["index"] == index.map { .number(Double($0)) }, "\(JSONWriter.string(answer))")
    }

    @Test("an unknown user is not_found with field user; an error about no one parameter has no field")
    func notFoundAndEnvelope() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        #expect(try client.call(["op": "progress", "user": "ghost"])["error"]?["field"] == "user")
        let noOp = try client.call(["id": 1])
        #expect(noOp.errorCode == "bad_request" && noOp["error"]?["field"] == nil)
    }
}
