import Testing
import Foundation
import RunusCore
import Tracking
import Missions
import Engine
import Server
@testable import Service
@testable import RunusCLI

/// A runner's day over a real socket (issue 24, items 2 and 4; records 0153, 0533–0536): the
/// runner sets missions of their own (`missions.custom`), follows them with the pace still
/// needed (`missions.progress`), and a run with a bus ride in the middle is answered with every
/// open mission's verdict, the part left out and a climb without the bus
/// (`runs.ingest`). The daemon is `ProductionDaemon` (runner-0001, Asia/Seoul) on a clock
/// the test moves.
@Suite("a runner's missions over a day, on a socket", .serialized)
struct MissionDaySocketTests {
    /// 2027-01-15 15:00 in Seoul.
    static let setAt: EpochSeconds = 1_800_000_000 - 7200
    /// Climbs are exact on these synthetic heights; the vehicle parts' edges move by up to a
    /// window half-width (5 s) of either neighbour, which at most adds that much of the run's
    /// climb (0.06 m/s) and of the bus's (0.375 m/s) at each end.
    static let climbTolerance: Meters = 6
    /// Seconds a vehicle part's edge may move (a window half-width and a fix or two).
    static let edgeTolerance: Seconds = 15
    /// Progress and paces are answered rounded (4 decimals, a tenth of a second).
    static let progressTolerance = 1e-3
    static let paceTolerance = 0.06

