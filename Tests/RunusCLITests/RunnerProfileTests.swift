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
