import Testing
import RunusCore
import Features
import Missions
@testable import Engine
#if canImport(Glibc)
import Glibc
#endif

/// A scorer with a known shape: probability falls with the relative distance and pace terms.
struct SyntheticScorer: MissionScorer {
    let version = "synthetic-1"
    func probabilities(_ rows: [[Double]]) -> [Double] {
        let names = MissionFeatures.schema.names
        let relDistance = names.indices.filter { names[$0].hasPrefix("rel_distance_") }
        let relPace = names.indices.filter { names[$0].hasPrefix("rel_pace_") }
        return rows.map { row in
            let z = 1.6 - 3 * relDistance.reduce(0) { $0 + row[$1] } - 20 * relPace.reduce(0) { $0 + row[$1] }
            return 1 / (1 + exp(-z))
        }
    }
}

func history(user: UserID, runs: Int, distance: Meters, pace: SecondsPerKm, end: EpochSeconds) -> [RunRecord] {
    (0..<runs).map { i in
        let t = end - Double(runs - i) * 2 * 86_400
        return RunRecord(id: "\(user)-r\(i)", userID: user, startTime: t, distance: distance,
                         elapsed: distance / 1000 * pace, moving: distance / 1000 * pace, elevationGain: 0, source: "test")
    }
}

@Suite("TodayPolicy")
struct TodayPolicyTests {
    let day = CivilDate(iso: "2026-11-29")!

    @Test("k missions of distinct kinds, each in the band when the band is reachable")
    func distinctKindsInBand() throws {
        let asOf = day.startInstant(utcOffset: 0)
        let state = RunnerState(history: history(user: "u", runs: 20, distance: 8000, pace: 330, end: asOf), asOf: asOf)
        let all = TodayPolicy().choose(state: state, scorer: SyntheticScorer())
        let chosen = all.filter { !$0.isStretch }
        #expect(chosen.count == 3)
        #expect(Set(chosen.map(\.spec.kind)).count == 3)
        let stretch = try #require(all.first { $0.isStretch })
        #expect((0.4...0.5).contains(stretch.pComplete))
        #expect(all.last == stretch)
        // Kinds with candidates in 0.4–0.5 other than the day's three exist: the stretch is one.
        #expect(!Set(chosen.map(\.spec.kind)).contains(stretch.spec.kind), "stretch \(stretch.title)")
        for m in chosen {
            #expect((0.65...0.85).contains(m.pComplete), "\(m.title) has p \(m.pComplete)")
            #expect(!m.title.isEmpty && !m.why.isEmpty && m.xp > 0)
        }
    }

    @Test("the stretch is of a kind the day's missions do not have when one fits, even farther from 0.45")
    func stretchOfAnotherKind() throws {
        /// Distance candidates: 0.75 up to 35 % beyond the endurance, 0.45 beyond; duration
        /// candidates at `duration`; every other kind 0.99, outside both bands.
        struct TwoKinds: MissionScorer {
            let version = "two-kinds-1"
            let duration: Double
            func probabilities(_ rows: [[Double]]) -> [Double] {
                let names = MissionFeatures.schema.names
                guard let d = names.firstIndex(of: "kind_distance"), let rel = names.firstIndex(of: "rel_distance_distance"),
                      let t = names.firstIndex(of: "kind_duration") else { return [] }
                return rows.map { $0[d] == 1 ? ($0[rel] > 0.3 ? 0.45 : 0.75) : $0[t] == 1 ? duration : 0.99 }
            }
        }
        let asOf = day.startInstant(utcOffset: 0)
        let state = RunnerState(history: history(user: "u", runs: 20, distance: 8000, pace: 330, end: asOf), asOf: asOf)
        func stretch(duration: Double) throws -> ChosenMission {
            let all = TodayPolicy().choose(state: state, scorer: TwoKinds(duration: duration))
            #expect(all.filter { !$0.isStretch }.contains { $0.spec.kind == .distance })
            return try #require(all.first { $0.isStretch })
        }
        // A duration at 0.41 beats a distance at 0.45: the day already has a distance mission.
        let other = try stretch(duration: 0.41)
        #expect(other.spec.kind == .duration && other.pComplete == 0.41)
        // With no other kind in 0.4–0.5, the stretch is a second distance mission.
        let same = try stretch(duration: 0.99)
        #expect(same.spec.kind == .distance && same.pComplete == 0.45)
    }

