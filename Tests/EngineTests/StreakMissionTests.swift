import Foundation
import Testing
import RunusCore
import Tracking
import Features
import Missions
@testable import Engine

/// A scorer that puts every modelled candidate far below any band: only a streak (scored by
/// `StreakForecast`) can be chosen in it.
struct FarBelowScorer: MissionScorer {
    let version = "far-below-1"
    func probabilities(_ rows: [[Double]]) -> [Double] { rows.map { _ in 0.01 } }
}

/// Record 0650: streaks are offered for several days, scored by the runner's schedule, checked at
/// each run of their window and decided when a day without a run or the window's end comes.
@Suite("streak missions")
struct StreakMissionTests {
    /// A Monday.
    static let monday = CivilDate(iso: "2026-11-30")!
    static let tolerance = 1e-12

    /// The offer day of the tests: a Tuesday.
    static let tuesday = monday.adding(days: 1)

    /// Nine weeks before `tuesday`: Monday, Tuesday and Thursday every week, Wednesday in 6 of
    /// the 8 active weeks, Saturday in 2, and a week off (days 29…35 back, a break).
    static func schedule(_ user: UserID) -> [RunRecord] {
        (1...63).reversed().compactMap { back in
            let day = tuesday.adding(days: -back)
            guard !(29...35).contains(back) else { return nil }
            switch day.isoWeekday {
            case 1, 2, 4: return run(user, day: day)
            case 3: return [13, 41].contains(back) ? nil : run(user, day: day)
            case 6: return [10, 45].contains(back) ? run(user, day: day) : nil
            default: return nil
            }
        }
    }

    static func run(_ user: UserID, day: CivilDate, id: String? = nil) -> RunRecord {
        RunRecord(id: id ?? "\(user)-\(day)", userID: user, startTime: day.startInstant(utcOffset: 0) + 7 * 3600,
                  distance: 6000, elapsed: 2160, moving: 2160, elevationGain: 0, source: "test")
    }

    static func summary(day: CivilDate) -> RunInput {
        .summary(RunSummary(startTime: day.startInstant(utcOffset: 0) + 7 * 3600, distance: 6000, duration: 2160))
    }

