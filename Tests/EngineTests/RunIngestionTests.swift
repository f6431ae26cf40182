import Testing
import RunusCore
import Tracking
import Missions
@testable import Engine

/// A straight run at constant pace sampled every second, starting at `start`.
func straightRun(distance: Meters, pace: SecondsPerKm, start: EpochSeconds) -> Track {
    let speed = 1000 / pace
    var points: [TrackPoint] = []
    var covered: Meters = 0, t = start
    while true {
        let p = Geodesy.destination(latitude: 37.55, longitude: 126.98, bearing: 60, distance: covered)
        points.append(TrackPoint(time: t, latitude: p.latitude, longitude: p.longitude, elevation: 30))
        if covered >= distance { break }
        covered = min(distance, covered + speed)
        t += 1
    }
    return Track(points: points)
}

@Suite("RunIngestion")
struct RunIngestionTests {
    static let seoul = 9 * 3600
    let day = CivilDate(iso: "2026-11-29")!

    func store() throws -> InMemoryStore {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "min", weightKg: 60, timeZone: "Asia/Seoul", utcOffsetSeconds: Self.seoul))
        return store
    }

    @Test("sending the same run twice returns the same answer and awards nothing twice")
    func idempotent() throws {
        let store = try store()
        let ingestion = RunIngestion(store: store)
        let start = day.startInstant(utcOffset: Self.seoul) + 8 * 3600
        let track = straightRun(distance: 5200, pace: 330, start: start)
        let first = try ingestion.ingest(user: "min", clientRunID: "a1", track: track, now: start + 3600)
        let rewards = store.rewardCount
        let badges = try store.badges(user: "min").count
        let second = try ingestion.ingest(user: "min", clientRunID: "a1", track: track, now: start + 7200)
        #expect(second == first)
        #expect(store.rewardCount == rewards)
        #expect(try store.badges(user: "min").count == badges)
        #expect(first["xp"]?["run"]?.intValue == 52)
        let awarded = Set(first["badges_awarded"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(awarded == ["first_run", "first_5k"])
    }

    @Test("an offered mission completed by the run is marked, rewarded and explained")
    func completesMission() throws {
        let store = try store()
        let spec = MissionSpec.distance(minDistance: 5000)
        try store.insertAssignment(MissionAssignment(id: "m1", userID: "min", day: day, kind: "distance",
                                                     specJSON: spec.canonicalJSON, modelVersion: "t", pComplete: 0.7,
                                                     xp: 80, offeredAt: day.startInstant(utcOffset: Self.seoul)))
        let spec2 = MissionSpec.distance(minDistance: 10_000)
        try store.insertAssignment(MissionAssignment(id: "m2", userID: "min", day: day, kind: "distance",
                                                     specJSON: spec2.canonicalJSON, modelVersion: "t", pComplete: 0.4,
                                                     xp: 150, offeredAt: day.startInstant(utcOffset: Self.seoul)))
        let start = day.startInstant(utcOffset: Self.seoul) + 18 * 3600
        let answer = try RunIngestion(store: store).ingest(user: "min", clientRunID: "r", track:
            straightRun(distance: 6000, pace: 360, start: start), now: start + 3000)
        let missions = try #require(answer["missions"]?.arrayValue)
        #expect(missions.count == 2)
        #expect(missions[0]["status"]?.stringValue == "completed")
        #expect(missions[0]["xp_awarded"]?.intValue == 80)
        #expect(missions[1]["status"]?.stringValue == "offered")
        #expect(abs((missions[1]["progress"]?.doubleValue ?? 0) - 0.6) < 0.01)
        #expect(answer["xp"]?["missions"]?.intValue == 80)
        #expect(answer["xp"]?["total"]?.intValue == 60 + 80)
        #expect(try store.assignments(user: "min", day: day)[0].runID == "r")  // the runner's own id (record 0405)
    }

    @Test("kinds that read earlier runs or the time of day are decided at ingestion, not left not-applicable")
    func contextKinds() throws {
        let store = try store()
        // Earlier runs: longest 8 km in the weeks before.
        for (i, km) in [6.0, 8.0, 7.0].enumerated() {
            _ = try store.insertRun(RunRecord(id: "min:old-\(i)", userID: "min", startTime: day.startInstant(utcOffset: Self.seoul) - Double(10 - i) * 86_400,
                                              distance: km * 1000, elapsed: km * 360, moving: km * 360, elevationGain: 0, source: "test"))
        }
        let offered = day.startInstant(utcOffset: Self.seoul)
        let specs: [MissionSpec] = [.longRun(multiple: 1.25), .longRun(multiple: 1.5), .earlyBird(beforeMinute: 7 * 60, minDistance: 3000)]
        for (i, spec) in specs.enumerated() {
            try store.insertAssignment(MissionAssignment(id: "c\(i)", userID: "min", day: day, kind: spec.kind.rawValue,
                                                         specJSON: spec.canonicalJSON, modelVersion: "t", pComplete: 0.6,
                                                         xp: 100, offeredAt: offered))
        }
        // 10.5 km from 06:00 local: ≥ 1.25 × 8 km, < 1.5 × 8 km, before 07:00.
        let start = offered + 6 * 3600
        let answer = try RunIngestion(store: store).ingest(user: "min", clientRunID: "long", track:
            straightRun(distance: 10_500, pace: 330, start: start), now: start + 4000)
        let statuses = try #require(answer["missions"]?.arrayValue).map { $0["status"]?.stringValue }
        #expect(statuses == ["completed", "offered", "completed"])
    }

    @Test("a later day's run closes earlier offers: failed if the runner ran that day, expired if not")
    func closesDays() throws {
        let store = try store()
        for (i, d) in [day, day.adding(days: 1)].enumerated() {
            try store.insertAssignment(MissionAssignment(id: "m\(i)", userID: "min", day: d, kind: "distance",
                                                         specJSON: MissionSpec.distance(minDistance: 20_000).canonicalJSON,
                                                         modelVersion: "t", pComplete: 0.3, xp: 200,
                                                         offeredAt: d.startInstant(utcOffset: Self.seoul)))
        }
        let ingestion = RunIngestion(store: store)
        let run1 = day.startInstant(utcOffset: Self.seoul) + 7 * 3600
        _ = try ingestion.ingest(user: "min", clientRunID: "d0", track: straightRun(distance: 3000, pace: 360, start: run1), now: run1 + 3600)
        let run3 = day.adding(days: 2).startInstant(utcOffset: Self.seoul) + 7 * 3600
        _ = try ingestion.ingest(user: "min", clientRunID: "d2", track: straightRun(distance: 3000, pace: 360, start: run3), now: run3 + 3600)
        #expect(try store.assignments(user: "min", day: day)[0].status == .failed)
        #expect(try store.assignments(user: "min", day: day.adding(days: 1))[0].status == .expired)
    }

    @Test("a track without two usable points is refused, and nothing is stored")
    func emptyTrack() throws {
        let store = try store()
        let one = Track(points: [TrackPoint(time: 1_800_000_000, latitude: 37, longitude: 127)])
        #expect(throws: IngestError.refused(runID: "x", .tooFewFixes(count: 1))) {
            _ = try RunIngestion(store: store).ingest(user: "min", clientRunID: "x", track: one, now: 1_800_000_000)
        }
        // Two fixes at one instant pass the order check; cleaning keeps one of them.
        let twice = Track(points: [TrackPoint(time: 1_800_000_000, latitude: 37, longitude: 127),
                                   TrackPoint(time: 1_800_000_000, latitude: 37, longitude: 127)])
        #expect(throws: IngestError.emptyTrack(runID: "x", points: 1)) {
            _ = try RunIngestion(store: store).ingest(user: "min", clientRunID: "x", track: twice, now: 1_800_000_000)
        }
        #expect(store.rewardCount == 0)
        #expect(throws: IngestError.unknownUser("ghost")) {
            _ = try RunIngestion(store: store).ingest(user: "ghost", clientRunID: "x", track: one, now: 0)
        }
    }
}

