import Testing
import Foundation
import RunusCore
import Server
import Storage
@testable import Service
@testable import RunusCLI

/// Issue 22, found 2026-12-01: well-formed runs with degenerate numbers were stored, and the
/// runner's next `missions.today` trapped the daemon (`Int(inf)` in the "why" sentence, a
/// non-finite number in `JSONWriter`, a NaN probability in `MissionXP`); impossible runs earned
/// rewards. Each class goes through `runs.ingest` and then through every operation that reads
/// the runner, over a real socket (`ProductionDaemon`, clock 2027-01-15 08:00 UTC).
@Suite("pathological runs through every operation", .serialized)
struct PathologicalRunTests {
    static let now: EpochSeconds = 1_800_000_000

    /// `[t, lat, lon]` fixes.
    static func points(_ fixes: [(EpochSeconds, Double, Double)]) -> JSONValue {
        .array(fixes.map { [.number($0.0), .number($0.1), .number($0.2)] })
    }

    /// A straight line north from (37.5, 127.0) at `speed` m/s, one fix every `step` s.
    static func line(start: EpochSeconds, count: Int, step: Double, speed: Double) -> JSONValue {
        points((0..<count).map { i in (start + Double(i) * step, 37.5 + Double(i) * step * speed / 111_200, 127.0) })
    }

    /// What `runs.ingest` must do with each class: refuse it naming the reason, store it without
    /// rewards for a reason, or either (cleaning decides whether anything usable is left).
    enum Expected { case refused(String), unrewarded(String), notRewarded }

    static let classes: [(name: String, points: JSONValue, expected: Expected)] = [
        ("two fixes twenty minutes apart",
         points([(now - 3600, 37.5, 127.0), (now - 2400, 37.501, 127.0)]), .unrewarded("too_short")),
        ("identical fixes at one place over ten minutes",
         line(start: now - 3600, count: 61, step: 10, speed: 0), .unrewarded("too_short")),
        ("fixes a million seconds apart",
         points([(now - 2e6, 37.5, 127.0), (now - 1e6, 37.51, 127.0)]), .refused("gap")),
        ("a 0.33 m/s walk for an hour",
         line(start: now - 7200, count: 361, step: 10, speed: 0.33), .unrewarded("too_short")),
        ("3.5 km in 0.1 s, fixes 1 ms apart",
         line(start: now - 3600, count: 101, step: 0.001, speed: 35_000), .notRewarded),
        ("5 km in 6 minutes (13.9 m/s: a car, cut by the vehicle rule)",
         line(start: now - 3600, count: 361, step: 1, speed: 13.9), .notRewarded),
        ("a marathon in 1:42 (6.9 m/s, under the vehicle rule's 7 m/s)",
         line(start: now - 7000, count: 3059, step: 2, speed: 6.9), .unrewarded("too_fast")),
        ("a run lasting 3.8 years",
         points([(now - 1.2e8, 37.5, 127.0), (now - 1.2e8 + 3600, 37.52, 127.0), (now - 60, 37.53, 127.0)]), .refused("gap")),
        ("a 50-hour run without gaps",
         line(start: now - 50 * 3600, count: 301, step: 600, speed: 0.3), .refused("a run lasts at most")),
        ("a run dated next year",
         line(start: now + 365 * 86_400, count: 600, step: 1, speed: 3), .refused("ahead of the server clock")),
        ("fixes out of order",
         points([(now - 3600, 37.5, 127.0), (now - 3000, 37.505, 127.0), (now - 3300, 37.51, 127.0)]), .refused("time order")),
        ("a run older than the reward window",
         line(start: now - 9 * 86_400, count: 1800, step: 1, speed: 3), .unrewarded("too_old")),
    ]

