import Testing
import Foundation
import RunusCore
import Missions
import Tracking
import Server
@testable import Service
@testable import RunusCLI

/// Issue 24, item 3, over a real socket (`ProductionDaemon`, clock 2027-01-15 08:00 UTC, runner
/// `runner-0001` in Asia/Seoul): summaries and the device's distance readings at `runs.ingest`
/// (records 0116, 0232), and every hostile variant refused naming its field or stored with a
/// stated reason.
@Suite("indoor, summary and watch runs at runs.ingest", .serialized)
struct IndoorRunTests {
    static let now: EpochSeconds = 1_800_000_000

    static func summary(start: EpochSeconds = now - 4000, distance: Double = 8000, duration: Double = 2700,
                        extra: [String: JSONValue] = [:]) -> JSONValue {
        var fields: [String: JSONValue] = ["start_time": .number(start), "distance_m": .number(distance), "duration_s": .number(duration)]
        fields.merge(extra) { _, b in b }
        return .object(fields)
    }

    /// Offers a mission of each kind in `specs` for the runner's local day 2027-01-15.
    static func offer(_ specs: [MissionSpec], daemon: ProductionDaemon) throws {
        let day = try #require(CivilDate(iso: "2027-01-15"))
        for (i, spec) in specs.enumerated() {
            try daemon.store.insertAssignment(MissionAssignment(
                id: "2027-01-15-0-\(i)", userID: "runner-0001", day: day, kind: spec.kind.rawValue, specJSON: spec.canonicalJSON,
                modelVersion: "test", pComplete: 0.5, xp: 50, offeredAt: now - 30_000))
        }
    }