@Suite("History and progress")
struct HistoryTests {
    static let seoul = 9 * 3600

    @Test("a run at 23:30 local counts on that local day, week and month, not the UTC one")
    func bucketEdges() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ha", timeZone: "Asia/Seoul", utcOffsetSeconds: Self.seoul))
        // 2026-11-30 (a Monday) 23:30 in Seoul is 14:30 UTC the same day; 2026-11-29 (Sunday)
        // 23:30 in Seoul is 14:30 UTC too. Also 2026-12-01 00:30 Seoul = 2026-11-30 15:30 UTC.
        let sunday = CivilDate(iso: "2026-11-29")!, monday = CivilDate(iso: "2026-11-30")!
        let times = [sunday.startInstant(utcOffset: Self.seoul) + 23.5 * 3600,
                     monday.startInstant(utcOffset: Self.seoul) + 23.5 * 3600,
                     monday.startInstant(utcOffset: Self.seoul) + 24.5 * 3600]
        for (i, t) in times.enumerated() {
            #expect(try store.insertRun(RunRecord(id: "r\(i)", userID: "ha", startTime: t, distance: 5000, elapsed: 1800,
                                          moving: 1750, elevationGain: 0, calories: 300, source: "test")))
        }
        let service = HistoryService(store: store)
        let days = try service.history(user: "ha", from: sunday, to: CivilDate(iso: "2026-12-01")!, size: .day)
        #expect(days.buckets.map(\.start.description) == ["2026-11-29", "2026-11-30", "2026-12-01"])
        let weeks = try service.history(user: "ha", from: sunday, to: CivilDate(iso: "2026-12-01")!, size: .week)
        #expect(weeks.buckets.map(\.start.description) == ["2026-11-23", "2026-11-30"])
        #expect(weeks.buckets.map(\.runs) == [1, 2])
        let months = try service.history(user: "ha", from: sunday, to: CivilDate(iso: "2026-12-01")!, size: .month)
        #expect(months.buckets.map(\.start.description) == ["2026-11-01", "2026-12-01"])
        #expect(months.buckets[0].distance == 10_000 && months.buckets[0].calories == 600)
        #expect(abs(months.buckets[0].averagePace! - 350) < 1e-9)
        // The range is in local days: asking for Sunday alone gives only Sunday's run.
        #expect(try service.history(user: "ha", from: sunday, to: sunday, size: .day).runs.map(\.run.id) == ["r0"])
    }

    @Test("a runner with no history: no buckets, level 1, no badges")
    func noHistory() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "new"))
        let d = CivilDate(iso: "2026-11-29")!
        let h = try HistoryService(store: store).history(user: "new", from: d, to: d, size: .month)
        #expect(h.buckets.isEmpty && h.runs.isEmpty)
        let p = try ProgressService(store: store).progress(user: "new")
        #expect(p.level == LevelStatus(xp: 0) && p.level.level == 1 && p.level.xpToNextLevel == 100)
        #expect(p.badges.isEmpty)
    }
}

