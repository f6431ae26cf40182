import Testing
import Foundation
import RunusCore
import Server
import Storage
@testable import Service
@testable import ModelStore
@testable import RunusCLI

/// Races on the embedded default survive `kill -9` (record 0526), and one SQLite file has one
/// daemon. `runus serve` runs as a child process on the real clock, so the race is short: it
/// starts 2 s after it is created and its runners leave after a few seconds of points.
@Suite("durable races in runus serve", .serialized)
struct DurableRaceDaemonTests {
    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Points north at `speed` m/s timed `from`…`to` (Unix seconds, whole seconds).
    static func points(from: Double, to: Double, speed: Double, start: Double) -> JSONValue {
        var out: [JSONValue] = []
        var t = from.rounded(.up)
        while t <= to {
            let metres = (t - start) * speed
            out.append([.number(t), .number(45.0 + metres / 111_132), .number(7.0)])
            t += 1
        }
        return .array(out)
    }

    @Test("kill -9 mid-race, restart: the race, its runners, tokens and distances are back; results come out; a second daemon is refused")
    func killMidRace() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("durablerace")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        do {
            let store = try SQLiteStore(path: db)
            try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC", displayName: "Ana"))
            try store.upsertUser(UserProfile(id: "bo", timeZone: "UTC"))
            try store.close()
        }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "race-1"), card: "test", to: dir.file("model"))

        let first = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("s1.sock"))
        var client = try LineClient(address: .unix(path: first.socket), timeout: .seconds(30))
        let start = (Self.now() + 2).rounded(.up)
        let created = try client.call(["op": "race.create", "user": "ana", "name": "lunch 5k", "distance_m": 5000,
                                       "start_time": .number(start)])
        let race = try #require(created["result"]?["race_id"]?.stringValue, "\(JSONWriter.string(created))")
        var tokens: [String: String] = [:]
        for user in ["ana", "bo"] {
            let joined = try client.call(["op": "race.join", "race_id": .string(race), "user": .string(user)])
            tokens[user] = try #require(joined["result"]?["participant_token"]?.stringValue)
        }
        // The race starts on the daemon's clock: wait for the instant, then run 3 s of points.
        while Self.now() < start + 3 { usleep(50_000) }
        let sentTo = (Self.now() - 0.5).rounded(.down)
        for (user, speed) in [("ana", 4.0), ("bo", 3.0)] {
            let answer = try client.call(["op": "race.position", "race_id": .string(race), "participant_token": .string(tokens[user] ?? ""),
                                          "points": Self.points(from: start, to: sentTo, speed: speed, start: start)])
            #expect(answer["ok"] == true, "\(JSONWriter.string(answer).prefix(300))")
        }
        let watched = try client.call(["op": "race.watch", "race_id": .string(race)])
        let before = try #require(watched["result"]?["ranking"]?.arrayValue)
        #expect(before.map { $0["user"]?.stringValue } == ["ana", "bo"])
        #expect((before.first?["distance_m"]?.doubleValue ?? 0) > 5, "\(JSONWriter.string(watched).prefix(400))")
        client.close()

        first.signal(SIGKILL)
        #expect(first.wait() == .signalled(SIGKILL))

        let second = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("s2.sock"))
        client = try LineClient(address: .unix(path: second.socket), timeout: .seconds(30))
        let listed = try client.call(["op": "race.list"])
        let summary = try #require(listed["result"]?["races"]?.arrayValue?.first { $0["race_id"]?.stringValue == race },
                                   "the race is gone after the restart: \(JSONWriter.string(listed).prefix(300))")
        #expect(summary["phase"] == "running")
        #expect(summary["participant_count"]?.doubleValue == 2)
        #expect(summary["participants"]?.arrayValue?.map { $0["display_name"] ?? .null } == [.string("Ana"), .null])
        let rewatched = try client.call(["op": "race.watch", "race_id": .string(race)])
        let after = try #require(rewatched["result"]?["ranking"]?.arrayValue)
        #expect(after.map { $0["distance_m"] } == before.map { $0["distance_m"] }, "distances must be where they were")
        // This connection now receives the race's events; requests go on a fresh one.
        let watcher = client
        defer { watcher.close() }
        client = try LineClient(address: .unix(path: second.socket), timeout: .seconds(30))

        // Tokens from before the crash still work; the runners carry on (a few seconds, so
        // that the live tracker's undecided tail is passed), then leave.
        while Self.now() < sentTo + 5 { usleep(50_000) }
        let more = try client.call(["op": "race.position", "race_id": .string(race), "participant_token": .string(tokens["ana"] ?? ""),
                                    "points": Self.points(from: sentTo + 1, to: (Self.now() - 0.2).rounded(.down) , speed: 4, start: start)])
        #expect(more["ok"] == true, "\(JSONWriter.string(more).prefix(300))")

        // A second daemon on the same file is refused, naming the first.
        do {
            _ = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("s3.sock"))
            Issue.record("a second runus serve on the same SQLite file started")
        } catch {
            #expect("\(error)".contains("exited before listening"), "\(error)")
        }
        let lock = try String(contentsOfFile: db + "-serve.lock", encoding: .utf8)
        #expect(lock.contains("pid \(second.process.processIdentifier)"), "\(lock)")

        for user in ["ana", "bo"] {
            let left = try client.call(["op": "race.leave", "race_id": .string(race), "participant_token": .string(tokens[user] ?? "")])
            #expect(left["ok"] == true, "\(JSONWriter.string(left).prefix(300))")
        }
        let results = try client.call(["op": "race.results", "race_id": .string(race)])
        let ranking = try #require(results["result"]?["ranking"]?.arrayValue, "results: \(JSONWriter.string(results).prefix(600))")
        #expect(ranking.map { $0["status"] } == ["left", "left"])
        #expect((ranking.first?["distance_m"]?.doubleValue ?? 0) > (before.first?["distance_m"]?.doubleValue ?? 0))
        let export = try client.call(["op": "users.export", "user": "ana"])
        let races = try #require(export["result"]?["races"]?.arrayValue, "\(JSONWriter.string(export).prefix(300))")
        #expect(races.map { $0["race_id"]?.stringValue } == [race])
        #expect(races.first?["host"] == true)
        #expect(races.first?["result"]?["status"] == "left")
        // The watcher saw the race end, every event numbered above the last.
        var seqs: [Double] = []
        var finished = false
        while !finished, let line = try watcher.readLine() {
            let event = try JSONParser.parse(line)
            if let seq = event["seq"]?.doubleValue { seqs.append(seq) }
            finished = event["event"] == "race.finished"
        }
        #expect(finished)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "\(seqs)")
        client.close()
        second.signal(SIGTERM)
        #expect(second.wait() == .exited(0))
    }

    @Test("the refusal names the file and the running daemon's pid")
    func refusalMessage() throws {
        let dir = TemporaryDirectory("servelock")
        defer { dir.cleanup() }
        let db = dir.file("x.sqlite")
        let held = try ServeLock(databasePath: db, now: 1_800_000_000)
        defer { held.release() }
        // flock locks belong to the open file description: a second open in this process
        // conflicts as a second process would.
        #expect {
            _ = try ServeLock(databasePath: db, now: 1_800_000_001)
        } throws: { error in
            let text = "\(error)"
            return text.contains(db) && text.contains("pid \(getpid())") && text.contains("since 1800000000")
        }
        held.release()
        let again = try ServeLock(databasePath: db, now: 1_800_000_002)
        again.release()
    }
}
