import Foundation
import Testing
import RunusCore
import Tracking
import Features
import Missions
@testable import Engine

/// Record 0655: the daily policy offers a weekly volume for the rest of the week, scored by the
/// runner's week (`WeeklyVolumeForecast`), checked at each run of the week and decided on Sunday.
/// The runner is `StreakMissionTests.schedule`'s: 6 km on Monday, Tuesday and Thursday every
/// week, Wednesday in 6 of 8 weeks, Saturday in 2, and a week off.
@Suite("weekly volume missions")
struct WeeklyVolumeMissionTests {
    static let monday = StreakMissionTests.monday
    static let tuesday = StreakMissionTests.tuesday
    static let sunday = monday.adding(days: 6)
    /// Probabilities and distances computed two ways agree to rounding.
    static let tolerance = 1e-12
    static let runDistance: Meters = 6000

    static func state(asOf day: CivilDate = tuesday) -> RunnerState {
        RunnerState(history: StreakMissionTests.schedule("u"), asOf: day.startInstant(utcOffset: 0))
    }

    /// The exact chance that `1 + K` runs of 6 km cover `needed` metres, K the number of days run
    /// among independent days with `chances`: every subset of the days, enumerated.
    static func enumerated(needed: Meters, chances: [Double]) -> Double {
        var total = 0.0
        for mask in 0..<(1 << chances.count) {
            var p = 1.0, runs = 1
            for (k, c) in chances.enumerated() {
                if mask & (1 << k) != 0 { p *= c; runs += 1 } else { p *= 1 - c }
            }
            if Double(runs) * runDistance >= needed { total += p }
        }
        return total
    }

    @Test("the forecast is the chance that today's run and the days after cover what the week still needs (against every subset of days run)")
    func forecastAgainstEnumeration() throws {
        let state = Self.state()
        #expect(state.volumeThisWeek == Self.runDistance && state.daysLeftInWeek == 6)
        #expect(WeeklyVolumeForecast.isForecast(state))
        let chances = WeeklyVolumeForecast.dayChances(state)
        #expect(chances.count == 5)
        for (k, c) in chances.enumerated() {
            #expect(abs(c - StreakForecast.dayProbability(ahead: k + 1, state: state)) < Self.tolerance)
        }
        // Every run day of the record is 6 km, whatever its weight: the mean is 6 km.
        #expect(abs((WeeklyVolumeForecast.meanRunDay(state) ?? 0) - Self.runDistance) < 1e-9)
        #expect(abs((WeeklyVolumeForecast.expectedRest(state) ?? 0) - Self.runDistance * (1 + chances.reduce(0, +))) < 1e-9)
        // Targets whose accepted distance sits between two whole numbers of runs (no grid edge).
        for target in [8000.0, 14_000, 20_000, 26_000, 31_000, 37_000, 41_000] {
            let needed = target * MissionTolerance.default.distanceFraction - state.volumeThisWeek
            #expect(abs(WeeklyVolumeForecast.needed(target: target, state: state) - needed) < 1e-9)
            let p = try #require(WeeklyVolumeForecast.probability(target: target, state: state))
            #expect(abs(p - Self.enumerated(needed: needed, chances: chances)) < Self.tolerance, "target \(target): \(p)")
        }
        // What the week has already: certain; more than six runs can cover: impossible.
        #expect(WeeklyVolumeForecast.probability(target: 5000, state: state) == 1)
        #expect(WeeklyVolumeForecast.probability(target: 50_000, state: state) == 0)
        #expect(WeeklyVolumeForecast.probability(target: .nan, state: state) == nil)
        // On Sunday only today's run is left.
        let sunday = Self.state(asOf: Self.sunday)
        #expect(WeeklyVolumeForecast.dayChances(sunday).isEmpty)
        let soFar = sunday.volumeThisWeek
        #expect(WeeklyVolumeForecast.probability(target: (soFar + 5000) / 0.99, state: sunday) == 1)
        #expect(WeeklyVolumeForecast.probability(target: (soFar + 7000) / 0.99, state: sunday) == 0)
    }