    @Test("a summary counts for distance, duration and XP, stores no track, and its missions say what they cannot check")
    func summaryRun() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        try Self.offer([.distance(minDistance: 8000), .duration(minDuration: 2400), .negativeSplit(minDistance: 5000),
                        .hills(minAscent: 100), .loop(maxGap: 100, minDistance: 3000)], daemon: daemon)
        let client = try daemon.client()
        let answer = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "treadmill-1",
                                      "summary": Self.summary(extra: ["moving_s": 2600, "kcal": 610, "avg_hr": 148])])
        let result = try #require(answer["result"], "\(JSONWriter.string(answer))")
        let run = try #require(result["run"])
        #expect(result["rewarded"] == true)
        #expect(run["distance_m"] == 8000 && run["elapsed_s"] == 2700 && run["moving_s"] == 2600 && run["calories_kcal"] == 610)
        #expect(run["distance_source"] == "summary" && run["splits"] == .null && run["device_distance_note"] == .null)
        #expect((result["xp"]?["run"]?.doubleValue ?? 0) > 0)
        let missions = try #require(result["missions"]?.arrayValue)
        let byKind = Dictionary(missions.compactMap { m in m["spec"]?["kind"]?.stringValue.map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
        #expect(byKind["distance"]?["status"] == "completed" && byKind["duration"]?["status"] == "completed")
        #expect(byKind["distance"]?["cannot_check"] == .null && byKind["distance"]?["verdict"] == "completed")
        for kind in ["negative_split", "hills", "loop"] {
            #expect(byKind[kind]?["status"] == "offered" && byKind[kind]?["verdict"] == "not_checked", "\(kind)")
            #expect(byKind[kind]?["cannot_check"]?.stringValue?.isEmpty == false, "\(kind): \(JSONWriter.string(byKind[kind] ?? .null))")
        }
        let got = try client.call(["op": "runs.get", "user": "runner-0001", "run_id": "treadmill-1"])
        #expect(got["result"]?["run"]?["distance_source"] == "summary" && got["result"]?["run"]?["has_track"] == false
                && got["result"]?["run"]?["splits"] == .null)
        // The same summary again is the same answer; under another id it is a duplicate, and so
        // is a tracked run over the same time.
        #expect(try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "treadmill-1",
                                 "summary": Self.summary(extra: ["moving_s": 2600, "kcal": 610, "avg_hr": 148])]) == answer)
        let again = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "phone-summary",
                                     "summary": Self.summary(start: Self.now - 3990)])
        #expect(again["result"]?["duplicate_of"] == "treadmill-1" && again["result"]?["xp"]?["awarded"] == 0)
        let tracked = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "watch-track",
                                       "points": DaemonTrustTests.run(start: Self.now - 3900, seconds: 2400)])
        #expect(tracked["result"]?["duplicate_of"] == "treadmill-1")
    }

    @Test("summary numbers no run can have are refused, naming summary.<field>", arguments: [
        (["distance_m": 1e9] as [String: JSONValue], "summary.distance_m"),
        (["distance_m": -1], "summary.distance_m"),
        (["distance_m": "NaN"], "summary.distance_m"),
        (["duration_s": -60], "summary.duration_s"),
        (["duration_s": 0], "summary.duration_s"),
        (["duration_s": 200_000], "summary.duration_s"),
        (["distance_m": 42_195, "duration_s": 3000], "summary.distance_m"),   // 14 m/s on average
        (["start_time": 1_800_100_000], "summary.start_time"),                // ends a day ahead
        (["start_time": -5], "summary.start_time"),
        (["moving_s": 5000], "summary.moving_s"),
        (["kcal": -3], "summary.kcal"),
        (["kcal": 1e7], "summary.kcal"),
        (["avg_hr": 400], "summary.avg_hr"),
        (["avg_hr": true], "summary.avg_hr"),
        (["pace": 300], "summary.pace"),
    ])
    func hostileSummaries(_ fields: [String: JSONValue], _ field: String) throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let answer = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "s", "summary": Self.summary(extra: fields)])
        #expect(answer.errorCode == "bad_request", "\(JSONWriter.string(answer))")
        #expect(answer["error"]?["field"] == .string(field), "\(JSONWriter.string(answer))")
        #expect(try client.call(["op": "history", "user": "runner-0001", "from": "2027-01-15", "to": "2027-01-15"])["result"]?["runs"] == [],
                "nothing was stored")
    }

    @Test("a summary faster than the world record is stored unrewarded; a summary with points, or not an object, is refused")
    func unrewardedAndMalformed() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let fast = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "fast",
                                    "summary": Self.summary(distance: 10_000, duration: 1200)])
        #expect(fast["result"]?["rewarded"] == false && fast["result"]?["unrewarded"]?["reason"] == "too_fast")
        let both = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "both", "summary": Self.summary(),
                                    "points": DaemonTrustTests.run(start: Self.now - 9000, seconds: 600)])
        #expect(both.errorCode == "bad_request" && both["error"]?["field"] == "summary")
        let notObject = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "x", "summary": [1, 2]])
        #expect(notObject.errorCode == "bad_request" && notObject["error"]?["field"] == "summary")
        let missing = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "x",
                                       "summary": ["start_time": .number(Self.now - 5000), "distance_m": 3000]])
        #expect(missing["error"]?["field"] == "summary.duration_s")
    }

    /// Fixes every `interval` s on a circle of 30 m at 3 m/s for `seconds`, each with the
    /// device's distance (the arc, 3 m/s × t) as the seventh value; `indoor` leaves lat and lon null.
    static func watchPoints(start: EpochSeconds, seconds: Int, interval: Int, indoor: Bool = false) -> JSONValue {
        .array(stride(from: 0, through: seconds, by: interval).map { t in
            let angle = 3 * Double(t) / 30
            let lat: JSONValue = indoor ? .null : .number(37.5 + 30 * sin(angle) / 111_320)
            let lon: JSONValue = indoor ? .null : .number(127.0 + 30 * cos(angle) / (111_320 * cos(37.5 * .pi / 180)))
            return [.number(start + Double(t)), lat, lon, .null, 150, .null, .number(3 * Double(t))]
        })
    }

    @Test("a sparse watch track: the record takes the device's distance; runs.get and users.export give it again")
    func watchReadings() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let points = Self.watchPoints(start: Self.now - 5000, seconds: 3000, interval: 6)
        let answer = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "watch", "points": points])
        let run = try #require(answer["result"]?["run"], "\(JSONWriter.string(answer))")
        #expect(run["distance_source"] == "device")
        #expect(abs((run["distance_m"]?.doubleValue ?? 0) - 9000) <= 0.1, "\(JSONWriter.string(run))")
        let got = try #require(try client.call(["op": "runs.get", "user": "runner-0001", "run_id": "watch"])["result"]?["run"])
        #expect(got["distance_source"] == "device" && got["splits"] == run["splits"] && got["distance_m"] == run["distance_m"])
        let export = try client.call(["op": "users.export", "user": "runner-0001", "tracks": true])
        let exported = try #require(export["result"]?["runs"]?.arrayValue?.first { $0["id"] == "watch" }?["points"]?.arrayValue)
        #expect(exported.count == 501 && exported[100].arrayValue?.count == 7 && exported[100].arrayValue?[6] == 1800)
        // A treadmill over the wire: readings only.
        let indoor = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "indoor",
                                      "points": Self.watchPoints(start: Self.now - 1500, seconds: 1200, interval: 1, indoor: true)])
        #expect(indoor["result"]?["run"]?["distance_source"] == "device" && indoor["result"]?["run"]?["distance_m"] == 3600,
                "\(JSONWriter.string(indoor).prefix(400))")
        #expect(indoor["result"]?["run"]?["splits"]?.arrayValue?.count == 4)
    }

    @Test("readings that fall, or a fix with half a position, are refused naming the point; a jump is ignored with its reason")
    func hostileReadings() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        var points = try #require(Self.watchPoints(start: Self.now - 5000, seconds: 1200, interval: 6).arrayValue)
        var falling = points
        falling[40] = [.number(Self.now - 5000 + 240), 37.5, 127.0, .null, .null, .null, 10]
        let fall = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "fall", "points": .array(falling)])
        #expect(fall.errorCode == "bad_request" && fall["error"]?["field"] == "points" && fall["error"]?["index"] == 40,
                "\(JSONWriter.string(fall))")
        var half = points
        half[7] = [.number(Self.now - 5000 + 42), .null, 127.0, .null, .null, .null, 126]
        let halfAnswer = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "half", "points": .array(half)])
        #expect(halfAnswer["error"]?["field"] == "points" && halfAnswer["error"]?["index"] == 7)
        var negative = points
        negative[3] = [.number(Self.now - 5000 + 18), 37.5, 127.0, .null, .null, .null, -4]
        #expect(try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "neg", "points": .array(negative)])["error"]?["index"] == 3)
        // Out of order among readings without a position: the index is the wire's.
        var indoor = try #require(Self.watchPoints(start: Self.now - 3000, seconds: 600, interval: 1, indoor: true).arrayValue)
        indoor.swapAt(300, 301)
        let order = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "order", "points": .array(indoor)])
        #expect(order["error"]?["field"] == "points" && order["error"]?["index"] == 301, "\(JSONWriter.string(order))")
        // 5 km added between two fixes 6 s apart: stored, the jump left out, the reason given.
        for i in 100..<points.count {
            var p = try #require(points[i].arrayValue)
            p[6] = .number((p[6].doubleValue ?? 0) + 5000)
            points[i] = .array(p)
        }
        let jump = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "jump", "points": .array(points)])
        let run = try #require(jump["result"]?["run"], "\(JSONWriter.string(jump))")
        #expect((run["distance_m"]?.doubleValue ?? 0) < 3700, "\(JSONWriter.string(run))")
        #expect(run["device_distance_note"]?.stringValue?.contains("jumps") == true)
    }

    @Test("race positions take fixes only; the export form reads back as the same fixes and readings")
    func wireForms() throws {
        let reading: JSONValue = [[1_799_990_000, 37.5, 127.0, .null, .null, .null, 10], [1_799_990_001, .null, .null, .null, 150, .null, 13]]
        #expect(throws: RequestError.self) { try WireTrack.track(from: reading, op: "race.position", allowReadings: false) }
        #expect(throws: RequestError.self) {
            try WireTrack.track(from: [[1_799_990_001, .null, .null]], op: "race.position", allowReadings: false)
        }
        let track = try WireTrack.track(from: reading, op: "missions.evaluate")
        #expect(track.points.count == 1 && track.deviceDistances.map(\.distance) == [10, 13])
        // Fixes with and without readings, readings without fixes, in one recording.
        let mixed = try WireTrack.recording(from: Self.watchPoints(start: Self.now - 900, seconds: 600, interval: 3), op: "t").track
        var sparse = mixed
        sparse.deviceDistances = mixed.deviceDistances.enumerated().filter { $0.offset % 4 != 1 }.map(\.element)
        sparse.deviceDistances.append(DistanceSample(time: Self.now - 250.5, distance: 2000, heartRate: 150))
        sparse.deviceDistances.sort { $0.time < $1.time }
        let again = try WireTrack.recording(from: WireTrack.json(sparse), op: "t").track
        #expect(again == sparse)
    }
}