@Suite("Levels and badges")
struct RewardsTests {
    @Test("level thresholds match the documented formula and a naive walk")
    func levels() {
        var level = 1
        for xp in 0...25_000 {
            while 50 * (level + 1) * level <= xp { level += 1 }
            #expect(Levels.level(for: xp) == level, "xp \(xp)")
        }
        #expect(Levels.threshold(of: 2) == 100 && Levels.threshold(of: 10) == 4500)
        #expect(LevelStatus(xp: 299).xpToNextLevel == 1 && LevelStatus(xp: 300).level == 3)
    }

    func context(_ runs: [(Meters, String, Double)], missions: Int = 0, wins: Int = 0, podiums: Int = 0) -> BadgeContext {
        BadgeContext(runs: runs.map { BadgeContext.Run(distance: $0.0, elevationGain: 0, localDay: CivilDate(iso: $0.1)!, localHour: $0.2) },
                     missionsCompleted: missions, raceWins: wins, racePodiums: podiums)
    }

    func earned(_ c: BadgeContext) -> Set<String> { Set(BadgeCatalog.newlyEarned(c, owned: []).map(\.id)) }

    @Test("at least 30 badges with distinct ids, names and icons; race wins at 1, 5 and 25; every tier used")
    func catalog() {
        let all = BadgeCatalog.all
        #expect(all.count >= 30)
        let winTargets = Set(all.filter { $0.measure == .raceWins }.map(\.target))
        #expect([1, 5, 25].allSatisfy { winTargets.contains($0) })
        #expect(Set(all.map(\.tier.rawValue)) == ["bronze", "silver", "gold", "platinum"])
        #expect(Set(all.compactMap(\.kind)).isSubset(of: Set(MissionKind.allCases.map(\.rawValue))))
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(Set(all.map(\.icon)).count == all.count)
    }

    @Test("distance badges at their GPS-tolerant boundaries", arguments: [
        (4949.9, false), (4950.0, true), (10_000 * 0.99 - 0.1, false), (10_000 * 0.99, true),
    ])
    func distanceBoundaries(distance: Meters, earnsIt: Bool) {
        let badge = distance < 6000 ? "first_5k" : "first_10k"
        #expect(earned(context([(distance, "2026-11-29", 10)])).contains(badge) == earnsIt)
    }

    @Test("time-of-day badges: 6:59 is early, 7:00 is not; 21:00 is late, 20:59 is not")
    func timeOfDay() {
        #expect(earned(context([(3000, "2026-11-29", 6.99)])).contains("early_bird"))
        #expect(!earned(context([(3000, "2026-11-29", 7.0)])).contains("early_bird"))
        #expect(earned(context([(3000, "2026-11-29", 21.0)])).contains("night_owl"))
        #expect(!earned(context([(3000, "2026-11-29", 20.99)])).contains("night_owl"))
    }

