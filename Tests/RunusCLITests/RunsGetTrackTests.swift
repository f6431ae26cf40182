import Foundation
import RunusCore
import Server
import Testing
@testable import RunusCLI

/// Issue 53, item 5: `runs.get` can return the run's fixes (`track: true`).
@Suite("runs.get with the track (issue 53)", .serialized)
struct RunsGetTrackTests {
    @Test("track: true answers the fixes as runs.ingest took them; without it, none; a summary run's points are null")
    func track() throws {
        let clock = ManualClock(1_800_000_000)
        let harness = try ProductionDaemon(clock: clock)
        defer { harness.stop() }
        let client = try harness.client()
        #expect(try client.call(["op": "users.upsert", "user": "ana", "time_zone": "UTC"])["ok"] == true)
        let start = 1_800_000_000 - 3600.0
        let points: [JSONValue] = (0..<120).map { k in
            [.number(start + Double(k)), .number(45 + Double(k) * 2.7e-5), .number(6), .number(200 + Double(k % 5))]
        }
        #expect(try client.call(["op": "runs.ingest", "user": "ana", "run_id": "r1", "points": .array(points)])["ok"] == true)
        let summary: JSONValue = ["start_time": .number(start - 86_400), "distance_m": 5000, "duration_s": 1500]
        #expect(try client.call(["op": "runs.ingest", "user": "ana", "run_id": "s1", "summary": summary])["ok"] == true)

        let with = try client.call(["op": "runs.get", "user": "ana", "run_id": "r1", "track": true])
        let got = try #require(with["result"]?["run"]?["points"]?.arrayValue, "\(with)")
        #expect(got.count == points.count)
        #expect(got.first == points.first && got.last?.arrayValue?.first == points.last?.arrayValue?.first)
        let without = try client.call(["op": "runs.get", "user": "ana", "run_id": "r1"])
        #expect(without["result"]?["run"]?["points"] == Optional<JSONValue>.none && without["result"]?["run"]?["has_track"] == true)
        let indoor = try client.call(["op": "runs.get", "user": "ana", "run_id": "s1", "track": true])
        #expect(indoor["result"]?["run"]?["points"] == .null && indoor["result"]?["run"]?["has_track"] == false, "\(indoor)")
        #expect(try client.call(["op": "runs.get", "user": "ana", "run_id": "r1", "track": "yes"]).errorCode == "bad_request")
    }
}
