import Testing
import Foundation
import Synchronization
import RunusCore
import Tracking
import Server
import Storage
import Engine
@testable import Service
@testable import RunusCLI

/// A clock the test moves by hand.
final class ManualClock: Clock, @unchecked Sendable {
    private let instant: Mutex<EpochSeconds>
    init(_ start: EpochSeconds) { instant = Mutex(start) }
    func now() -> EpochSeconds { instant.withLock { $0 } }
    func set(_ t: EpochSeconds) { instant.withLock { $0 = t } }
}

/// Issue 10 over real sockets: simulated runners join, count down, start, send positions
/// (one leaves, one drives), watchers get live rankings, and the results match the distances
/// and crossing times computed offline from the same points.
@Suite("race over sockets", .serialized)
struct RaceSocketTests {
    static let start: EpochSeconds = 1_800_000_600
    static let distance: Meters = 2000

    /// Points one second apart heading north-east from a runner's own start point.
    static func points(from: Int, to: Int, origin: (Double, Double), speed: (Int) -> Double, offset: inout Meters) -> [TrackPoint] {
        (from...to).map { s in
            if s > from { offset += speed(s) }
            let p = Geodesy.destination(latitude: origin.0, longitude: origin.1, bearing: 45, distance: offset)
            return TrackPoint(time: start + Double(s), latitude: p.latitude, longitude: p.longitude)
        }
    }

    static func wire(_ points: [TrackPoint]) -> JSONValue {
        .array(points.map { [.number($0.time), .number($0.latitude), .number($0.longitude)] })
    }

