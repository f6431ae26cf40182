import Testing
import Foundation
import RunusCore
import Engine
import Server
import Storage
@testable import Service
@testable import RunusCLI

/// missions.today from the cache against the uncached computation (the oracle), across the
/// writes that must invalidate it (decision 0520).
@Suite("missions.today cache", .serialized)
struct MissionsTodayCacheTests {
    /// 2027-01-15 08:00 UTC, 17:00 in Seoul.
    static let now: EpochSeconds = 1_800_000_000

    static func operations(_ dir: TemporaryDirectory, clock: any Clock = FixedClock(now)) throws -> (DaemonOperations, SQLiteStore) {
        let store = try SQLiteStore(path: dir.file("d.sqlite"))
        try store.upsertUser(UserProfile(id: "ana", weightKg: 58, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        for i in 0..<12 {
            try store.insertRun(RunRecord(id: "ana-\(i)", userID: "ana", startTime: 1_790_000_000 + Double(i) * 172_800,
                                          distance: 6000, elapsed: 2100, moving: 2000, elevationGain: 20, source: "test"))
        }
        let artifact = try DaemonEndToEndTests.artifact()
        let operations = DaemonOperations(store: store, scorer: try LogisticScorer(artifact: artifact), artifact: artifact,
                                          clock: clock, startedAt: now - 10)
        return (operations, store)
    }

    static func request(_ params: [String: JSONValue]) -> Request {
        Request(op: params["op"]?.stringValue ?? "", params: params)
    }

    /// The served (cached) answer's bytes, checked against a fresh computation's.
    static func servedMatchesFresh(_ ops: DaemonOperations, _ params: [String: JSONValue],
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let served = String(decoding: try ops.cachedMissionsToday(request(params)).bytes, as: UTF8.self)
        let fresh = JSONWriter.string(try ops.missionsToday(request(params)))
        #expect(served == fresh, sourceLocation: sourceLocation)
        return served
    }

    /// 2027-01-15 08:20 in Seoul: the start of the test's runs of that day.
    static let runStart: EpochSeconds = 1_799_964_000

    /// A run on 2027-01-15 in Seoul, from 08:20 local, one point every 2 s:
    /// 50 min out and back (so it ends where it began), `metresPerFix` every 2 s: by default 15 km
    /// at 3:20/km; 4 m is 6 km at 8:20/km, an easy run.
    static func ingestRequest(runID: String, start: EpochSeconds = runStart, metresPerFix: Double = 10) -> Request {
        var points: [JSONValue] = []
        var lat = 37.55
        for i in 0...1500 {
            points.append([.number(start + Double(i) * 2), .number(lat), .number(126.98)])
            lat += (i < 750 ? metresPerFix : -metresPerFix) / 111_200
        }
        return request(["op": "runs.ingest", "user": "ana", "run_id": .string(runID), "points": .array(points)])
    }

    @Test("a repeated request is served from the cache, byte for byte the uncached answer")
    func repeatedRequest() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (ops, store) = try Self.operations(dir)
        defer { try? store.close() }
        let params: [String: JSONValue] = ["op": "missions.today", "user": "ana"]
        let first = try Self.servedMatchesFresh(ops, params)
        let hitsBefore = ops.todayCache.entries.counts.hits
        let second = String(decoding: try ops.cachedMissionsToday(Self.request(params)).bytes, as: UTF8.self)
        #expect(second == first)
        #expect(ops.todayCache.entries.counts.hits > hitsBefore, "the second request was not a cache hit")
        // Other keys: a count, an explicit date, each its own answer.
        for extra: [String: JSONValue] in [["k": 2], ["date": "2027-01-15"], ["date": "2027-01-14"]] {
            _ = try Self.servedMatchesFresh(ops, params.merging(extra) { $1 })
            _ = try Self.servedMatchesFresh(ops, params.merging(extra) { $1 })
        }
        #expect(throws: RequestError.self) { try ops.cachedMissionsToday(Self.request(["op": "missions.today", "user": "ghost"])) }
    }

    @Test("ids equal as Swift strings but not as bytes are two runners to the cache, as to the store")
    func canonicallyEquivalentIDs() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (ops, store) = try Self.operations(dir)
        defer { try? store.close() }
        // "jos\u{E9}" == "jose\u{301}" in Swift; SQLite and PostgreSQL keep two rows.
        let composed = "jos\u{E9}", decomposed = "jose\u{301}"
        try store.upsertUser(UserProfile(id: composed, weightKg: 70, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        try store.upsertUser(UserProfile(id: decomposed, weightKg: 50, timeZone: "Pacific/Honolulu", utcOffsetSeconds: -10 * 3600))
        let first = try Self.servedMatchesFresh(ops, ["op": "missions.today", "user": .string(composed)])
        let second = try Self.servedMatchesFresh(ops, ["op": "missions.today", "user": .string(decomposed)])
        #expect(first.contains("\"day\":\"2027-01-15\""))
        #expect(second.contains("\"day\":\"2027-01-14\""), "the second runner was served the first one's answer")
    }

    @Test("runs.ingest, users.upsert and refresh change the answer and the cache follows")
    func invalidation() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let clock = ManualClock(Self.now)
        let (ops, store) = try Self.operations(dir, clock: clock)
        defer { try? store.close() }
        let params: [String: JSONValue] = ["op": "missions.today", "user": "ana"]
        // Which missions the test's random model picks changes with every feature schema, and an
        // easy run completes some of them and not others. A mission the runner sets, 3 km, is one
        // the easy run below completes whatever the model picks. It is set at 08:10 in Seoul,
        // before the run starts (a run started before a mission was set never completes it).
        clock.set(Self.runStart - 600)
        let custom = try ops.invalidatingToday(Self.request(["op": "missions.custom", "user": "ana",
                                                            "spec": ["kind": "distance", "distance_m": 3000]]),
                                               ops.missionsCustom)
        let customID = try #require(custom["mission"]?["id"]?.stringValue, "\(JSONWriter.string(custom).prefix(600))")
        clock.set(Self.now)
        let before = try Self.servedMatchesFresh(ops, params)
        #expect(before.contains("\"status\":\"offered\"") && before.contains(customID))
        #expect(!before.contains("\"status\":\"completed\""))

        // A run today completes some of the day's missions, the runner's own among them: the
        // answer changes, and each mission's status is what the ingest answered for it.
        let ingest = try ops.invalidatingToday(Self.ingestRequest(runID: "w-1", metresPerFix: 4), ops.runsIngest)
        #expect(ingest["run"]?["local_day"] == "2027-01-15", "\(JSONWriter.string(ingest).prefix(3000))")
        let afterRun = try Self.servedMatchesFresh(ops, params)
        #expect(afterRun != before)
        let served = try #require(try JSONParser.parse(afterRun)["missions"]?.arrayValue)
        let verdicts = try #require(ingest["missions"]?.arrayValue)
        #expect(!verdicts.isEmpty && verdicts.count == served.count)
        for verdict in verdicts {
            let id = try #require(verdict["id"]?.stringValue)
            let mission = try #require(served.first { $0["id"]?.stringValue == id }, "\(id) not served")
            #expect((mission["status"]?.stringValue == "completed") == (verdict["verdict"]?.stringValue == "completed"), "\(id)")
        }
        let mine = try #require(served.first { $0["id"]?.stringValue == customID })
        #expect(mine["status"]?.stringValue == "completed", "\(afterRun.prefix(600)) \(JSONWriter.string(ingest).prefix(3000))")
        // Today's run starts after the start of the day: the state as of then was kept.
        let asOf = try #require(CivilDate(iso: "2027-01-15")).startInstant(utcOffset: 9 * 3600)
        #expect(ops.todayCache.entries.lookup(ExactText("ana"), .state(asOf: asOf)).value != nil)
        // A run before that day changes the state (and the "why"): that state goes.
        _ = try ops.invalidatingToday(Self.ingestRequest(runID: "w-0", start: 1_799_800_000), ops.runsIngest)
        #expect(ops.todayCache.entries.lookup(ExactText("ana"), .state(asOf: asOf)).value == nil)
        _ = try Self.servedMatchesFresh(ops, params)

        // Another time zone moves the runner's day (22:00 on 2027-01-14 in Honolulu).
        _ = try ops.invalidatingToday(Self.request(["op": "users.upsert", "user": "ana", "time_zone": "Pacific/Honolulu"]),
                                      ops.usersUpsert)
        let moved = try Self.servedMatchesFresh(ops, params)
        #expect(moved.contains("\"day\":\"2027-01-14\""))

        // A refresh replaces the open missions; the next plain request shows the new ones.
        let refreshed = String(decoding: try ops.cachedMissionsToday(Self.request(params.merging(["refresh": true]) { $1 })).bytes, as: UTF8.self)
        #expect(refreshed != moved)
        let afterRefresh = try Self.servedMatchesFresh(ops, params)
        #expect(afterRefresh == refreshed)
    }

    @Test("runs.get returns an ingested run with the splits runs.ingest answered, and a summary run without")
    func runsGet() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (ops, store) = try Self.operations(dir)
        defer { try? store.close() }
        let ingest = try ops.runsIngest(Self.ingestRequest(runID: "w-1"))
        for id in ["w-1"] {
            let got = try ops.runsGet(Self.request(["op": "runs.get", "user": "ana", "run_id": .string(id)]))
            let run = try #require(got["run"])
            #expect(run["splits"] == ingest["run"]?["splits"])
            for key in ["start_time", "distance_m", "elapsed_s", "moving_s", "elevation_gain_m", "moving_pace_s_per_km",
                        "calories_kcal", "local_day"] {
                #expect(run[key] == ingest["run"]?[key], "\(key)")
            }
            #expect(run["has_track"] == true)
            #expect(run["id"] == "w-1")
        }
        let summary = try ops.runsGet(Self.request(["op": "runs.get", "user": "ana", "run_id": "ana-3"]))
        #expect(summary["run"]?["splits"] == .null)
        #expect(summary["run"]?["distance_m"] == 6000)
        // "ana:w-1" was version 2's stored form of the id; runs are keyed by (user, id) now (record 0405).
        for (user, run) in [("ana", "nope"), ("ana", "ana:w-1"), ("ghost", "w-1"), ("bo", "ana-3")] {
            if user == "bo" { try store.upsertUser(UserProfile(id: "bo")) }
            #expect {
                try ops.runsGet(Self.request(["op": "runs.get", "user": .string(user), "run_id": .string(run)]))
            } throws: { ($0 as? RequestError)?.code == .notFound }
        }
    }
}