    @Test("the forecast multiplies the days still needed, each its weekday's recency-weighted share of active weeks shrunk toward its class; the ladder asks 1…5 days more")
    func forecastAndLadder() throws {
        let asOf = Self.tuesday.startInstant(utcOffset: 0)
        let state = RunnerState(history: Self.schedule("u"), asOf: asOf)
        #expect(StreakForecast.daysBehind(state) == 1)
        #expect(StreakForecast.daysNeeded(3, state: state) == 1)
        // The break's week is left out: 8 of each weekday are seen.
        #expect(StreakForecast.weekdayCount(ahead: 1, state: state) == (6, 8))
        #expect(StreakForecast.weekdayCount(ahead: 4, state: state) == (2, 8))
        let w = StreakForecast.priorWeight
        // A day k whole weeks before yesterday's week weighs h^k; every weekday is seen in weeks
        // 0…8 but the break's (4). Wednesday was missed in weeks 1 and 5 (13 and 41 days back),
        // Saturday run in weeks 1 and 6 (10 and 45 back).
        let h = pow(0.5, 1 / StreakForecast.recencyHalfLifeWeeks)
        func weight(_ k: Int) -> Double { pow(h, Double(k)) }
        let seen = [0, 1, 2, 3, 5, 6, 7, 8].map(weight).reduce(0, +)
        let wednesdays = seen - weight(1) - weight(5), saturdays = weight(1) + weight(6)
        // Usual days Monday…Thursday; the others Friday…Sunday.
        let usual = (3 * seen + wednesdays) / (4 * seen), others = saturdays / (3 * seen)
        let wednesday = (wednesdays + w * usual) / (seen + w), thursday = (seen + w * usual) / (seen + w)
        let friday = (0 + w * others) / (seen + w)
        let weeks = StreakForecast.schedule(state, breaks: .inactiveWeeks)
        #expect(abs(weeks.runChance(ahead: 1) - wednesday) < Self.tolerance)
        #expect(abs(weeks.runChance(ahead: 3) - friday) < Self.tolerance)
        #expect(abs(weeks.streakChance(needed: 1) - wednesday) < Self.tolerance)
        #expect(abs(weeks.streakChance(needed: 2) - wednesday * thursday) < Self.tolerance)
        #expect(abs(weeks.streakChance(needed: 3) - wednesday * thursday * friday) < Self.tolerance)
        // The shipped chain (record 0660): each day still needed stays active and is run.
        let chain = StreakForecast.schedule(state)
        let stay = StreakForecast.breakRule.stayChance
        #expect(abs(StreakForecast.probability(days: 3, state: state) - stay * chain.share(ahead: 1)) < Self.tolerance)
        #expect(abs(StreakForecast.probability(days: 5, state: state)
                    - stay * chain.share(ahead: 1) * stay * chain.share(ahead: 2) * stay * chain.share(ahead: 3)) < Self.tolerance)
        #expect(abs(StreakForecast.dayProbability(ahead: 3, state: state) - chain.share(ahead: 3)) < Self.tolerance)
        // Today's run completes a streak of 2 (Monday behind).
        #expect(StreakForecast.probability(days: 2, state: state) == 1)
        let streaks = CandidateGenerator.candidates(for: state).filter { $0.kind == .streak }
        #expect(streaks == (3...7).map { MissionSpec.streak(days: $0) })
        // Only the days since the first run count: a runner of one week has one of each weekday.
        let fresh = RunnerState(history: Self.schedule("v").filter { $0.startTime >= asOf - 7 * 86_400 }, asOf: asOf)
        #expect(StreakForecast.weekdayCount(ahead: 2, state: fresh) == (1, 1))
        #expect(StreakForecast.weekdayCount(ahead: 3, state: fresh) == (0, 1))
        // A runner without runs gets no streak candidates, and a probability of 0.
        let none = RunnerState(history: [], asOf: asOf)
        #expect(!CandidateGenerator.candidates(for: none).contains { $0.kind == .streak })
        #expect(StreakForecast.probability(days: 3, state: none) == 0)
    }

    @Test("the why sentence names the days asked and the runner's record on those weekdays")
    func whySentence() throws {
        let state = RunnerState(history: Self.schedule("u"), asOf: Self.tuesday.startInstant(utcOffset: 0))
        // Monday behind: a streak of 2 is today's run, of 3 asks for Wednesday (6 of 8 Wednesdays run).
        #expect(TodayPolicy.whyStreak(days: 2, state: state) == "With 1 day in a row behind you, a run today makes it 2 days in a row.")
        #expect(TodayPolicy.whyStreak(days: 3, state: state)
                == "With 1 day in a row behind you, run today and tomorrow (2026-12-02) for 3 days in a row; "
                   + "you ran on 6 of the last 8 of those weekdays.")
        // 4 days asks for Wednesday and Thursday: 6 + 8 of 16.
        #expect(TodayPolicy.whyStreak(days: 4, state: state)
                == "With 1 day in a row behind you, run today and on each of the next 2 days (to 2026-12-03) for 4 days in a row; "
                   + "you ran on 14 of the last 16 of those weekdays.")
        let none = RunnerState(history: [], asOf: Self.tuesday.startInstant(utcOffset: 0))
        #expect(TodayPolicy.whyStreak(days: 2, state: none)
                == "Run today and tomorrow (2026-12-02) for 2 days in a row; we know little yet of the days you run.")
    }

    @Test("missions.score gives a streak the probability and XP today offers it at; too little record or days outside 2…14 get a reason")
    func scoredAsOffered() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        try store.upsertUser(UserProfile(id: "new"))
        for r in Self.schedule("ana") { _ = try store.insertRun(r) }
        _ = try store.insertRun(Self.run("new", day: Self.tuesday.adding(days: -3)))
        let service = MissionService(store: store, scorer: FarBelowScorer(), policy: TodayPolicy(band: 0.5...0.9))
        let now = Self.tuesday.startInstant(utcOffset: 0) + 6 * 3600
        let today = try service.today(user: "ana", day: nil, count: 3, now: now)
        let offered = try #require(today.missions.first { $0.spec.kind == .streak })
        let specs: [MissionSpec] = [offered.spec, .streak(days: 4), .streak(days: 15), .streak(days: 1), .distance(minDistance: 5000)]
        let scored = try service.score(user: "ana", specs: specs, day: nil, now: now).missions
        #expect(scored[0].pComplete == offered.pComplete && scored[0].xp == offered.xp && scored[0].reason == nil)
        let state = RunnerState(history: Self.schedule("ana"), asOf: Self.tuesday.startInstant(utcOffset: 0))
        let p4 = StreakForecast.probability(days: 4, state: state)
        #expect(abs((scored[1].pComplete ?? -1) - p4) < Self.tolerance)
        #expect(scored[1].xp == MissionXP.xp(for: .streak(days: 4), pComplete: p4))
        #expect(scored[2].pComplete == nil && scored[2].reason == "a streak is offered for 2 to 14 days, not 15")
        #expect(scored[3].pComplete == nil && scored[3].reason == "a streak is offered for 2 to 14 days, not 1")
        #expect(scored[4].pComplete == 0.01 && scored[4].reason == nil)   // the model's, untouched
        // A runner whose record covers three days (from the first run's): nothing to forecast from yet.
        let fresh = try service.score(user: "new", specs: [.streak(days: 3)], day: nil, now: now).missions[0]
        #expect(fresh.pComplete == nil && fresh.xp == nil)
        #expect(fresh.reason == "a streak is forecast from 28 days of record; the runner has 3", "\(fresh.reason ?? "nil")")
    }

    @Test("the policy offers a streak by its forecast; the offer is open for its days, carried into the next days and decided by their runs")
    func offeredCarriedAndCompleted() throws {
        let store = InMemoryStore()
        try store.upsertUser(UserProfile(id: "ana"))
        for r in Self.schedule("ana") { _ = try store.insertRun(r) }
        // Asked for a band around the forecasts: nothing else is near it.
        let service = MissionService(store: store, scorer: FarBelowScorer(), policy: TodayPolicy(band: 0.5...0.9))
        let offerDay = Self.tuesday
        let now = offerDay.startInstant(utcOffset: 0) + 6 * 3600
        let today = try service.today(user: "ana", day: nil, count: 3, now: now)
        let streak = try #require(today.missions.first { $0.spec.kind == .streak }, "\(today.missions.map(\.spec))")
        guard case .streak(let days) = streak.spec else { return }
        let state = RunnerState(history: try store.runs(user: "ana", from: 0, to: now), asOf: offerDay.startInstant(utcOffset: 0))
        #expect(abs((streak.pComplete ?? -1) - StreakForecast.probability(days: days, state: state)) < Self.tolerance)
        #expect(TodayPolicy(band: 0.5...0.9).band.contains(streak.pComplete ?? -1))
        #expect(streak.firstDay == offerDay && streak.lastDay == offerDay.adding(days: days - 1))
        #expect(streak.why.contains("\(days) days in a row"), "\(streak.why)")
        #expect(today.missions.filter { $0.spec.kind == .streak }.count == 1)
        let needed = StreakForecast.daysNeeded(days, state: state)
        try #require(needed >= 1)

        // The offer day's run does not complete it; the next day's answer carries it and offers no second streak.
        let ingestion = RunIngestion(store: store)
        _ = try ingestion.ingest(user: "ana", clientRunID: "day-0", input: Self.summary(day: offerDay), now: now + 7200)
        let next = offerDay.adding(days: 1)
        let carried = try service.today(user: "ana", day: nil, count: 3, now: next.startInstant(utcOffset: 0) + 6 * 3600)
        #expect(carried.missions.filter { $0.spec.kind == .streak }.map(\.assignmentID) == [streak.assignmentID])
        // Carried offers (the streak, and a weekly volume of the same day) come after the day's own.
        let firstCarried = try #require(carried.missions.firstIndex { $0.firstDay < next })
        #expect(carried.missions[firstCarried...].allSatisfy { $0.firstDay < next }, "carried offers come after the day's")
        #expect(carried.missions[firstCarried...].contains { $0.assignmentID == streak.assignmentID })
        let progress = try MissionProgressService(store: store).progress(user: "ana", day: next, live: nil,
                                                                          now: next.startInstant(utcOffset: 0) + 6 * 3600)
        #expect(progress.missions.contains { $0.assignment.id == streak.assignmentID })

        // Each run of its days checks it; the run of its last needed day completes it with its XP.
        for k in 1...needed {
            let day = offerDay.adding(days: k)
            let answer = try ingestion.ingest(user: "ana", clientRunID: "day-\(k)", input: Self.summary(day: day),
                                              now: day.startInstant(utcOffset: 0) + 9 * 3600)
            let entry = try #require(answer["missions"]?.arrayValue?.first { $0["id"]?.stringValue == streak.assignmentID })
            #expect(entry["verdict"]?.stringValue == (k == needed ? "completed" : "not_completed"), "day \(k): \(entry)")
            #expect(entry["first_day"]?.stringValue == "\(offerDay)" && entry["last_day"]?.stringValue == "\(streak.lastDay)")
        }
        let stored = try #require(try store.assignments(user: "ana", day: offerDay).first { $0.id == streak.assignmentID })
        #expect(stored.status == .completed && stored.runID == "day-\(needed)")
        #expect(try store.rewards(user: "ana").contains { $0.reason == RewardReason.mission && $0.refID == streak.assignmentID })
    }

    /// The daily policy's first offer of `spec` on `day`, stored for `user`.
    static func offer(_ store: InMemoryStore, _ user: UserID, _ spec: MissionSpec, day: CivilDate) throws -> MissionAssignment {
        let a = MissionAssignment(id: MissionService.assignmentID(day: day, round: 0, slot: 1, stretch: false), userID: user,
                                  day: day, kind: spec.kind.rawValue, specJSON: spec.canonicalJSON, modelVersion: "test",
                                  pComplete: 0.7, xp: 40, status: .offered, offeredAt: day.startInstant(utcOffset: 0))
        try store.insertAssignment(a)
        return a
    }

    @Test("a day without a run ends a streak: failed when its offer day had a run, expired when not; shown so before a run writes it")
    func endedByARestDay() throws {
        let store = InMemoryStore()
        for user in ["bo", "cy"] {
            try store.upsertUser(UserProfile(id: user))
            _ = try Self.offer(store, user, .streak(days: 3), day: Self.monday)
        }
        let ingestion = RunIngestion(store: store)
        // Bo runs Monday, rests Tuesday; Cy rests Monday.
        _ = try ingestion.ingest(user: "bo", clientRunID: "mon", input: Self.summary(day: Self.monday),
                                 now: Self.monday.startInstant(utcOffset: 0) + 9 * 3600)
        let wednesday = Self.monday.adding(days: 2)
        let noon = wednesday.startInstant(utcOffset: 0) + 12 * 3600
        let history = MissionHistoryService(store: store)
        for (user, status) in [("bo", MissionStatus.failed), ("cy", .expired)] {
            let shown = try history.history(user: user, query: MissionHistoryQuery(from: Self.monday, to: wednesday), now: noon)
            #expect(shown.entries.map(\.status) == [status], "\(user)")
            // Not carried: the window is over, and a new streak may be offered.
            let today = try MissionService(store: store, scorer: FarBelowScorer()).today(user: user, day: nil, count: 3, now: noon)
            #expect(!today.missions.contains { $0.firstDay == Self.monday }, "\(user)")
        }
        // On Tuesday (for Bo, whose Monday had a run), the streak was still open and shown so.
        let tuesdayNoon = Self.monday.adding(days: 1).startInstant(utcOffset: 0) + 12 * 3600
        #expect(try history.history(user: "bo", query: MissionHistoryQuery(from: Self.monday, to: Self.monday), now: tuesdayNoon)
            .entries.map(\.status) == [.offered])
        // Wednesday's run writes the day-end status and does not check the ended streak.
        let answer = try ingestion.ingest(user: "bo", clientRunID: "wed", input: Self.summary(day: wednesday), now: noon)
        #expect(!(answer["missions"]?.arrayValue ?? []).contains { $0["first_day"]?.stringValue == "\(Self.monday)" })
        #expect(try store.assignments(user: "bo", day: Self.monday).map(\.status) == [.failed])
    }

    @Test("only the policy's streaks last several days: a streak the runner set, and every one-day kind, is open on its day only")
    func windowsByRole() throws {
        let day = Self.monday
        func assignment(_ id: String, _ spec: MissionSpec) -> MissionAssignment {
            MissionAssignment(id: id, userID: "u", day: day, kind: spec.kind.rawValue, specJSON: spec.canonicalJSON,
                              modelVersion: "test", pComplete: 0.7, xp: 10, offeredAt: 0)
        }
        #expect(MissionWindow.lastDay(of: assignment("2026-11-30-0-1", .streak(days: 4))) == day.adding(days: 3))
        #expect(MissionWindow.lastDay(of: assignment("2026-11-30-0-4-stretch", .streak(days: 2))) == day.adding(days: 1))
        #expect(MissionWindow.lastDay(of: assignment("custom:2026-11-30:1", .streak(days: 4))) == day)
        #expect(MissionWindow.lastDay(of: assignment("2026-11-30-0-1", .distance(minDistance: 5000))) == day)
        // Longer than the longest window (a row of another version): capped, never a trap.
        #expect(MissionWindow.lastDay(of: assignment("2026-11-30-0-1", .streak(days: 60))) == day.adding(days: MissionWindow.maximumDays - 1))
        var unreadable = assignment("2026-11-30-0-1", .streak(days: 4))
        unreadable.specJSON = "{\"kind\":\"streak\",\"days\":\"four\"}"
        #expect(MissionWindow.lastDay(of: unreadable) == day)
        // Its window is over at the end of its last day even when every day had a run.
        let runDays = Set((0..<5).map { day.adding(days: $0) })
        let a = assignment("2026-11-30-0-1", .streak(days: 3))
        #expect(!MissionWindow.isOver(a, today: day.adding(days: 2), runDays: runDays))
        #expect(MissionWindow.isOver(a, today: day.adding(days: 3), runDays: runDays))
        #expect(!MissionWindow.isOver(a, today: day, runDays: []))
    }
}