    @Test("the ladder: the week so far plus rungs of what the rest of the week is expected to add, whole kilometres, none without the record")
    func ladder() throws {
        let state = Self.state()
        let rest = try #require(WeeklyVolumeForecast.expectedRest(state))
        let expected = CandidateGenerator.weekVolumeLadder.map { ((state.volumeThisWeek + $0 * rest) / 1000).rounded() * 1000 }
            .filter { $0 >= state.volumeThisWeek + 1000 }
        var unique: [Meters] = []
        for d in expected where !unique.contains(d) { unique.append(d) }
        let week = CandidateGenerator.candidates(for: state).compactMap { s -> Meters? in
            if case .weeklyVolume(let d) = s { return d } else { return nil }
        }
        #expect(week == unique && week.count >= 5, "\(week)")
        #expect(zip(week, week.dropFirst()).allSatisfy { $0 < $1 })
        // The model's one-day ladder is another: the week so far plus one run's worth.
        let day = CandidateGenerator.candidates(for: state, weeklyVolume: .day).compactMap { s -> Meters? in
            if case .weeklyVolume(let d) = s { return d } else { return nil }
        }
        #expect(!day.isEmpty && day != week)
        // Four weeks of record with fewer than eight run days, or a record under 28 days: none.
        let short = RunnerState(history: StreakMissionTests.schedule("u").suffix(6), asOf: Self.tuesday.startInstant(utcOffset: 0))
        #expect(!WeeklyVolumeForecast.isForecast(short))
        #expect(CandidateGenerator.weekVolumes(for: short).isEmpty)
        #expect(CandidateGenerator.weekVolumes(for: RunnerState(history: [], asOf: 0)).isEmpty)
    }