    @Test("joins, countdown, start, live rankings, a leaver, a car cheat, and results that match offline")
    func race() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.file("race.sqlite"))
        let runners = ["ana", "bo", "cy", "dee"]
        // Display names (issue 24): ana and cy have one, bo and dee do not.
        let names = ["ana": "Ana K.", "cy": "Cy 🏃"]
        for u in runners { try store.upsertUser(UserProfile(id: u, timeZone: "UTC", displayName: names[u])) }
        let clock = ManualClock(Self.start - 60)
        let pusher = ServerPusher()
        let races = RaceOperations(store: store, resolver: SystemTimeZones(), clock: clock, pusher: pusher)
        let router = Router()
        races.register(on: router)
        var configuration = ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)])
        configuration.log = { _ in }
        let server = LineServer(configuration: configuration, router: router)
        pusher.attach(server)
        server.onConnectionClosed { races.connectionClosed($0) }
        let address = try server.start()[0]
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { try? server.run(); done.signal() }
        defer { server.stop(); _ = done.wait(timeout: .now() + 10) }

        let organiser = try LineClient(address: address, timeout: .seconds(10))
        let created = try organiser.call(["op": "race.create", "user": "ana", "name": "Test 2K", "distance_m": .number(Self.distance),
                                          "start_time": .number(Self.start), "capacity": 10])
        let raceID = try #require(created["result"]?["race_id"]?.stringValue, "\(JSONWriter.string(created))")
        #expect(created["result"]?["created_by"] == "ana")

        let watcher = try LineClient(address: address, timeout: .seconds(10))
        #expect(try watcher.call(["op": "race.watch", "race_id": .string(raceID)])["result"]?["watching"] == true)
        var clients: [String: LineClient] = [:], tokens: [String: String] = [:]
        for u in runners {
            let c = try LineClient(address: address, timeout: .seconds(10))
            let joined = try c.call(["op": "race.join", "race_id": .string(raceID), "user": .string(u)])
            tokens[u] = try #require(joined["result"]?["participant_token"]?.stringValue)
            clients[u] = c
        }
        // Each join pushed a waiting event with the participants so far and the countdown.
        var waiting: [JSONValue] = []
        for _ in runners { waiting.append(try watcher.readAnswer()) }
        #expect(waiting.allSatisfy { $0["event"] == "race.waiting" && $0["countdown_s"]?.intValue == 60 })
        #expect(waiting.last?["participants"]?.arrayValue?.count == 4)
        let late = try organiser.call(["op": "race.join", "race_id": .string(raceID), "user": "ana"])
        #expect(late["error"]?["code"] == "bad_request")

        // The start: the clock reaches the start time and the room starts by itself.
        clock.set(Self.start)
        races.tick()
        #expect(try watcher.readAnswer()["event"] == "race.started")
        #expect(try watcher.readAnswer()["event"] == "race.ranking")

        // Positions in 60-second chunks. ana 4 m/s, bo 3.5 m/s, cy 3 m/s then leaves at 300 s,
        // dee runs 2.5 m/s but drives 12 m/s from 120 s to 240 s.
        let speeds: [String: (Int) -> Double] = [
            "ana": { _ in 4 }, "bo": { _ in 3.5 }, "cy": { _ in 3 }, "dee": { (121...240).contains($0) ? 12 : 2.5 },
        ]
        let origins: [String: (Double, Double)] = ["ana": (48.8, 2.3), "bo": (37.5, 127.0), "cy": (-1.3, 36.8), "dee": (40.7, -74.0)]
        var offsets: [String: Meters] = [:], sent: [String: [TrackPoint]] = [:]
        var rankings: [[JSONValue]] = []
        for chunk in 0..<10 {
            for u in runners {
                if u == "cy", chunk == 5 {
                    _ = try clients[u]!.call(["op": "race.leave", "race_id": .string(raceID), "participant_token": .string(tokens[u]!)])
                    _ = try watcher.readAnswer()
                    continue
                }
                if u == "cy", chunk > 5 { continue }
                // A runner past the line stops sending (a finished runner's points change nothing).
                if (offsets[u] ?? 0) >= Self.distance + 50 { continue }
                var offset = offsets[u] ?? 0
                let pts = Self.points(from: chunk == 0 ? 0 : chunk * 60 + 1, to: chunk * 60 + 60, origin: origins[u]!,
                                      speed: speeds[u]!, offset: &offset)
                offsets[u] = offset
                sent[u, default: []] += pts
                clock.set(pts.last!.time)
                let answer = try clients[u]!.call(["op": "race.position", "race_id": .string(raceID),
                                                   "participant_token": .string(tokens[u]!), "points": Self.wire(pts)])
                if answer["error"] != nil { break }  // the race may be over
                let event = try watcher.readAnswer()
                if event["event"] == "race.ranking" { rankings.append(event["ranking"]?.arrayValue ?? []) }
                if event["event"] == "race.finished" { break }
            }
        }
        // Live rankings: after the first minute ana leads; the car never puts dee ahead of bo.
        let firstFull = try #require(rankings.first { $0.count == 4 })
        #expect(firstFull.first?["user"] == "ana")
        for ranking in rankings where ranking.count == 4 {
            let order = ranking.compactMap { $0["user"]?.stringValue }
            #expect(order.firstIndex(of: "bo")! < order.firstIndex(of: "dee")!, "\(order)")
        }

        // The race ends at the cutoff for whoever is still out; results match offline figures.
        clock.set(Self.start + 3600)
        races.tick()
        let results = try organiser.call(["op": "race.results", "race_id": .string(raceID)])
        let ranking = try #require(results["result"]?["ranking"]?.arrayValue, "\(JSONWriter.string(results))")
        #expect(ranking.compactMap { $0["user"]?.stringValue } == ["ana", "bo", "dee", "cy"])
        #expect(ranking.compactMap { $0["status"]?.stringValue } == ["finished", "finished", "out_of_time", "left"])
        #expect(ranking.map { $0["display_name"] } == [.string("Ana K."), .null, .null, .string("Cy 🏃")])
        for entry in ranking.prefix(2) {
            let user = entry["user"]!.stringValue!
            let offline = RunMetrics(track: Track(points: sent[user]!))
            let crossing = try #require(offline.profile.time(atDistance: Self.distance))
            // Both sides round to 0.1 s on the wire.
            #expect(abs((entry["finish_time_s"]?.doubleValue ?? 0) - (crossing - Self.start)) <= 0.1)
        }
        let dee = ranking[2]
        let deeOffline = RunMetrics(track: Track(points: sent["dee"]!)).distance
        #expect(abs((dee["distance_m"]?.doubleValue ?? 0) - deeOffline) <= 0.1)
        #expect(deeOffline < 0.8 * offsets["dee"]!, "the drive must not count: \(deeOffline) of \(offsets["dee"]!)")
        #expect(results["result"]?["top_three"]?.arrayValue?.count == 2)
        let awards = results["result"]?["awards"]?.arrayValue ?? []
        #expect(awards.first { $0["user"] == "ana" }?["xp"]?.intValue == 50 + 20 + 100)
    }

    @Test("a race_id that no daemon could have made is not_found at once, for every race operation; a well-formed unknown one too")
    func malformedRaceIDs() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.file("ids.sqlite"))
        try store.upsertUser(UserProfile(id: "ana", timeZone: "UTC"))
        let races = RaceOperations(store: store, resolver: SystemTimeZones(), clock: ManualClock(Self.start - 60), pusher: ServerPusher())
        let router = Router()
        races.register(on: router)
        let ids = ["race-1", "", "race-\u{0}" + String(repeating: "a", count: 31), "race-" + String(repeating: "A", count: 32),
                   "race-" + String(repeating: "a", count: 33), "RACE-" + String(repeating: "0", count: 32),
                   "race-" + String(repeating: "0", count: 32)]  // well formed, but there is none
        for id in ids {
            // A well-formed id reaches the operation's own checks (its points first, for race.position).
            let wellFormed = RaceOperations.isWellFormedRaceID(id)
            for op in ["race.join", "race.leave", "race.watch", "race.position", "race.results", "race.cancel"]
                where !(wellFormed && op == "race.position") {
                let answer = router.answer(to: ["op": .string(op), "race_id": .string(id), "user": "ana", "participant_token": "t",
                                                "points": [[.number(Self.start), 45, 7]]])
                #expect(answer.errorCode == "not_found", "\(op) \(id.debugDescription): \(JSONWriter.string(answer).prefix(200))")
                #expect(answer["error"]?["field"] == "race_id")
            }
        }
        #expect(RaceOperations.isWellFormedRaceID("race-" + RaceOperations.secret()))
        #expect(!RaceOperations.isWellFormedRaceID("race-1"))
    }

    @Test("runners whose ids are one Swift String but differ in bytes (\"jos\\u{E9}\", \"jose\\u{301}\") each join a race and show their own display name; only the creator is its host")
    func displayNamesByIdBytes() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.file("names.sqlite"))
        let (composed, decomposed) = ("jos\u{E9}", "jose\u{301}")
        try store.upsertUser(UserProfile(id: composed, timeZone: "UTC", displayName: "José A."))
        try store.upsertUser(UserProfile(id: decomposed, timeZone: "UTC", displayName: "José B."))
        let races = RaceOperations(store: store, resolver: SystemTimeZones(), clock: ManualClock(Self.start - 60), pusher: ServerPusher())
        let router = Router()
        races.register(on: router)
        let created = router.answer(to: ["op": "race.create", "user": .string(composed), "name": "2K", "distance_m": 2000,
                                         "start_time": .number(Self.start)])
        let race = try #require(created["result"]?["race_id"]?.stringValue, "\(JSONWriter.string(created))")
        for user in [composed, decomposed] {
            let joined = router.answer(to: ["op": "race.join", "race_id": .string(race), "user": .string(user)])
            #expect(joined["ok"] == true, "\(JSONWriter.string(joined).prefix(300))")
        }
        let watched = router.answer(to: ["op": "race.watch", "race_id": .string(race)])
        let participants = try #require(watched["result"]?["race"]?["participants"]?.arrayValue, "\(JSONWriter.string(watched).prefix(400))")
        let shown = participants.map { (Array(($0["user"]?.stringValue ?? "").utf8), $0["display_name"]?.stringValue) }
        #expect(shown.map(\.0) == [Array(composed.utf8), Array(decomposed.utf8)], "both joined, as two runners")
        #expect(shown.map(\.1) == ["José A.", "José B."])
        // Each runner's export shows their own result row, and only the creator as the host.
        try store.insertRaceResults([composed, decomposed].enumerated().map { i, user in
            StoredRaceResult(raceID: race, rank: i + 1, userID: user, status: "finished", distance: 2000, finishTime: 600 + Double(i),
                             pace: 300, gap: 0, timeGap: Double(i), xp: 100 - i, badges: [], finishedAt: Self.start + 700)
        })
        for (i, user) in [composed, decomposed].enumerated() {
            let exported = try #require(try RunnerProfiles(store: store).export(user).races.first)
            #expect(exported.result?.rank == i + 1 && ExactText.same(exported.result?.userID ?? "", user), "\(user.debugDescription)")
        }
        // Only the creator, by the bytes of the id, is the host.
        let refused = router.answer(to: ["op": "race.cancel", "race_id": .string(race), "user": .string(decomposed)])
        #expect(refused["error"]?["field"] == "user", "\(JSONWriter.string(refused).prefix(300))")
        #expect(router.answer(to: ["op": "race.cancel", "race_id": .string(race), "user": .string(composed)])["ok"] == true)
    }
}