    @Test("a long run's why says how far beyond the longest recent run it asks; matching it is not 'as far again'")
    func longRunWhy() throws {
        let asOf = day.startInstant(utcOffset: 0)
        let recent = RunnerState(history: history(user: "u", runs: 10, distance: 12_000, pace: 330, end: asOf), asOf: asOf)
        #expect(TodayPolicy.why(.longRun(multiple: 1.0), state: recent)
                == "Your longest run of the last four weeks was 12.0 km; this asks for about the same distance.")
        #expect(TodayPolicy.why(.longRun(multiple: 1.2), state: recent)
                == "Your longest run of the last four weeks was 12.0 km; this asks for 20 % more.")
        // Runs, but none in the last 28 days.
        let old = RunnerState(history: history(user: "u", runs: 5, distance: 12_000, pace: 330, end: asOf - 40 * 86_400), asOf: asOf)
        #expect(old.longest28d == 0 && old.totalRuns == 5)
        #expect(TodayPolicy.why(.longRun(multiple: 1.0), state: old) == "A long run builds endurance: as far as your longest recent run.")
        #expect(TodayPolicy.why(.longRun(multiple: 1.3), state: old) == "A long run builds endurance: 30 % further than your longest recent run.")
    }

    @Test("a progression's why places its kilometres within or beyond the usual run")
    func progressionWhy() throws {
        let asOf = day.startInstant(utcOffset: 0)
        let state = RunnerState(history: history(user: "u", runs: 10, distance: 6000, pace: 330, end: asOf), asOf: asOf)
        #expect(TodayPolicy.why(.progression(kilometres: 5), state: state)
                == "Getting faster as you go teaches control: 5 kilometres in a row, each quicker than the last, within a run of your usual 6.0 km.")
        #expect(TodayPolicy.why(.progression(kilometres: 7), state: state)
                == "Getting faster as you go teaches control: 7 kilometres in a row, each quicker than the last, on a run longer than your usual 6.0 km.")
    }

    @Test("candidates scale with the runner: a stronger runner gets longer distance missions")
    func scalesWithAbility() throws {
        let asOf = day.startInstant(utcOffset: 0)
        func distanceTarget(_ d: Meters) -> Meters? {
            let state = RunnerState(history: history(user: "u", runs: 20, distance: d, pace: 330, end: asOf), asOf: asOf)
            // Every kind gets its best candidate, so the distance one is among them.
            let chosen = TodayPolicy(count: MissionFeatures.kinds.count).choose(state: state, scorer: SyntheticScorer())
            for m in chosen { if case .distance(let target) = m.spec { return target } }
            return nil
        }
        let short = try #require(distanceTarget(4000)), long = try #require(distanceTarget(15_000))
        #expect(long > 2 * short)
    }
}

@Suite("MissionService")
struct MissionServiceTests {
    let day = CivilDate(iso: "2026-11-29")!
    /// 08:00 UTC on `day` (+ `days`): a `now` for which `day` is the runner's today.
    func morning(_ days: Int = 0) -> EpochSeconds { day.adding(days: days).startInstant(utcOffset: 0) + 8 * 3600 }