    @Test("the policy offers a weekly volume by its forecast, open to Sunday; the week's runs complete it; no second one that week")
    func offeredCarriedAndCompleted() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for r in StreakMissionTests.schedule("ana") { _ = try store.insertRun(r) }
        let service = MissionService(store: store, scorer: FarBelowScorer(), policy: TodayPolicy(band: 0.5...0.9))
        let now = Self.tuesday.startInstant(utcOffset: 0) + 6 * 3600
        let today = try service.today(user: "ana", day: nil, count: 3, now: now)
        let weekly = try #require(today.missions.first { $0.spec.kind == .weeklyVolume }, "\(today.missions.map(\.spec))")
        guard case .weeklyVolume(let target) = weekly.spec else { return }
        let p = try #require(weekly.pComplete)
        #expect(abs(p - (WeeklyVolumeForecast.probability(target: target, state: Self.state()) ?? -1)) < Self.tolerance)
        #expect(weekly.firstDay == Self.tuesday && weekly.lastDay == Self.sunday)
        #expect(weekly.title == "Bring your week to \(DistanceFormat.kilometres(target))")
        let left = DistanceFormat.kilometres(target - Self.runDistance)
        #expect(weekly.why == "You have run 6.0 km this week, so \(DistanceFormat.kilometres(target)) by Sunday (\(Self.sunday)) "
                + "asks for \(left) more; your last four weeks averaged \(DistanceFormat.kilometres(Self.state().volume28d / 4)) a week.",
                "\(weekly.why)")
        // On a Monday nothing is run yet; on Sunday the week ends today.
        #expect(TodayPolicy.why(.weeklyVolume(distance: 30_000), state: Self.state(asOf: Self.monday))
                .hasPrefix("Your week from today: 30.0 km by Sunday (\(Self.sunday)), where your last four weeks averaged"))
        #expect(TodayPolicy.why(.weeklyVolume(distance: 30_000), state: Self.state(asOf: Self.sunday)).contains("30.0 km today asks for"))
        #expect(weekly.xp == MissionXP.xp(for: weekly.spec, pComplete: p))

        // Runs of 6 km from Tuesday on: the one that brings the week to the accepted target
        // completes it, the runs before leave it open (carried into the next days' answers).
        let ingestion = RunIngestion(store: store)
        let runsNeeded = Int(((target * MissionTolerance.default.distanceFraction - Self.runDistance) / Self.runDistance).rounded(.up))
        try #require(runsNeeded >= 2 && runsNeeded <= 6, "\(target)")
        for k in 0..<runsNeeded {
            let day = Self.tuesday.adding(days: k)
            if k > 0 {
                let carried = try service.today(user: "ana", day: nil, count: 3, now: day.startInstant(utcOffset: 0) + 6 * 3600)
                #expect(carried.missions.filter { $0.spec.kind == .weeklyVolume }.map(\.assignmentID) == [weekly.assignmentID])
            }
            let answer = try ingestion.ingest(user: "ana", clientRunID: "run-\(k)", input: StreakMissionTests.summary(day: day),
                                              now: day.startInstant(utcOffset: 0) + 9 * 3600)
            let entry = try #require(answer["missions"]?.arrayValue?.first { $0["id"]?.stringValue == weekly.assignmentID })
            #expect(entry["verdict"]?.stringValue == (k == runsNeeded - 1 ? "completed" : "not_completed"), "run \(k): \(entry)")
            #expect(entry["last_day"]?.stringValue == "\(Self.sunday)")
        }
        let stored = try #require(try store.assignments(user: "ana", day: Self.tuesday).first { $0.id == weekly.assignmentID })
        #expect(stored.status == .completed && stored.runID == "run-\(runsNeeded - 1)")
        #expect(try store.rewards(user: "ana").contains { $0.reason == RewardReason.mission && $0.refID == weekly.assignmentID })
        // One weekly goal a week: the next day of that week offers none, the next week does.
        let after = Self.tuesday.adding(days: runsNeeded)
        if after <= Self.sunday {
            let next = try service.today(user: "ana", day: nil, count: 3, now: after.startInstant(utcOffset: 0) + 6 * 3600)
            #expect(!next.missions.contains { $0.spec.kind == .weeklyVolume }, "\(next.missions.map(\.spec))")
        }
        let memory = PolicyMemory(offers: try store.assignments(user: "ana", from: Self.monday, to: Self.sunday), before: Self.monday.adding(days: 7))
        #expect(memory.weekKinds.isEmpty)
    }

    @Test("rest days do not end it; once its Sunday is over it is failed when its offer day had a run, expired when not")
    func decidedAtTheWeeksEnd() throws {
        let store = InMemoryStore()
        for user in ["bo", "cy"] {
            try store.upsertUser(UserProfile(id: user))
            _ = try StreakMissionTests.offer(store, user, .weeklyVolume(distance: 40_000), day: Self.monday)
        }
        let ingestion = RunIngestion(store: store)
        // Bo runs Monday and Thursday; Cy only Thursday. Neither reaches 40 km.
        let thursday = Self.monday.adding(days: 3)
        _ = try ingestion.ingest(user: "bo", clientRunID: "mon", input: StreakMissionTests.summary(day: Self.monday),
                                 now: Self.monday.startInstant(utcOffset: 0) + 9 * 3600)
        let history = MissionHistoryService(store: store)
        for user in ["bo", "cy"] {
            let answer = try ingestion.ingest(user: user, clientRunID: "thu", input: StreakMissionTests.summary(day: thursday),
                                              now: thursday.startInstant(utcOffset: 0) + 9 * 3600)
            // Tuesday and Wednesday had no run: still open on Thursday, checked by its run.
            let entry = try #require(answer["missions"]?.arrayValue?.first { $0["first_day"]?.stringValue == "\(Self.monday)" }, "\(user)")
            #expect(entry["verdict"]?.stringValue == "not_completed")
            #expect(entry["progress"]?.doubleValue.map { $0 > 0 && $0 < 1 } == true, "\(entry)")
            let sundayNoon = Self.sunday.startInstant(utcOffset: 0) + 12 * 3600
            #expect(try history.history(user: user, query: MissionHistoryQuery(from: Self.monday, to: Self.sunday), now: sundayNoon)
                .entries.map(\.status) == [.offered], "\(user)")
        }
        let nextMonday = Self.monday.adding(days: 7)
        let noon = nextMonday.startInstant(utcOffset: 0) + 12 * 3600
        for (user, status) in [("bo", MissionStatus.failed), ("cy", .expired)] {
            let shown = try history.history(user: user, query: MissionHistoryQuery(from: Self.monday, to: nextMonday), now: noon)
            #expect(shown.entries.map(\.status) == [status], "\(user)")
            _ = try ingestion.ingest(user: user, clientRunID: "next", input: StreakMissionTests.summary(day: nextMonday), now: noon)
            #expect(try store.assignments(user: user, day: Self.monday).map(\.status) == [status], "\(user)")
        }
    }

    @Test("a weekly volume the policy offers lasts to Sunday; one the runner sets, or one in another role, lasts its day")
    func windowsByRole() throws {
        func assignment(_ id: String, day: CivilDate) -> MissionAssignment {
            let spec = MissionSpec.weeklyVolume(distance: 30_000)
            return MissionAssignment(id: id, userID: "u", day: day, kind: spec.kind.rawValue, specJSON: spec.canonicalJSON,
                                     modelVersion: "test", pComplete: 0.7, xp: 10, offeredAt: 0)
        }
        for k in 0..<7 {
            let day = Self.monday.adding(days: k)
            #expect(MissionWindow.lastDay(of: assignment("\(day)-0-1", day: day)) == Self.sunday, "\(day)")
            #expect(MissionWindow.lastDay(of: assignment("\(day)-0-4-stretch", day: day)) == Self.sunday, "\(day)")
            #expect(MissionWindow.lastDay(of: assignment("custom:\(day):1", day: day)) == day, "\(day)")
            #expect(MissionSpec.weeklyVolume(distance: 30_000).policyOfferWindow(offeredOn: day) == 7 - k)
        }
        let a = assignment("\(Self.monday)-0-1", day: Self.monday)
        #expect(!MissionWindow.isOver(a, today: Self.sunday, runDays: []))
        #expect(MissionWindow.isOver(a, today: Self.sunday.adding(days: 1), runDays: []))
    }

    @Test("missions.score scores a weekly volume as today offers it; too little record gets a reason; the model's one-day score is custom's")
    func scoredAsOffered() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        try store.upsertUser(UserProfile(id: "new"))
        for r in StreakMissionTests.schedule("ana") { _ = try store.insertRun(r) }
        _ = try store.insertRun(StreakMissionTests.run("new", day: Self.tuesday.adding(days: -3)))
        let service = MissionService(store: store, scorer: FarBelowScorer())
        let now = Self.tuesday.startInstant(utcOffset: 0) + 6 * 3600
        let specs: [MissionSpec] = [.weeklyVolume(distance: 20_000), .weeklyVolume(distance: 30_000)]
        let scored = try service.score(user: "ana", specs: specs, day: nil, now: now).missions
        for (spec, s) in zip(specs, scored) {
            guard case .weeklyVolume(let target) = spec else { continue }
            let p = try #require(WeeklyVolumeForecast.probability(target: target, state: Self.state()))
            #expect(s.pComplete == p && s.xp == MissionXP.xp(for: spec, pComplete: p) && s.reason == nil)
        }
        let fresh = try service.score(user: "new", specs: [specs[0]], day: nil, now: now).missions[0]
        #expect(fresh.pComplete == nil && fresh.xp == nil)
        #expect(fresh.reason == "a weekly volume is forecast from 28 days of record with 8 days run; the runner has 3 days with 1 run",
                "\(fresh.reason ?? "nil")")
        // Scored as the model's one-day mission (what a runner sets): the scorer's 0.01.
        let state = Self.state()
        #expect(service.scored(specs, state: state).map(\.pComplete) == [0.01, 0.01])
    }
}
