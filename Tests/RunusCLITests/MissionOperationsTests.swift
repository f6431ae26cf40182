import Testing
import Foundation
import RunusCore
import Tracking
import Missions
import Server
@testable import Service
@testable import RunusCLI

/// `missions.evaluate`, `missions.progress` and `missions.score` over a real socket (records
/// 0321–0323), on the production wiring of `ProductionDaemon` (runner-0001, Asia/Seoul, clock
/// 2027-01-15 17:00 local).
@Suite("mission operations", .serialized)
struct MissionOperationsTests {
    /// `[t, lat, lon]` points of straight legs at constant pace, 1 Hz, from `start`.
    static func points(_ legs: [(Meters, SecondsPerKm)], start: EpochSeconds) -> JSONValue {
        var lat = 37.5665, lon = 126.978, t = start
        var out: [JSONValue] = [[.number(t), .number(lat), .number(lon)]]
        for (distance, pace) in legs {
            let speed = 1000 / pace
            var covered = 0.0
            while covered < distance - 1e-9 {
                let step = min(speed, distance - covered)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: 10, distance: step)
                lat = p.latitude; lon = p.longitude; t += step / speed; covered += step
                out.append([.number(t), .number(lat), .number(lon)])
            }
        }
        return .array(out)
    }

    /// 2027-01-15 16:00 in Seoul (the daemon's clock is 17:00).
    static let runStart: EpochSeconds = 1_800_000_000 - 3600

    /// One daemon for the three operations (starting one takes seconds in a debug build); each
    /// part uses its own requests, `progress` last because it stores a run.
    @Test("missions.evaluate, missions.score and missions.progress on one daemon")
    func operations() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        try evaluate(client)
        try score(client)
        try progress(client)
    }

    /// missions.evaluate: the verdict of the offline check, with count and evidence; bad specs are named.
    func evaluate(_ client: LineClient) throws {
        var legs: [(Meters, SecondsPerKm)] = [(1000, 360)]
        for _ in 0..<3 { legs += [(400, 265), (200, 420)] }
        let points = Self.points(legs, start: Self.runStart)
        let spec: JSONValue = ["kind": "intervals", "reps": 5, "rep_distance_m": 400, "max_pace_s_per_km": 270, "max_recovery_s": 120]
        let answer = try client.call(["op": "missions.evaluate", "spec": spec, "points": points])
        let result = try #require(answer["result"], "\(JSONWriter.string(answer))")
        // The oracle: the same check run here on the same track.
        let track = try WireTrack.track(from: points, op: "test")
        let expected = MissionEvaluator.evaluate(try MissionSpec(json: spec), track: track)
        #expect(result["status"] == .string(expected.status.rawValue))
        #expect(result["count"] == ["done": 3, "target": 5, "unit": "reps"])
        #expect(result["evidence"] == .array(expected.evidence.map { .string($0) }))
        #expect(result["title"] == "5 × 400 m at 4:30/km or faster, rests up to 2:00")
        // A kind that needs history is not applicable without it; the offset makes early bird decidable.
        let streak = try client.call(["op": "missions.evaluate", "spec": ["kind": "streak", "days": 2], "points": points])
        #expect(streak["result"]?["status"] == "not_applicable")
        let early: JSONValue = ["kind": "early_bird", "start_before_min": 1020, "min_distance_m": 1000]
        #expect(try client.call(["op": "missions.evaluate", "spec": early, "points": points])["result"]?["status"] == "not_applicable")
        let withOffset = try client.call(["op": "missions.evaluate", "spec": early, "points": points, "utc_offset_s": 32_400])
        #expect(withOffset["result"]?["status"] == "completed")   // 16:00 local, before 17:00
        let bad = try client.call(["op": "missions.evaluate", "spec": ["kind": "distance", "distance_m": 1e9], "points": points])
        #expect(bad.errorCode == "bad_request")
        #expect(bad["error"]?["message"]?.stringValue?.contains("\"distance_m\" = 1000000000.0 is outside") == true)
        let unknown = try client.call(["op": "missions.evaluate", "spec": ["kind": "swim"], "points": points])
        #expect(unknown["error"]?["message"]?.stringValue?.contains("unknown kind \"swim\"") == true)
    }

    /// missions.score: the probabilities missions.today offered, through the same features; a
    /// streak is scored by the schedule, and one it cannot be offered as gets a reason.
    func score(_ client: LineClient) throws {
        let today = try #require(try client.call(["op": "missions.today", "user": "runner-0001", "k": 5])["result"])
        let offered = try #require(today["missions"]?.arrayValue)
        let specs = offered.compactMap { $0["spec"] } + [["kind": "streak", "days": 3]]
        let answer = try client.call(["op": "missions.score", "user": "runner-0001", "specs": .array(specs)])
        let scored = try #require(answer["result"]?["missions"]?.arrayValue, "\(JSONWriter.string(answer))")
        #expect(scored.count == specs.count)
        #expect(answer["result"]?["model_version"] == today["model_version"])
        for (mission, score) in zip(offered, scored) {
            #expect(score["p_complete"] == mission["p_complete"] && score["xp"] == mission["xp"] && score["reason"] == .null)
        }
        let loop = try #require(scored.last)
        // A streak is scored as missions.today offers it, by the runner's schedule (record 0650).
        let streakP = try #require(loop["p_complete"]?.doubleValue, "\(JSONWriter.string(loop))")
        #expect((0...1).contains(streakP) && loop["xp"]?.intValue != nil && loop["reason"] == .null)
        let tooLong = try client.call(["op": "missions.score", "user": "runner-0001", "specs": [["kind": "streak", "days": 20]]])
        #expect(tooLong["result"]?["missions"]?[0]?["reason"] == "a streak is offered for 2 to 14 days, not 20")
        let bad = try client.call(["op": "missions.score", "user": "runner-0001",
                                   "specs": [["kind": "distance", "distance_m": 5000], ["kind": "pace"]]])
        #expect(bad.errorCode == "bad_request")
        #expect(bad["error"]?["message"]?.stringValue?.contains("specs[1]") == true)
        #expect(try client.call(["op": "missions.score", "user": "nobody", "specs": specs[0..<1].map { $0 }.json]).errorCode == "not_found")
        #expect(try client.call(["op": "missions.score", "user": "runner-0001", "specs": []]).errorCode == "bad_request")
    }

    /// missions.progress: live on the partial track, then on the day's stored runs; nothing is
    /// stored. Runs after `score`, which asked for the day's missions (k = 5).
    func progress(_ client: LineClient) throws {
        let empty = try client.call(["op": "missions.progress", "user": "runner-0001", "date": "2027-01-14"])
        #expect(empty["result"]?["missions"] == [])
        let before = try #require(try client.call(["op": "missions.progress", "user": "runner-0001"])["result"]?["missions"]?.arrayValue)
        #expect(before.count >= 5 && before.allSatisfy { $0["verdict"] == "not_started" && $0["source"] == "none" })
        // Half of a run: every mission is checked on it, as the offline check would.
        let points = Self.points([(1500, 330)], start: Self.runStart)
        let track = try WireTrack.track(from: points, op: "test")
        let live = try #require(try client.call(["op": "missions.progress", "user": "runner-0001", "points": points])["result"]?["missions"]?.arrayValue)
        for m in live {
            let spec = try MissionSpec(json: try #require(m["spec"]))
            let expected = MissionEvaluator.evaluate(spec, track: track, context: MissionContext(utcOffset: 9 * 3600))
            #expect(m["source"] == "track" && m["verdict"] == .string(expected.status.rawValue))
            #expect(m["evidence"] == .array(expected.evidence.map { .string($0) }), "\(spec.canonicalJSON)")
        }
        #expect(try client.call(["op": "missions.progress", "user": "runner-0001"])["result"]?["missions"]?.arrayValue?
            .allSatisfy { $0["source"] == "none" } == true)
        // After the run is stored, progress without points comes from the day's runs and agrees
        // with what runs.ingest reported.
        let ingest = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "half", "points": points])
        let ingested = try #require(ingest["result"]?["missions"]?.arrayValue, "\(JSONWriter.string(ingest))")
        let after = try #require(try client.call(["op": "missions.progress", "user": "runner-0001"])["result"]?["missions"]?.arrayValue)
        for m in after {
            let stored = try #require(ingested.first { $0["id"] == m["id"] })
            if m["status"] == "completed" {
                #expect(m["source"] == "stored" && m["progress"] == 1)
            } else {
                #expect(m["source"] == "runs_today")
                #expect(abs((m["progress"]?.doubleValue ?? -1) - (stored["progress"]?.doubleValue ?? -2)) < 1e-3)
            }
        }
        #expect(try client.call(["op": "missions.progress", "user": "nobody"]).errorCode == "not_found")
        #expect(try client.call(["op": "missions.progress", "user": "runner-0001", "points": [[1, 2]]]).errorCode == "bad_request")
    }
}

extension Array where Element == JSONValue {
    var json: JSONValue { .array(self) }
}