    @Test("answers are stable for a runner and day, and stored as offers")
    func stable() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana", weightKg: 60, timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        for run in history(user: "ana", runs: 15, distance: 6000, pace: 360, end: day.startInstant(utcOffset: 9 * 3600)) {
            #expect(try store.insertRun(run))
        }
        let service = MissionService(store: store, scorer: SyntheticScorer())
        let now = day.startInstant(utcOffset: 9 * 3600) + 8 * 3600
        let first = try service.today(user: "ana", day: nil, count: 3, now: now)
        #expect(first.day == day)
        #expect(first.missions.filter { !$0.isStretch }.count == 3)
        let stored = store.assignmentCount
        #expect(stored == first.missions.count)
        // A run later that day does not change the offer; asking again returns the same missions.
        #expect(try store.insertRun(RunRecord(id: "late", userID: "ana", startTime: now + 3600, distance: 30_000,
                                      elapsed: 10_000, moving: 10_000, elevationGain: 0, source: "test")))
        let second = try service.today(user: "ana", day: nil, count: 3, now: now + 7200)
        #expect(second.missions == first.missions)
        #expect(store.assignmentCount == stored)
    }

    @Test("asking for more missions later the same day adds only the missing ones: one open set, never two")
    func largerCount() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for run in history(user: "ana", runs: 15, distance: 6000, pace: 360, end: day.startInstant(utcOffset: 0)) {
            #expect(try store.insertRun(run))
        }
        let service = MissionService(store: store, scorer: SyntheticScorer())
        let first = try service.today(user: "ana", day: day, count: 3, now: morning())
        let more = try service.today(user: "ana", day: day, count: 5, now: morning() + 10)
        #expect(more.missions.filter { !$0.isStretch }.count == 5)
        #expect(Set(first.missions.map(\.assignmentID)).isSubset(of: more.missions.map(\.assignmentID)), "the first offers stay")
        #expect(Set(more.missions.map(\.spec)).count == more.missions.count, "no mission twice")
        #expect(more.missions.filter(\.isStretch).count <= 1)
        let open = try store.assignments(user: "ana", day: day).filter { $0.status == .offered }
        #expect(open.count == more.missions.count, "every open offer is in the answer")
        #expect(Set(open.map(\.id)).count == open.count)
    }

    @Test("a refresh replaces the open missions with ones not offered before that day; the replaced ones expire")
    func refresh() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for run in history(user: "ana", runs: 15, distance: 6000, pace: 360, end: day.startInstant(utcOffset: 0)) {
            #expect(try store.insertRun(run))
        }
        let service = MissionService(store: store, scorer: SyntheticScorer())
        let first = try service.today(user: "ana", day: day, count: 3, now: morning())
        let refreshed = try service.today(user: "ana", day: day, count: 3, now: morning() + 10, refresh: true)
        #expect(refreshed.missions.filter { !$0.isStretch }.count == 3)
        #expect(Set(first.missions.map(\.spec)).isDisjoint(with: refreshed.missions.map(\.spec)))
        // Replaced, not expired: the day is not over (record 0534).
        let replaced = try store.assignments(user: "ana", day: day).filter { $0.status == .replaced }
        #expect(replaced.count == first.missions.count)
        #expect(try store.assignments(user: "ana", day: day).allSatisfy { $0.status != .expired })
        // Asking again without refresh returns the refreshed set.
        #expect(try service.today(user: "ana", day: day, count: 3, now: morning() + 20).missions == refreshed.missions)
        // A second refresh brings neither earlier set back (it used to alternate A, B, A).
        let third = try service.today(user: "ana", day: day, count: 3, now: morning() + 30, refresh: true)
        #expect(!third.missions.isEmpty)
        #expect(Set(third.missions.map(\.spec)).isDisjoint(with: first.missions.map(\.spec) + refreshed.missions.map(\.spec)))
        #expect(Set(try store.assignments(user: "ana", day: day).map(\.id)).count == first.missions.count + refreshed.missions.count + third.missions.count)
    }

    @Test("missions.today refuses a day before yesterday or after tomorrow in the runner's zone (found 2026-12-01)")
    func dayReach() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        let service = MissionService(store: store, scorer: SyntheticScorer())
        for offset in -1...1 {
            #expect(try service.today(user: "ana", day: day.adding(days: offset), count: 3, now: morning()).day == day.adding(days: offset))
        }
        for offset in [-30, -2, 2] {
            #expect(throws: EngineError.dayOutOfRange(asked: day.adding(days: offset), today: day)) {
                try service.today(user: "ana", day: day.adding(days: offset), count: 3, now: morning())
            }
        }
    }

    @Test("missions not completed in the last days are not offered again at once; kinds rotate")
    func noImmediateRepeats() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for run in history(user: "ana", runs: 15, distance: 6000, pace: 360, end: day.startInstant(utcOffset: 0)) {
            #expect(try store.insertRun(run))
        }
        let service = MissionService(store: store, scorer: SyntheticScorer())
        let yesterday = try service.today(user: "ana", day: day.adding(days: -1), count: 3, now: morning(-1))
        let today = try service.today(user: "ana", day: day, count: 3, now: morning())
        #expect(Set(yesterday.missions.map(\.spec)).isDisjoint(with: today.missions.map(\.spec)))
        // Over a week most kinds this runner has candidates for are offered (runs at midnight UTC:
        // no early-bird or night-owl limit near that hour).
        var kinds = Set<MissionKind>()
        for d in 1...7 { kinds.formUnion(try service.today(user: "ana", day: day.adding(days: d), count: 3, now: morning(d)).missions.map(\.spec.kind)) }
        #expect(kinds.count >= 12, "\(kinds.map(\.rawValue).sorted())")
    }

    @Test("the runner's time zone decides the day")
    func localDay() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "kim", timeZone: "Asia/Seoul", utcOffsetSeconds: 9 * 3600))
        let service = MissionService(store: store, scorer: SyntheticScorer())
        // 2026-11-29T20:00Z is already 2026-11-30 in Seoul.
        let now = day.startInstant(utcOffset: 0) + 20 * 3600
        #expect(try service.today(user: "kim", day: nil, count: 2, now: now).day == day.adding(days: 1))
    }

    @Test("a new runner without history gets starter missions")
    func starter() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "new"))
        let answer = try MissionService(store: store, scorer: SyntheticScorer()).today(user: "new", day: day, count: 3, now: morning())
        #expect(answer.missions.filter { !$0.isStretch }.count == 3)
        #expect(answer.missions.allSatisfy { $0.why.contains("beginner's start") })
        #expect(Set(answer.missions.map(\.why)).count == answer.missions.count)
    }

    @Test("an unknown user is an error naming the user")
    func unknownUser() {
        let service = MissionService(store: InMemoryStore(), scorer: SyntheticScorer())
        #expect(throws: EngineError.unknownUser("ghost")) { try service.today(user: "ghost", day: day, count: 3, now: 0) }
    }
}
