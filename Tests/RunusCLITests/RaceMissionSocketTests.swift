import Testing
import Foundation
import RunusCore
import Tracking
import Engine
@testable import Service

/// Record 0649 through a daemon wired as `runus serve` wires it: `missions.today` shows the
/// mission of a race the runner joined at once, keeps it through a refresh, and shows it
/// completed as soon as the race's run is stored (the answers it had cached are forgotten);
/// the race's start adds a podium (record 0652), which the result decides too.
@Suite("race missions over sockets", .serialized)
struct RaceMissionSocketTests {
    @Test("a joined race's mission appears in missions.today, survives a refresh, and is completed by the race's run, also after a cached answer; the start lists a podium")
    func todayFollowsTheRace() throws {
        let clock = ManualClock(1_800_000_000)
        let daemon = try ProductionDaemon(clock: clock)
        defer { daemon.stop() }
        let client = try daemon.client()
        _ = try client.call(["op": "users.upsert", "user": "runner-0002", "time_zone": "Asia/Seoul"])
        func today(_ user: String, refresh: Bool = false) throws -> [JSONValue] {
            let answer = try client.call(["op": "missions.today", "user": .string(user), "refresh": .bool(refresh)])
            return try #require(answer["result"]?["missions"]?.arrayValue, "\(JSONWriter.string(answer))")
        }
        let before = try today("runner-0001")
        #expect(!before.isEmpty && before.allSatisfy { $0["race"] == false })

        let start = RaceSocketTests.start
        let created = try client.call(["op": "race.create", "user": "runner-0001", "name": "1K", "distance_m": 1000,
                                       "start_time": .number(start)])
        let race = try #require(created["result"]?["race_id"]?.stringValue, "\(JSONWriter.string(created))")
        var tokens: [String: String] = [:], offered: [String: JSONValue] = [:]
        for user in ["runner-0001", "runner-0002"] {
            let joined = try client.call(["op": "race.join", "race_id": .string(race), "user": .string(user)])
            tokens[user] = try #require(joined["result"]?["participant_token"]?.stringValue, "\(JSONWriter.string(joined))")
            offered[user] = joined["result"]?["mission"]
        }
        // A second race of the same distance that day offers nothing more (two hours later: a
        // runner races one race at a time, record 0550).
        let twin = try client.call(["op": "race.create", "user": "runner-0002", "name": "1K again", "distance_m": 1000,
                                    "start_time": .number(start + 7200)])
        let twinID = try #require(twin["result"]?["race_id"]?.stringValue)
        let again = try client.call(["op": "race.join", "race_id": .string(twinID), "user": "runner-0001"])
        #expect(again["result"]?["mission"] == .null, "\(JSONWriter.string(again))")
        // The cached answer of runner-0001 is gone: the race mission is listed.
        let joined = try today("runner-0001")
        let mission = try #require(joined.first { $0["race"] == true }, "\(joined)")
        #expect(mission["kind"] == "race_finish" && mission["status"] == "offered")
        #expect(mission["spec"]?["min_distance_m"]?.doubleValue == 1000)
        #expect(mission["p_complete"]?.doubleValue == RaceMissions.priorFinishRate)
        #expect(mission["custom"] == false && mission["stretch"] == false)
        #expect(joined.count == before.count + 1)
        // The join answered the same mission, with its day.
        let answered = try #require(offered["runner-0001"])
        #expect(answered["id"] == mission["id"] && answered["xp"] == mission["xp"] && answered["race"] == true)
        #expect(answered["day"] == "2027-01-15")
        let refreshed = try today("runner-0001", refresh: true)
        #expect(refreshed.filter { $0["race"] == true } == [mission], "a refresh keeps the race mission")
        let cached = try today("runner-0001")
        #expect(cached.contains(mission))

        // The race: runner-0001 runs 1 km at 4 m/s, runner-0002 100 s at 2 m/s and no more.
        clock.set(start)
        daemon.races.tick()
        // The start offered a podium (record 0652): in a field of two, the win. The one of the two
        // more likely to win has at least 0.85 × (0.15 + 0.85 / 2) ≥ 0.4 of it, so one is offered.
        var podiums: [String: JSONValue] = [:]
        for user in ["runner-0001", "runner-0002"] {
            let listed = try today(user).filter { $0["kind"] == "podium" }
            #expect(listed.count <= 1, "\(user): \(listed)")
            guard let podium = listed.first else { continue }
            #expect(podium["race"] == true && podium["status"] == "offered" && podium["spec"]?["max_place"]?.doubleValue == 1)
            #expect((podium["p_complete"]?.doubleValue ?? 0) >= RaceMissions.podiumFloor, "\(podium)")
            #expect(podium["first_day"] == "2027-01-15" && podium["last_day"] == "2027-01-15")
            #expect(podium["why"]?.stringValue?.contains("a win") == true, "\(podium)")
            podiums[user] = podium
        }
        #expect(!podiums.isEmpty, "the likelier winner of two is offered the win")
        for (user, speed, seconds) in [("runner-0001", 4.0, 300), ("runner-0002", 2.0, 100)] {
            var offset: Meters = 0
            for chunk in stride(from: 0, to: seconds, by: 60) {
                let points = RaceSocketTests.points(from: chunk == 0 ? 0 : chunk + 1, to: min(seconds, chunk + 60),
                                                    origin: (37.5, 127.0), speed: { _ in speed }, offset: &offset)
                clock.set(points.last!.time)
                _ = try client.call(["op": "race.position", "race_id": .string(race), "participant_token": .string(tokens[user]!),
                                     "points": RaceSocketTests.wire(points)])
            }
        }
        clock.set(start + 3600)
        daemon.races.tick()
        let results = try client.call(["op": "race.results", "race_id": .string(race)])
        #expect(results["result"]?["ranking"]?[0]?["user"] == "runner-0001", "\(JSONWriter.string(results))")

        let after = try today("runner-0001")
        let decided = try #require(after.first { $0["kind"] == "race_finish" })
        #expect(decided["status"] == "completed", "\(decided)")
        let other = try #require(try today("runner-0002").first { $0["kind"] == "race_finish" })
        #expect(other["status"] == "offered", "out of time is no finish: \(other)")
        // runner-0001 won: their podium, if offered, is completed; runner-0002's is not.
        if podiums["runner-0001"] != nil {
            #expect(after.first { $0["kind"] == "podium" }?["status"] == "completed", "\(after)")
        }
        if podiums["runner-0002"] != nil {
            #expect(try today("runner-0002").first { $0["kind"] == "podium" }?["status"] == "offered")
        }
        let history = try client.call(["op": "missions.history", "user": "runner-0001", "from": "2027-01-15", "to": "2027-01-15"])
        let row = try #require(history["result"]?["missions"]?.arrayValue?.first { $0["kind"] == "race_finish" }, "\(JSONWriter.string(history))")
        #expect(row["status"] == "completed" && row["run_id"]?.stringValue == race)
        #expect(row["xp_awarded"] == mission["xp"])
    }
}
