import Testing
import Foundation
import RunusCore
import Features
import Learning
import Engine
import Server
import Storage
@testable import Service
@testable import RunusCLI

/// The daemon's operations over a real TCP socket and a real store, one connection throughout.
@Suite("daemon end to end", .serialized)
struct DaemonEndToEndTests {
    /// A model with the production feature schema, fitted on seeded random rows: these tests
    /// are about the protocol, not model quality.
    static func artifact() throws -> ModelArtifact {
        var rng = SeededGenerator(seed: 5)
        let p = MissionFeatures.schema.count
        let rows = (0..<400).map { _ in (0..<p).map { _ in rng.gaussian() } }
        let y = rows.map { $0[5] < 0.3 ? 1.0 : 0.0 }
        let model = try LogisticRegression.fit(x: Matrix(rowArrays: rows, cols: p), y: y)
        return try ModelArtifact(model: model, modelVersion: "test-1", featureNames: MissionFeatures.schema.names,
                                 featureSchemaHash: MissionFeatures.schema.hash,
                                 training: .init(fingerprint: "test", rows: 400, seed: 5, l2: 1, iterations: 1, converged: true))
    }

    /// Starts a daemon on 127.0.0.1:0 with one known user; returns the server, its address and the store.
    static func startDaemon(_ dir: TemporaryDirectory) throws -> (LineServer, ServerAddress) {
        let store = try SQLiteStore(path: dir.file("d.sqlite"))
        try store.upsertUser(UserProfile(id: "ana", weightKg: 58, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        for i in 0..<12 {
            try store.insertRun(RunRecord(id: "ana-\(i)", userID: "ana", startTime: 1_790_000_000 + Double(i) * 172_800,
                                          distance: 6000, elapsed: 2100, moving: 2000, elevationGain: 20, source: "test"))
        }
        let artifact = try artifact()
        let operations = DaemonOperations(
            store: store, scorer: try LogisticScorer(artifact: artifact),
            artifact: artifact, clock: FixedClock(1_800_000_000), startedAt: 1_799_999_990)
        let router = Router()
        operations.register(on: router)
        var configuration = ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)])
        configuration.log = { _ in }
        let server = LineServer(configuration: configuration, router: router)
        let bound = try server.start()
        Thread.detachNewThread { try? server.run() }
        return (server, bound[0])
    }

    @Test("bad lines get their own error codes and the same connection keeps working")
    func errorsThenSuccess() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (server, address) = try Self.startDaemon(dir)
        defer { server.stop() }
        let client = try LineClient(address: address, timeout: .seconds(10))
        defer { client.close() }

        func send(_ line: String) throws -> JSONValue {
            try client.send(line: line)
            return try client.readAnswer()
        }
        let cases: [(String, String)] = [
            (#"{"op":"missions.today","user":"#, "bad_json"),
            (#"[1,2,3]"#, "bad_request"),
            (#"{"op":"missions.tomorrow","id":7}"#, "unknown_op"),
            (#"{"op":"missions.today","user":"nobody","id":"x"}"#, "not_found"),
            (#"{"op":"missions.today","user":"ana","k":0}"#, "bad_request"),
            (#"{"op":"missions.today","user":"ana","date":"2026-02-30"}"#, "bad_request"),
        ]
        for (line, code) in cases {
            let answer = try send(line)
            #expect(answer["ok"]?.boolValue == false, "\(line)")
            #expect(answer["error"]?["code"]?.stringValue == code, "\(line) → \(JSONWriter.string(answer))")
            #expect(answer["error"]?["message"]?.stringValue?.isEmpty == false)
            // After every bad line, a good request on the same connection works.
            let health = try send(#"{"op":"health","id":1}"#)
            #expect(health["ok"]?.boolValue == true)
            #expect(health["id"]?.intValue == 1)
        }
        #expect(try send(#"{"op":"missions.tomorrow","id":7}"#)["id"]?.intValue == 7)
    }

    @Test("missions.today answers k missions with title, spec, p_complete and xp, stable on repeat")
    func missionsToday() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (server, address) = try Self.startDaemon(dir)
        defer { server.stop() }
        let client = try LineClient(address: address, timeout: .seconds(10))
        defer { client.close() }
        let answer = try client.call(["op": "missions.today", "user": "ana", "id": 3])
        #expect(answer["ok"]?.boolValue == true, "\(JSONWriter.string(answer))")
        let result = try #require(answer["result"])
        // 1_800_000_000 is 2027-01-15T08:00Z, already that day in Seoul (UTC+9).
        #expect(result["day"]?.stringValue == "2027-01-15")
        let missions = try #require(result["missions"]?.arrayValue)
        // The k daily missions, then the stretch one when one fits, flagged (record 0536).
        #expect(missions.filter { $0["stretch"]?.boolValue == false }.count == 3)
        #expect(missions.filter { $0["stretch"]?.boolValue == true }.count <= 1)
        #expect(missions.allSatisfy { $0["custom"]?.boolValue == false })
        for m in missions {
            #expect(m["title"]?.stringValue?.isEmpty == false)
            #expect(m["spec"]?["kind"]?.stringValue == m["kind"]?.stringValue)
            let p = try #require(m["p_complete"]?.doubleValue)
            #expect((0...1).contains(p))
            #expect((m["xp"]?.intValue ?? 0) > 0)
            #expect(m["why"]?.stringValue?.isEmpty == false)
        }
        let again = try client.call(["op": "missions.today", "user": "ana", "id": 4])
        #expect(again["result"]?["missions"] == result["missions"])
        let five = try client.call(["op": "missions.today", "user": "ana", "k": 5, "date": "2027-01-16"])
        let all = try #require(five["result"]?["missions"]?.arrayValue)
        #expect(all.filter { $0["stretch"]?.boolValue == false }.count == 5)
        for m in all where m["stretch"]?.boolValue == true { #expect((0.4...0.5).contains(m["p_complete"]?.doubleValue ?? 0)) }
    }

    @Test("model.info reports the artifact; stats counts requests per operation")
    func modelInfoAndStats() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (server, address) = try Self.startDaemon(dir)
        defer { server.stop() }
        let client = try LineClient(address: address, timeout: .seconds(10))
        defer { client.close() }
        let info = try client.call(["op": "model.info"])
        #expect(info["result"]?["model_version"]?.stringValue == "test-1")
        #expect(info["result"]?["feature_schema_hash"]?.stringValue == MissionFeatures.schema.hash)
        _ = try client.call(["op": "health"])
        let stats = try client.call(["op": "stats"])
        #expect(stats["result"]?["operations"]?["health"]?["requests"]?.intValue == 1)
    }

    @Test("a model whose feature schema differs is refused at start-up with both hashes named")
    func schemaMismatch() throws {
        let good = try Self.artifact()
        var bytes = String(decoding: good.encode(), as: UTF8.self)
        bytes = bytes.replacingOccurrences(of: MissionFeatures.schema.hash, with: "0123456789abcdef")
        let wrong = try ModelArtifact.decode(Array(bytes.utf8))
        #expect(throws: EngineError.schemaMismatch(expected: MissionFeatures.schema.hash, artifact: "0123456789abcdef")) {
            _ = try LogisticScorer(artifact: wrong)
        }
    }

    @Test("users.upsert, runs.ingest (idempotent), progress and history over one connection")
    func runLifecycle() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let (server, address) = try Self.startDaemon(dir)
        defer { server.stop() }
        let client = try LineClient(address: address, timeout: .seconds(10))
        defer { client.close() }
        let upsert = try client.call(["op": "users.upsert", "user": "jo", "time_zone": "Europe/Paris", "weight_kg": 70, "sex": "f"])
        #expect(upsert["result"]?["created"]?.boolValue == true, "\(JSONWriter.string(upsert))")
        let badZone = try client.call(["op": "users.upsert", "user": "jo", "time_zone": "Mars/Olympus"])
        #expect(badZone["error"]?["code"]?.stringValue == "bad_request")

        // 5.2 km at 5:30/km on 2027-01-15 from 05:13 UTC (06:13 in Paris), one point a second.
        var points: [JSONValue] = []
        var lat = 48.85
        for i in 0...1716 {
            points.append([.number(1_799_990_000 + Double(i)), .number(lat), .number(2.35), .number(35)])
            lat += 1000.0 / 330 / 111_200
        }
        let request: JSONValue = ["op": "runs.ingest", "user": "jo", "run_id": "watch-1", "points": .array(points)]
        let first = try client.call(request)
        #expect(first["ok"]?.boolValue == true, "\(JSONWriter.string(first).prefix(300))")
        let distance = try #require(first["result"]?["run"]?["distance_m"]?.doubleValue)
        #expect(abs(distance - 5200) < 60, "distance \(distance)")
        #expect(first["result"]?["run"]?["local_day"]?.stringValue == "2027-01-15")
        let again = try client.call(request)
        #expect(again["result"] == first["result"])

        let progress = try client.call(["op": "progress", "user": "jo"])
        let xp = try #require(progress["result"]?["xp"]?.intValue)
        #expect(xp == first["result"]?["xp"]?["total"]?.intValue)
        let badges = progress["result"]?["badges"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(badges.contains("first_5k") && badges.contains("first_run"))

        let history = try client.call(["op": "history", "user": "jo", "from": "2027-01-01", "to": "2027-01-31", "bucket": "month"])
        #expect(history["result"]?["buckets"]?.arrayValue?.count == 1)
        #expect(history["result"]?["runs"]?.arrayValue?.count == 1)

        let bad = try client.call(["op": "runs.ingest", "user": "jo", "run_id": "w2", "points": [[1, 2]]])
        #expect(bad["error"]?["code"]?.stringValue == "bad_request")
        #expect(bad["error"]?["message"]?.stringValue?.contains("points[0]") == true)
        let goals = try client.call(["op": "goals.recommend", "user": "jo"])
        let predictions = try #require(goals["result"]?["race_predictions"]?.arrayValue)
        #expect(predictions.count == 4)
        #expect((goals["result"]?["suggested_run"]?["distance_m"]?.doubleValue ?? 0) >= 1000)
        let ghost = try client.call(["op": "progress", "user": "ghost"])
        #expect(ghost["error"]?["code"]?.stringValue == "not_found")
    }
}