    /// `[t, lat, lon, ele]` at 1 Hz along straight legs, each `distance` metres at `speed` m/s
    /// climbing `climb` metres evenly, from `start` at 50 m.
    static func points(_ legs: [(distance: Meters, speed: Double, climb: Meters)], start: EpochSeconds) -> JSONValue {
        var lat = 37.5665, lon = 126.978, t = start, ele = 50.0
        var out: [JSONValue] = [[.number(t), .number(lat), .number(lon), .number(ele)]]
        for leg in legs {
            var covered = 0.0
            while covered < leg.distance - 1e-9 {
                let step = min(leg.speed, leg.distance - covered)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: 10, distance: step)
                lat = p.latitude; lon = p.longitude; t += step / leg.speed; covered += step
                ele += leg.climb * step / leg.distance
                out.append([.number(t), .number(lat), .number(lon), .number(ele)])
            }
        }
        return .array(out)
    }

    /// 2 km climbing 40 m at 330 s/km, a 6 km bus ride at 15 m/s climbing 150 m, 2 km flat.
    static let busLegs: [(distance: Meters, speed: Double, climb: Meters)] = [(2000, 1000 / 330, 40), (6000, 15, 150), (2000, 1000 / 330, 0)]

    func call(_ client: LineClient, _ request: JSONValue) throws -> JSONValue {
        let answer = try client.call(request)
        return try #require(answer["result"], "\(JSONWriter.string(answer).prefix(600))")
    }

    func custom(_ client: LineClient, _ spec: JSONValue, date: String? = nil) throws -> JSONValue {
        var request: JSONValue = ["op": "missions.custom", "user": "runner-0001", "spec": spec]
        if let date, case .object(var m) = request { m["date"] = .string(date); request = .object(m) }
        return try client.call(request)
    }

    @Test("custom missions are scored, stored and listed everywhere; a run answers every open mission's verdict, its bus ride and a climb without it")
    func dayWithCustomMissionsAndABusRide() throws {
        let clock = ManualClock(Self.setAt)
        let daemon = try ProductionDaemon(clock: clock)
        defer { daemon.stop() }
        let client = try daemon.client()

        // The day's offers, the stretch one flagged among them (record 0536).
        let today = try call(client, ["op": "missions.today", "user": "runner-0001"])
        let offered = try #require(today["missions"]?.arrayValue)
        #expect(offered.filter { $0["stretch"] == false }.count == 3)
        #expect(offered.allSatisfy { $0["custom"] == false && $0["id"]?.stringValue?.contains(":") == false })

        // missions.custom: scored as missions.score scores it, worth MissionXP at that probability.
        let distanceSpec: JSONValue = ["kind": "distance", "distance_m": 1000]
        let hillsSpec: JSONValue = ["kind": "hills", "min_ascent_m": 100]
        let first = try custom(client, distanceSpec)
        let c1 = try #require(first["result"]?["mission"], "\(JSONWriter.string(first))")
        #expect(c1["id"] == "custom:2027-01-15:1" && c1["custom"] == true && c1["stretch"] == false && c1["status"] == "offered")
        let scored = try call(client, ["op": "missions.score", "user": "runner-0001", "specs": [distanceSpec, hillsSpec]])["missions"]?.arrayValue
        let p1 = try #require(c1["p_complete"]?.doubleValue)
        #expect(c1["p_complete"] == scored?[0]["p_complete"] && c1["xp"] == scored?[0]["xp"])
        #expect(c1["xp"]?.intValue == MissionXP.xp(for: try MissionSpec(json: distanceSpec), pComplete: p1))
        #expect(first["result"]?["reason"] == .null && first["result"]?["model_version"] == today["model_version"])
        let c2 = try #require(try custom(client, hillsSpec)["result"]?["mission"])
        #expect(c2["id"] == "custom:2027-01-15:2" && c2["xp"] == scored?[1]["xp"])
        // An unmodelled kind: no probability, the reason, and the XP of no difficulty bonus.
        // (Streak: feature schema v5 models new ground and personal bests now, not streaks, record 0647.)
        let loopSpec: JSONValue = ["kind": "streak", "days": 3]
        let loop = try custom(client, loopSpec, date: "2027-01-16")
        #expect(loop["result"]?["mission"]?["p_complete"] == .null && loop["result"]?["mission"]?["id"] == "custom:2027-01-16:1")
        #expect(loop["result"]?["reason"]?.stringValue?.contains("not modelled") == true)
        #expect(loop["result"]?["mission"]?["xp"]?.intValue == MissionXP.xp(for: try MissionSpec(json: loopSpec), pComplete: .nan))

        // What is refused, naming the parameter.
        func refusal(_ answer: JSONValue) -> (String?, String?, String) {
            (answer.errorCode, answer["error"]?["field"]?.stringValue, answer["error"]?["message"]?.stringValue ?? "")
        }
        let duplicate = refusal(try custom(client, hillsSpec))
        #expect(duplicate.0 == "bad_request" && duplicate.1 == "spec" && duplicate.2.contains("custom:2027-01-15:2"), "\(duplicate)")
        let race = refusal(try custom(client, ["kind": "podium", "max_place": 3]))
        #expect(race.0 == "bad_request" && race.1 == "spec" && race.2.contains("race"), "\(race)")
        let range = refusal(try custom(client, ["kind": "distance", "distance_m": 1e6]))
        #expect(range.0 == "bad_request" && range.1 == "spec" && range.2.contains("\"distance_m\" = 1000000.0 is outside"), "\(range)")
        let unknown = refusal(try custom(client, ["kind": "swim", "distance_m": 1000]))
        #expect(unknown.0 == "bad_request" && unknown.2.contains("unknown kind \"swim\""), "\(unknown)")
        let extra = refusal(try custom(client, ["kind": "distance", "distance_m": 1000, "pace": 300]))
        #expect(extra.0 == "bad_request" && extra.2.contains("unexpected parameter \"pace\""), "\(extra)")
        let yesterday = refusal(try custom(client, distanceSpec, date: "2027-01-14"))
        #expect(yesterday.0 == "bad_request" && yesterday.1 == "date", "\(yesterday)")
        #expect(try custom(client, ["kind": "distance"]).errorCode == "bad_request")
        #expect(try client.call(["op": "missions.custom", "user": "runner-0001"]).errorCode == "bad_request")
        #expect(try client.call(["op": "missions.custom", "user": "nobody", "spec": distanceSpec]).errorCode == "not_found")

        // A run done before the missions were set, synced now: it may complete the day's first
        // set (chosen without knowing it), never a mission set after it ended (record 0535).
        clock.set(Self.setAt + 30)
        let early = try call(client, ["op": "runs.ingest", "user": "runner-0001", "run_id": "early",
                                      "points": Self.points([(1500, 1000 / 330, 0)], start: Self.setAt - 3000)])
        let earlyMissions = try #require(early["missions"]?.arrayValue)
        for id in ["custom:2027-01-15:1", "custom:2027-01-15:2"] {
            let m = try #require(earlyMissions.first { $0["id"]?.stringValue == id })
            #expect(m["verdict"] == "not_checked" && m["status"] == "offered" && m["progress"] == 0 && m["xp_awarded"] == 0)
            #expect(m["evidence"] == [.string(RunIngestion.setAfterRun)])
        }
        #expect(earlyMissions.filter { $0["custom"] == false }.allSatisfy { $0["verdict"] != "not_checked" })

        // The third mission of the day; a fourth is over the cap.
        let paceSpec: JSONValue = ["kind": "pace", "max_pace_s_per_km": 330, "min_distance_m": 5000]
        let c3 = try #require(try custom(client, paceSpec)["result"]?["mission"])
        #expect(c3["id"] == "custom:2027-01-15:3")
        let cap = refusal(try custom(client, ["kind": "duration", "duration_s": 600]))
        #expect(cap.0 == "bad_request" && cap.2.contains("3 missions"), "\(cap)")

        // Every list has the same missions, flagged: today (the cache forgot its answer), progress.
        let again = try #require(try call(client, ["op": "missions.today", "user": "runner-0001"])["missions"]?.arrayValue)
        #expect(again.compactMap { $0["id"] }.filter { $0.stringValue?.hasPrefix("custom:") == true }
            == ["custom:2027-01-15:1", "custom:2027-01-15:2", "custom:2027-01-15:3"])
        #expect(again.first { $0["id"] == "custom:2027-01-15:1" } == c1)
        let progress = try #require(try call(client, ["op": "missions.progress", "user": "runner-0001"])["missions"]?.arrayValue)
        #expect(Set(progress.compactMap(\.["id"]?.stringValue)) == Set(again.compactMap(\.["id"]?.stringValue)))
        for m in progress {
            let listed = try #require(again.first { $0["id"] == m["id"] })
            #expect(m["stretch"] == listed["stretch"] && m["custom"] == listed["custom"])
        }
        // The pace needed: the whole target before a run; the rest of it during one.
        let notStarted = try #require(progress.first { $0["id"] == "custom:2027-01-15:3" })
        #expect(notStarted["pace_needed"] == ["remaining_m": 5000, "moving_pace_s_per_km": 330])
        #expect(progress.first { $0["id"] == "custom:2027-01-15:2" }?["pace_needed"] == .null)
        let start = Self.setAt + 60
        let all = try #require(Self.points(Self.busLegs, start: start).arrayValue)
        let firstLeg = JSONValue.array(Array(all.prefix(661)))
        clock.set(start + 700)
        let live = try #require(try call(client, ["op": "missions.progress", "user": "runner-0001", "points": firstLeg])["missions"]?.arrayValue)
        let partial = RunMetrics(track: try WireTrack.track(from: firstLeg, op: "test"))
        let needed = (330 * 5 - partial.moving) / ((5000 - partial.distance) / 1000)
        let livePace = try #require(live.first { $0["id"] == "custom:2027-01-15:3" }?["pace_needed"])
        #expect(abs((livePace["remaining_m"]?.doubleValue ?? 0) - (5000 - partial.distance)) < Self.paceTolerance)
        #expect(abs((livePace["moving_pace_s_per_km"]?.doubleValue ?? 0) - needed) < Self.paceTolerance, "\(livePace), expected \(needed)")

        // The run with the bus ride: 2 km on foot, 6 km by bus, 2 km on foot, ending 1,720 s later.
        let points = JSONValue.array(all)
        let end = try #require(all.last?[0]?.doubleValue)
        clock.set(end + 60)
        let ingest = try call(client, ["op": "runs.ingest", "user": "runner-0001", "run_id": "bus", "points": points])
        let run = try #require(ingest["run"])
        // The bus is left out, named with its place in the run and its length.
        let excluded = try #require(run["excluded"]?.arrayValue)
        #expect(excluded.count == 1, "\(excluded)")
        let bus = try #require(excluded.first)
        #expect(bus["activity"] == "vehicle")
        #expect(abs((bus["start_offset_s"]?.doubleValue ?? 0) - 660) <= Self.edgeTolerance, "\(bus)")
        #expect(abs((bus["end_offset_s"]?.doubleValue ?? 0) - 1060) <= Self.edgeTolerance, "\(bus)")
        #expect(abs((bus["path_m"]?.doubleValue ?? 0) - 6000) <= 2 * Self.edgeTolerance * 15, "\(bus)")
        #expect(abs((run["distance_m"]?.doubleValue ?? 0) - 4000) <= 2 * Self.edgeTolerance * 15, "\(run)")
        // The climb is the runs' 40 m, not the bus's 150 m, and it is what the hills check read.
        let gain = try #require(run["elevation_gain_m"]?.doubleValue)
        #expect(abs(gain - 40) <= Self.climbTolerance, "gain \(gain)")
        let missions = try #require(ingest["missions"]?.arrayValue)
        let hills = try #require(missions.first { $0["id"] == "custom:2027-01-15:2" })
        let sentence = try #require(hills["evidence"]?[0]?.stringValue)
        let climbed = try #require(Double(sentence.dropFirst("climbed ".count).prefix { $0.isNumber }), "\(sentence)")
        #expect(sentence.hasPrefix("climbed ") && abs(climbed - gain) <= 0.55, "\(sentence) vs \(gain)")
        #expect(hills["verdict"] == "not_completed" && hills["status"] == "offered" && hills["xp_awarded"] == 0)
        #expect(abs((hills["progress"]?.doubleValue ?? 0) - gain / (100 * MissionTolerance.default.ascentFraction)) < Self.progressTolerance)
        // The distance mission is completed and paid; the pace one is not (4 km of 5).
        let done = try #require(missions.first { $0["id"] == "custom:2027-01-15:1" })
        #expect(done["verdict"] == "completed" && done["status"] == "completed" && done["progress"] == 1)
        #expect(done["xp_awarded"] == c1["xp"] && done["custom"] == true && done["title"] == c1["title"])
        #expect(missions.first { $0["id"] == "custom:2027-01-15:3" }?["verdict"] == "not_completed")
        // Every mission open before the run is answered, with the verdict the offline check gives.
        let openBefore = Set(earlyMissions.filter { $0["status"] == "offered" }.compactMap(\.["id"]?.stringValue) + ["custom:2027-01-15:3"])
        #expect(Set(missions.compactMap(\.["id"]?.stringValue)) == openBefore)
        let track = try WireTrack.track(from: points, op: "test")
        for m in missions {
            let spec = try MissionSpec(json: try #require(m["spec"]))
            let verdict = try #require(m["verdict"]?.stringValue)
            #expect((verdict == "completed") == (m["status"] == "completed") && (verdict == "completed") == (m["xp_awarded"] == m["xp"]))
            #expect((m["best_progress"]?.doubleValue ?? -1) >= (m["progress"]?.doubleValue ?? 2) - Self.progressTolerance)
            guard !spec.kind.needsContext else { continue }
            let expected = MissionEvaluator.evaluate(spec, track: track)
            #expect((verdict == "completed") == (expected.status == .completed), "\(spec.canonicalJSON): \(verdict)")
            #expect(abs((m["progress"]?.doubleValue ?? -1) - expected.progress) < Self.progressTolerance, "\(spec.canonicalJSON)")
            #expect(m["evidence"] == .array(expected.evidence.map { .string($0) }), "\(spec.canonicalJSON)")
        }
        let awarded = missions.compactMap { $0["xp_awarded"]?.intValue }.reduce(0, +)
        #expect(ingest["xp"]?["missions"]?.intValue == awarded)

        // runs.get shows the same record, the same bus ride and the same splits.
        let got = try #require(try call(client, ["op": "runs.get", "user": "runner-0001", "run_id": "bus"])["run"])
        #expect(got["excluded"] == run["excluded"] && got["splits"] == run["splits"] && got["elevation_gain_m"] == run["elevation_gain_m"])
        let split = try #require(run["splits"]?[0])
        #expect(Set(split.objectValue?.keys.map { $0 } ?? []) == ["index", "distance_m", "moving_s", "moving_pace_s_per_km"])
    }

    /// 2027-01-15 00:00 in Seoul; days are counted from it.
    static let midnight15: EpochSeconds = 1_800_000_000 - 17 * 3600

    @Test("missions.history: day-end statuses on read, as ingest later writes them; replaced offers; filters and pages")
    func history() throws {
        let clock = ManualClock(Self.midnight15 - 2 * 86_400 + 8 * 3600)
        let daemon = try ProductionDaemon(clock: clock)
        defer { daemon.stop() }
        let client = try daemon.client()
        func history(_ extra: [String: JSONValue] = [:]) throws -> JSONValue {
            let request = JSONValue.object(["op": "missions.history", "user": "runner-0001", "from": "2027-01-13", "to": "2027-01-15"]
                .merging(extra) { $1 })
            return try call(client, request)
        }
        // The 13th: offers and no run. The 14th: offers, a mission of the runner's own, and a 2 km run.
        let day13 = try #require(try call(client, ["op": "missions.today", "user": "runner-0001"])["missions"]?.arrayValue)
        clock.set(Self.midnight15 - 86_400 + 8 * 3600)
        let day14 = try #require(try call(client, ["op": "missions.today", "user": "runner-0001"])["missions"]?.arrayValue)
        let own = try #require(try custom(client, ["kind": "distance", "distance_m": 1000])["result"]?["mission"])
        clock.set(Self.midnight15 - 86_400 + 9 * 3600)
        let run14 = try call(client, ["op": "runs.ingest", "user": "runner-0001", "run_id": "d14",
                                      "points": Self.points([(2000, 1000 / 330, 0)], start: Self.midnight15 - 86_400 + 8 * 3600 + 600)])
        #expect(run14["missions"]?.arrayValue?.first { $0["id"] == own["id"] }?["verdict"] == "completed")
        // The 15th: offers, then a refresh that replaces them.
        clock.set(Self.midnight15 + 12 * 3600)
        let first15 = try #require(try call(client, ["op": "missions.today", "user": "runner-0001"])["missions"]?.arrayValue)
        let refreshed = try #require(try call(client, ["op": "missions.today", "user": "runner-0001", "refresh": true])["missions"]?.arrayValue)
        #expect(Set(refreshed.compactMap(\.["id"]?.stringValue)).isDisjoint(with: first15.compactMap(\.["id"]?.stringValue)))

        let all = try history(["limit": 200])
        #expect(all["today"] == "2027-01-15" && all["offset"] == 0 && all["next_offset"] == .null)
        let entries = try #require(all["missions"]?.arrayValue)
        let stored = try daemon.store.assignments(user: "runner-0001", from: try #require(CivilDate(iso: "2027-01-13")),
                                                  to: try #require(CivilDate(iso: "2027-01-15")))
        #expect(all["total"]?.intValue == stored.count && entries.count == stored.count)
        // Newest day first, offer order within a day.
        #expect(entries.compactMap(\.["day"]?.stringValue) == entries.compactMap(\.["day"]?.stringValue).sorted(by: >))
        func status(_ id: JSONValue?) -> JSONValue? { entries.first { $0["id"] == id }?["status"] }
        // The 13th had no run: expired (written when the 14th's run arrived).
        for m in day13 { #expect(status(m["id"]) == "expired", "\(m)") }
        // The 14th: the own mission completed by the run, the offers failed (computed on read:
        // the store still says offered, since no later run closed the day).
        let ownEntry = try #require(entries.first { $0["id"] == own["id"] })
        #expect(ownEntry["status"] == "completed" && ownEntry["run_id"] == "d14" && ownEntry["progress"] == 1)
        #expect(ownEntry["xp_awarded"] == own["xp"] && ownEntry["custom"] == true && ownEntry["p_complete"] == own["p_complete"])
        for m in day14 {
            #expect(status(m["id"]) == "failed", "\(m)")
            #expect(stored.first { .string($0.id) == m["id"] }?.status == .offered)
        }
        // The 15th: the first set replaced, the refreshed one open.
        for m in first15 { #expect(status(m["id"]) == "replaced", "\(m)") }
        for m in refreshed { #expect(status(m["id"]) == "offered" && entries.first { $0["id"] == m["id"] }?["run_id"] == .null) }

        // Filters are the full list filtered; pages are the full list cut.
        typealias Filter = (parameters: [String: JSONValue], keeps: (JSONValue) -> Bool)
        let filters: [Filter] = [
            (["status": "failed"], { $0["status"] == "failed" }),
            (["status": ["failed", "expired"]], { $0["status"] == "failed" || $0["status"] == "expired" }),
            (["kind": "distance"], { $0["kind"] == "distance" }),
            (["kind": "distance", "status": "completed"], { $0["kind"] == "distance" && $0["status"] == "completed" }),
        ]
        for filter in filters {
            let filtered = try history(filter.parameters.merging(["limit": 200]) { $1 })
            let expected = entries.filter(filter.keeps)
            #expect(filtered["missions"]?.arrayValue == expected && filtered["total"]?.intValue == expected.count, "\(filter.parameters)")
        }
        #expect(entries.contains { $0["status"] == "failed" } && entries.contains { $0["kind"] == "distance" })
        var paged: [JSONValue] = [], offset: JSONValue = 0, pages = 0
        while offset != .null, pages < 50 {
            let page = try history(["limit": 2, "offset": offset])
            paged += page["missions"]?.arrayValue ?? []
            offset = page["next_offset"] ?? .null
            pages += 1
        }
        #expect(paged == entries && pages == (entries.count + 1) / 2)

        // Refused, naming the parameter.
        func field(_ extra: [String: JSONValue]) throws -> (String?, String?, Int?) {
            let a = try client.call(.object(["op": "missions.history", "user": "runner-0001", "from": "2027-01-13", "to": "2027-01-15"]
                .merging(extra) { $1 }))
            return (a.errorCode, a["error"]?["field"]?.stringValue, a["error"]?["index"]?.intValue)
        }
        #expect(try field(["kind": "swim"]) == ("bad_request", "kind", nil))
        #expect(try field(["status": ["failed", "done"]]) == ("bad_request", "status", 1))
        #expect(try field(["status": "done"]) == ("bad_request", "status", nil))
        #expect(try field(["limit": 0]) == ("bad_request", "limit", nil))
        #expect(try field(["limit": 201]) == ("bad_request", "limit", nil))
        #expect(try field(["offset": -1]) == ("bad_request", "offset", nil))
        #expect(try field(["from": "2027-01-16"]) == ("bad_request", "to", nil))
        #expect(try field(["from": "13 Jan"]) == ("bad_request", "from", nil))
        #expect(try client.call(["op": "missions.history", "user": "runner-0001", "from": "2027-01-13"]).errorCode == "bad_request")
        #expect(try client.call(["op": "missions.history", "user": "nobody", "from": "2027-01-13", "to": "2027-01-15"]).errorCode == "not_found")

        // A run on the 15th closes the 14th: ingest writes the status history showed on read.
        clock.set(Self.midnight15 + 13 * 3600)
        _ = try call(client, ["op": "runs.ingest", "user": "runner-0001", "run_id": "d15",
                              "points": Self.points([(1500, 1000 / 330, 0)], start: Self.midnight15 + 12 * 3600 + 600)])
        for m in day14 {
            #expect(try daemon.store.assignments(user: "runner-0001", day: try #require(CivilDate(iso: "2027-01-14")))
                .first { .string($0.id) == m["id"] }?.status == .failed)
        }
        let after = try #require(try history(["limit": 200])["missions"]?.arrayValue)
        #expect(after.filter { $0["day"] != "2027-01-15" } == entries.filter { $0["day"] != "2027-01-15" })
    }
}

extension JSONValue {
    /// The element at `index` of an array value.
    subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