    @Test("streaks need consecutive local days; two runs on one day count once")
    func streaks() {
        let three = context([(3000, "2026-11-27", 8), (3000, "2026-11-28", 8), (3000, "2026-11-29", 8)])
        #expect(earned(three).contains("streak_3"))
        let gap = context([(3000, "2026-11-26", 8), (3000, "2026-11-28", 8), (3000, "2026-11-28", 18), (3000, "2026-11-29", 8)])
        #expect(!earned(gap).contains("streak_3"))
    }

    @Test("a big week counts Monday to Sunday, not a rolling 7 days")
    func bigWeek() {
        // 2026-11-23 is a Monday: 49.5 km from Monday to Sunday qualifies (99 % tolerance)…
        let inWeek = context((0..<5).map { (9900, "2026-11-2\(3 + $0)", 8) })
        #expect(earned(inWeek).contains("weekly_50k"))
        // …but the same runs from Sunday to Thursday straddle two weeks.
        let straddling = context([(9900, "2026-11-22", 8)] + (0..<4).map { (9900, "2026-11-2\(3 + $0)", 8) })
        #expect(!earned(straddling).contains("weekly_50k"))
    }

    @Test("mission and race badges")
    func missionAndRace() {
        #expect(earned(context([], missions: 10)).isSuperset(of: ["mission_1", "mission_10"]))
        #expect(!earned(context([], missions: 9)).contains("mission_10"))
        #expect(earned(context([], wins: 3, podiums: 3)).isSuperset(of: ["race_winner_3", "race_podium"]))
        #expect(!earned(context([], wins: 2, podiums: 2)).contains("race_winner_3"))
    }
}

extension RunIngestionTests {
    @Test("a run completes the day's first set even when shown after it, but not a set a refresh offered after it (found 2026-12-01)")
    func noShoppingWithAFinishedRun() throws {
        let store = try store()
        let dayStart = day.startInstant(utcOffset: Self.seoul)
        let start = dayStart + 7 * 3600
        let track = straightRun(distance: 6000, pace: 360, start: start)  // ends 07:36
        let spec = MissionSpec.distance(minDistance: 5000)
        func offer(_ id: String, at t: EpochSeconds, status: MissionStatus = .offered) throws {
            try store.insertAssignment(MissionAssignment(id: id, userID: "min", day: day, kind: "distance",
                                                         specJSON: spec.canonicalJSON, modelVersion: "t", pComplete: 0.7,
                                                         xp: 80, status: status, offeredAt: t))
        }
        // The first set, shown at 09:00 (a watch synced later); then a refresh at 09:05.
        try offer("first", at: dayStart + 9 * 3600, status: .expired)
        try offer("refresh", at: dayStart + 9 * 3600 + 300)
        let answer = try RunIngestion(store: store).ingest(user: "min", clientRunID: "r", track: track, now: dayStart + 10 * 3600)
        let missions = try #require(answer["missions"]?.arrayValue)
        #expect(missions.map { $0["status"]?.stringValue } == ["offered"])
        #expect(missions.first?["evidence"]?.arrayValue?.first?.stringValue == RunIngestion.offeredAfterRun)
        #expect(answer["xp"]?["missions"] == 0)

        let other = try self.store()
        try other.insertAssignment(MissionAssignment(id: "first", userID: "min", day: day, kind: "distance",
                                                     specJSON: spec.canonicalJSON, modelVersion: "t", pComplete: 0.7,
                                                     xp: 80, offeredAt: dayStart + 9 * 3600))
        let synced = try RunIngestion(store: other).ingest(user: "min", clientRunID: "r", track: track, now: dayStart + 10 * 3600)
        #expect(synced["missions"]?.arrayValue?.map { $0["status"]?.stringValue } == ["completed"])
    }
}

extension RunIngestionTests {
    @Test("badge progress is the measure over its target, 1 once earned; kind badges count only their kind")
    func badgeProgress() throws {
        let c = BadgeContext(runs: [BadgeContext.Run(distance: 2500, elevationGain: 120, localDay: CivilDate(iso: "2026-11-29")!,
                                                     localHour: 6.5, moving: 900)],
                             missionsByKind: ["hills": 2, "distance": 3], raceWins: 0, racePodiums: 0)
        func progress(_ id: String) -> Double? { BadgeCatalog.badge(id: id)?.progress(c) }
        #expect(abs((progress("first_5k") ?? 0) - 2500 / (5000 * 0.99)) < 1e-12)
        #expect(progress("first_run") == 1 && progress("early_bird") == 1)
        #expect(abs((progress("hill_repeater") ?? 0) - 0.4) < 1e-12)
        #expect(abs((progress("mission_10") ?? 0) - 0.5) < 1e-12)
        #expect(progress("race_win_1") == 0)
        #expect(Set(BadgeCatalog.newlyEarned(c, owned: []).map(\.id)) == ["first_run", "early_bird", "mission_1"])
    }
}
