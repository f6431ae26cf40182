import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Random histories with climbs and mission outcomes decided by some of the runs.
func randomHistoryWithOutcomes(seed: UInt64, count: Int) -> (runs: [RunRecord], outcomes: [PastOutcome]) {
    var rng = SeededGenerator(seed: seed)
    var t: EpochSeconds = 1_780_000_000
    var runs: [RunRecord] = []
    var outcomes: [PastOutcome] = []
    for i in 0..<count {
        t += rng.uniform(0.3, 4) * 86_400
        let d = rng.uniform(1500, 25_000)
        let moving = d / 1000 * rng.uniform(230, 520)
        runs.append(RunRecord(id: "r\(i)", userID: "u", startTime: t, distance: d, elapsed: moving * 1.05,
                              moving: moving, elevationGain: rng.uniform(0, 30) * d / 1000, source: "test"))
        if rng.bernoulli(0.7) {
            let kind = MissionFeatures.kinds[rng.int(in: 0...(MissionFeatures.kinds.count - 1))]
            outcomes.append(PastOutcome(kind: kind, completed: rng.bernoulli(0.6), decidedAt: t))
        }
    }
    return (runs, outcomes)
}

@Suite("RunnerState v2")
struct RunnerStateV2Tests {
    /// The property of issue 6: random histories (fixed seeds), random instants; every later run
    /// and outcome (and one exactly at t) added in random order changes nothing, for every kind.
    @Test("adding runs and outcomes at or after t never changes any feature at t", arguments: [11, 12, 13, 14])
    func asOfIsStrict(seed: Int) {
        let (runs, outcomes) = randomHistoryWithOutcomes(seed: UInt64(seed), count: 120)
        var rng = SeededGenerator(seed: UInt64(seed) + 1000)
        let specs = MissionFeatures.kinds.map(\.example)
        for _ in 0..<15 {
            let t = rng.uniform(runs.first!.startTime - 86_400, runs.last!.startTime + 86_400)
            let offset = [0, 3600 * 9, -5 * 3600, 19_800][rng.int(in: 0...3)]
            let base = RunnerState(history: runs.filter { $0.startTime < t },
                                   outcomes: outcomes.filter { $0.decidedAt < t }, asOf: t, utcOffset: offset)
            var moreRuns = runs + [RunRecord(id: "at-t", userID: "u", startTime: t, distance: 42_195, elapsed: 9000,
                                             moving: 9000, elevationGain: 900, source: "test")]
            moreRuns.shuffle(using: &rng)
            var moreOutcomes = outcomes + [PastOutcome(kind: .hills, completed: true, decidedAt: t)]
            moreOutcomes.shuffle(using: &rng)
            let full = RunnerState(history: moreRuns, outcomes: moreOutcomes, asOf: t, utcOffset: offset)
            #expect(full == base)
            for spec in specs {
                #expect(MissionFeatures.vector(spec, state: full) == MissionFeatures.vector(spec, state: base))
            }
        }
    }

    /// Oracle: each habit recomputed by the plainest loop over days and weeks.
    @Test("streaks, consistency, weekday share and outcome counts match direct counting")
    func habits() {
        let (runs, outcomes) = randomHistoryWithOutcomes(seed: 21, count: 150)
        let offset = 9 * 3600
        for index in [30, 75, 149] {
            let t = runs[index].startTime + 7200
            let s = RunnerState(history: runs, outcomes: outcomes, asOf: t, utcOffset: offset)
            let past = runs.filter { $0.startTime < t }
            func hasRun(weeksBack w: Int) -> Bool {
                past.contains { let age = t - $0.startTime; return age > Double(w) * 7 * 86_400 && age <= Double(w + 1) * 7 * 86_400 }
            }
            #expect(s.consistency8w == Double((0..<8).filter(hasRun).count) / 8)
            var weeks = 0
            while hasRun(weeksBack: weeks) { weeks += 1 }
            #expect(s.weekStreak == weeks)
            let localDays = Set(past.map { CivilDate(instant: $0.startTime, utcOffset: offset) })
            let today = CivilDate(instant: t, utcOffset: offset)
            var days = localDays.contains(today) ? 1 : 0
            var d = today.adding(days: -1)
            while localDays.contains(d) { days += 1; d = d.adding(days: -1) }
            #expect(s.dayStreak == days)
            let in90 = past.filter { t - $0.startTime <= 90 * 86_400 }
            let same = in90.filter { CivilDate(instant: $0.startTime, utcOffset: offset).isoWeekday == today.isoWeekday }
            #expect(abs(s.weekdayShare - Double(same.count) / Double(in90.count)) < 1e-12)
            let decided = outcomes.filter { $0.decidedAt < t && t - $0.decidedAt <= 90 * 86_400 }
            for kind in MissionFeatures.kinds {
                let mine = decided.filter { $0.kind == kind }
                #expect(s.tried(kind) == mine.count)
                let rate = (Double(mine.filter(\.completed).count) + 1) / (Double(mine.count) + 2)
                #expect(abs(s.completionRate(kind) - rate) < 1e-12)
            }
        }
    }

