import Testing
import Foundation
import RunusCore
import Server
@testable import ModelStore
@testable import RunusCLI

/// Record 0553 on replicas: a runner deleted through one daemon leaves the rooms of the others,
/// told through the peer channel.
@Suite("a runner deleted on one replica leaves the other's rooms (record 0553)", .serialized)
struct ReplicaDeletionTests {
    @Test("bo races through A and is deleted through B: A refuses his token and ranks ana alone")
    func deletedOnTheOtherReplica() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let (uri, drop) = try ReplicaDaemonTests.schemaURI()
        defer { drop() }
        let dir = TemporaryDirectory("replica-delete")
        defer { dir.cleanup() }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "replica-1"), card: "test", to: dir.file("model"))
        let a = try ChildDaemon(executable: executable, db: uri, model: dir.file("model"), socket: dir.file("a.sock"))
        let b = try ChildDaemon(executable: executable, db: uri, model: dir.file("model"), socket: dir.file("b.sock"))
        defer { a.signal(SIGKILL); b.signal(SIGKILL) }
        let clientA = try LineClient(address: .unix(path: a.socket), timeout: .seconds(30))
        let clientB = try LineClient(address: .unix(path: b.socket), timeout: .seconds(30))
        for user in ["ana", "bo"] {
            #expect(try clientA.call(["op": "users.upsert", "user": .string(user), "time_zone": "UTC"])["ok"] == true)
        }
        let start = (ReplicaDaemonTests.now() + 2).rounded(.up)
        let created = try clientA.call(["op": "race.create", "user": "ana", "name": "r", "distance_m": 5000, "start_time": .number(start)])
        let race = try #require(created["result"]?["race_id"]?.stringValue, "\(created)")
        var tokens: [String: String] = [:]
        for user in ["ana", "bo"] {
            let joined = try clientA.call(["op": "race.join", "race_id": .string(race), "user": .string(user)])
            tokens[user] = try #require(joined["result"]?["participant_token"]?.stringValue, "\(joined)")
        }
        while ReplicaDaemonTests.now() < start + 2.2 { usleep(50_000) }
        func position(_ user: String, speed: Double) throws -> JSONValue {
            let points = ReplicaDaemonTests.points(45, from: start, to: ReplicaDaemonTests.now().rounded(.down), speed: speed, start: start)
            return try clientA.call(["op": "race.position", "race_id": .string(race), "participant_token": .string(tokens[user] ?? ""),
                                     "points": ReplicaDaemonTests.json(points)])
        }
        #expect(try position("bo", speed: 5)["ok"] == true)
        #expect(try position("ana", speed: 3)["ok"] == true)

        #expect(try clientB.call(["op": "users.delete", "user": "bo"])["result"]?["deleted"] == true)
        // A hears through the peer channel: its room drops bo (bounded wait, checked often).
        let deadline = ContinuousClock.now + .seconds(20)
        var refused = false
        while !refused, ContinuousClock.now < deadline {
            refused = try position("bo", speed: 5)["ok"] == false
            if !refused { usleep(50_000) }
        }
        #expect(refused, "replica A still took the deleted runner's positions")
        let watched = try LineClient(address: .unix(path: a.socket), timeout: .seconds(30)).call(["op": "race.watch", "race_id": .string(race)])
        let ranked = watched["result"]?["ranking"]?.arrayValue?.compactMap { $0["user"]?.stringValue } ?? []
        #expect(ranked == ["ana"], "\(JSONWriter.string(watched).prefix(400))")
    }
}