    @Test("each class is refused or stored unrewarded, and every later request for the runner is answered",
          arguments: 0..<classes.count)
    func pathologicalRun(_ index: Int) throws {
        let (name, points, expected) = Self.classes[index]
        let daemon = try ProductionDaemon("pathological\(index)")
        defer { daemon.stop() }
        let client = try daemon.client()
        let user = "odd-\(index)"
        #expect(try client.call(["op": "users.upsert", "user": .string(user), "time_zone": "Asia/Seoul", "weight_kg": 61])["ok"] == true)
        // Missions offered before the run, so that an unrewarded run has something it must not complete.
        #expect(try client.call(["op": "missions.today", "user": .string(user)])["ok"] == true, "\(name)")
        let answer = try client.call(["op": "runs.ingest", "user": .string(user), "run_id": "r", "points": points])
        switch expected {
        case .refused(let phrase):
            #expect(answer.errorCode == "bad_request", "\(name): \(JSONWriter.string(answer).prefix(300))")
            #expect(answer["error"]?["message"]?.stringValue?.contains(phrase) == true, "\(name): \(JSONWriter.string(answer).prefix(300))")
        case .unrewarded(let reason):
            let result = try #require(answer["result"], "\(name): \(JSONWriter.string(answer).prefix(300))")
            #expect(result["rewarded"] == false && result["unrewarded"]?["reason"] == .string(reason),
                    "\(name): \(JSONWriter.string(result).prefix(400))")
            #expect(result["xp"]?["awarded"] == 0 && result["badges_awarded"] == [], "\(name)")
            #expect(result["missions"] == [], "\(name): an unrewarded run checks no mission")
            #expect(try client.call(["op": "runs.get", "user": .string(user), "run_id": "r"])["ok"] == true, "\(name)")
        case .notRewarded:
            let refused = answer.errorCode == "bad_request"
            #expect(refused || answer["result"]?["rewarded"] == false, "\(name): \(JSONWriter.string(answer).prefix(400))")
            #expect(refused || answer["result"]?["xp"]?["awarded"] == 0, "\(name)")
        }
        try Self.everyOperationAnswers(client, user: user, context: name)
        try Self.asRacePositions(points, client: client, user: user, context: name)
    }

    /// The same fixes as a race's positions, shifted to end at the daemon's clock: answered
    /// (accepted, or refused with `bad_request`), and the room still ranks and answers.
    static func asRacePositions(_ points: JSONValue, client: LineClient, user: String, context: String) throws {
        let created = try client.call(["op": "race.create", "user": .string(user), "name": "odd", "distance_m": 5000,
                                       "start_time": .number(now)])
        let race = try #require(created["result"]?["race_id"], "\(context): \(JSONWriter.string(created))")
        let joined = try client.call(["op": "race.join", "race_id": race, "user": .string(user)])
        let token = try #require(joined["result"]?["participant_token"], "\(context): \(JSONWriter.string(joined))")
        let fixes = points.arrayValue ?? []
        let last = fixes.last?.arrayValue?.first?.doubleValue ?? now
        let shifted: JSONValue = .array(fixes.map { fix in
            var f = fix.arrayValue ?? []
            if let t = f.first?.doubleValue { f[0] = .number(t - last + now) }
            return .array(f)
        })
        let answer = try client.call(["op": "race.position", "race_id": race, "participant_token": token, "points": shifted])
        #expect(answer["ok"] == true || answer.errorCode == "bad_request", "\(context): \(JSONWriter.string(answer).prefix(300))")
        let watched = try client.call(["op": "race.create", "user": .string(user), "name": "after", "distance_m": 5000,
                                       "start_time": .number(now + 60)])
        #expect(watched["ok"] == true, "\(context): the daemon still answers race operations")
    }

    @Test("runs stored by older code with impossible numbers are skipped or repaired, never a trap")
    func legacyStoredRuns() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let user = "legacy"
        try daemon.store.upsertUser(UserProfile(id: user, weightKg: 70, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        let start = Self.now - 86_400
        // Rows as version 2 accepted them, written past every current check.
        let rows: [RunRecord] = [
            RunRecord(id: "zero", userID: user, startTime: start, distance: 0, elapsed: 0, moving: 0, elevationGain: 0, source: "app"),
            RunRecord(id: "no-motion", userID: user, startTime: start + 10, distance: 1100, elapsed: 1e6, moving: 0, elevationGain: 0, source: "app"),
            RunRecord(id: "blink", userID: user, startTime: start + 20, distance: 3500, elapsed: 0.1, moving: 0.1, elevationGain: 0, source: "app"),
            RunRecord(id: "years", userID: user, startTime: start - 1.2e8, distance: 5000, elapsed: 1.2e8, moving: 1800, elevationGain: 0, source: "app"),
            RunRecord(id: "infinite", userID: user, startTime: start + 30, distance: .infinity, elapsed: 100, moving: 100, elevationGain: 0, source: "app"),
            RunRecord(id: "inverted", userID: user, startTime: start + 40, distance: 5000, elapsed: 1500, moving: 1800,
                      elevationGain: -30, calories: -5, source: "app"),
        ]
        for row in rows { #expect(try daemon.store.insertRun(row)) }
        let client = try daemon.client()
        try Self.everyOperationAnswers(client, user: user, context: "legacy rows")
        // What the runner sees: the repaired run only; the others are left out.
        let history = try client.call(["op": "history", "user": .string(user), "from": "2027-01-01", "to": "2027-01-31"])
        let ids = history["result"]?["runs"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(ids) == ["zero", "inverted", "after"], "\(JSONWriter.string(history).prefix(500))")
        let repaired = try #require(try daemon.store.run(user: user, id: "inverted"))
        #expect(repaired.moving == 1500 && repaired.elevationGain == 0 && repaired.calories == nil)
        #expect(try daemon.store.run(user: user, id: "blink") == nil)
        // Each skip and repair is logged with the run's key, so an operator can find the row.
        let logged = daemon.storeLog.all.compactMap { try? JSONParser.parse(Array($0.utf8)) }
        let skipped = Set(logged.filter { $0["event"] == "stored_run_skipped" }.compactMap { $0["run_id"]?.stringValue })
        #expect(skipped == ["no-motion", "blink", "years", "infinite"], "\(daemon.storeLog.all.prefix(3))")
        #expect(logged.contains { $0["event"] == "stored_run_repaired" && $0["run_id"] == "inverted" && $0["user"] == "legacy" })
    }

    /// Every operation that reads the runner answers with a well-formed line: `ok`, or an
    /// error code from the closed set that is not `internal`; numbers in answers are finite.
    static func everyOperationAnswers(_ client: LineClient, user: String, context: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let specs: JSONValue = [
            ["kind": "distance", "distance_m": 5000], ["kind": "duration", "duration_s": 1800],
            ["kind": "pace", "max_pace_s_per_km": 300, "min_distance_m": 5000], ["kind": "negative_split", "min_distance_m": 5000],
            ["kind": "hills", "min_ascent_m": 100], ["kind": "long_run", "multiple": 1.2],
            ["kind": "recovery", "min_pace_s_per_km": 420, "min_duration_s": 1800], ["kind": "progression", "kilometres": 4],
            ["kind": "even_pace", "min_distance_m": 5000, "max_spread_s_per_km": 20],
            ["kind": "distance_in_time", "distance_m": 5000, "max_duration_s": 1800], ["kind": "streak", "days": 3],
        ]
        let u = JSONValue.string(user)
        let requests: [JSONValue] = [
            ["op": "missions.today", "user": u], ["op": "missions.today", "user": u, "k": 5],
            ["op": "missions.today", "user": u, "refresh": true], ["op": "missions.today", "user": u, "date": "2027-01-16"],
            ["op": "missions.score", "user": u, "specs": specs], ["op": "missions.progress", "user": u],
            ["op": "missions.progress", "user": u, "points": line(start: now - 600, count: 300, step: 2, speed: 3)],
            ["op": "goals.recommend", "user": u], ["op": "progress", "user": u],
            ["op": "history", "user": u, "from": "2026-01-01", "to": "2027-01-31", "bucket": "month"],
            ["op": "history", "user": u, "from": "2027-01-01", "to": "2027-01-31"],
            ["op": "runs.ingest", "user": u, "run_id": "after", "points": line(start: now - 1800, count: 1200, step: 1, speed: 3.1)],
            ["op": "missions.today", "user": u], ["op": "progress", "user": u],
            ["op": "missions.custom", "user": u, "spec": ["kind": "pace", "max_pace_s_per_km": 300, "min_distance_m": 5000]],
            ["op": "missions.progress", "user": u], ["op": "missions.history", "user": u, "from": "2026-01-01", "to": "2027-01-31"],
        ]
        for request in requests {
            try client.send(request)
            let line = try #require(try client.readLine(), "\(context): no answer (the daemon died?)", sourceLocation: sourceLocation)
            let answer = try JSONParser.parse(line)
            let text = String(decoding: line.prefix(400), as: UTF8.self)
            #expect(answer["ok"] == true || (answer.errorCode.map { $0 != "internal" && ErrorCode(rawValue: $0) != nil } ?? false),
                    "\(context): \(JSONWriter.string(request).prefix(80)) → \(text)", sourceLocation: sourceLocation)
        }
    }
}