    @Test("outcomes are dated by their deciding run; undecided or unknown-run assignments are left out")
    func outcomesFromAssignments() {
        let day = CivilDate(iso: "2026-11-01")!
        let runs = [RunRecord(id: "r1", userID: "u", startTime: 1000, distance: 5000, elapsed: 1800, moving: 1800,
                              elevationGain: 0, source: "test")]
        func assignment(_ id: String, _ status: MissionStatus, run: String?) -> MissionAssignment {
            var a = MissionAssignment(id: id, userID: "u", day: day, kind: "hills", specJSON: "{}", modelVersion: "m",
                                      pComplete: 0.5, xp: 10, status: status, offeredAt: 0)
            a.runID = run
            return a
        }
        let outcomes = PastOutcome.from(assignments: [assignment("a", .completed, run: "r1"), assignment("b", .failed, run: "gone"),
                                                      assignment("c", .expired, run: nil), assignment("d", .failed, run: "r1")],
                                        runs: runs)
        #expect(outcomes == [PastOutcome(kind: .hills, completed: true, decidedAt: 1000),
                             PastOutcome(kind: .hills, completed: false, decidedAt: 1000)])
        // Known from the deciding run's start on, not at it.
        #expect(RunnerState(history: runs, outcomes: outcomes, asOf: 1000).tried(.hills) == 0)
        #expect(RunnerState(history: runs, outcomes: outcomes, asOf: 1001).tried(.hills) == 2)
    }

    @Test("best paces, the 5 km estimate and the start hour follow their definitions")
    func paces() {
        let t: EpochSeconds = 1_800_000_000
        func run(_ id: String, daysAgo: Double, km: Double, pace: SecondsPerKm, hour: Double) -> RunRecord {
            let start = (t - daysAgo * 86_400) - (t - daysAgo * 86_400).truncatingRemainder(dividingBy: 86_400) + hour * 3600
            return RunRecord(id: id, userID: "u", startTime: start, distance: km * 1000, elapsed: km * pace,
                             moving: km * pace, elevationGain: km * 12, source: "test")
        }
        let runs = [run("a", daysAgo: 100, km: 10, pace: 250, hour: 6),   // outside 90 days
                    run("b", daysAgo: 20, km: 6, pace: 300, hour: 6),
                    run("c", daysAgo: 10, km: 12, pace: 320, hour: 7),
                    run("d", daysAgo: 5, km: 2, pace: 280, hour: 5)]
        let s = RunnerState(history: runs, asOf: t)
        #expect(s.bestPaces[5000] == 300 && s.bestPaces[10_000] == 320 && s.bestPaces[1000] == 280)
        #expect(s.bestPaces[21_097.5] == nil)
        // Best of b and c scaled with 1.06 (d is under 3 km).
        let expected = min(1800 * pow(5 / 6.0, 1.06), 3840 * pow(5 / 12.0, 1.06))
        #expect(abs(s.estimated5k! - expected) < 1e-9)
        // Start hours 6, 6, 7, 5 (UTC): the circular mean is 6 to within a minute.
        #expect(abs(s.usualStartHour! - 6) < 1.0 / 60)
        #expect(s.climbPerKm == 12)
        #expect(s.longest90d == 12_000 && s.longest28d == 12_000 && s.runs90d == 3)
    }
}
