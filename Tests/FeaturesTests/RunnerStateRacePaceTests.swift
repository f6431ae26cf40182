#if canImport(Glibc)
import Glibc
#endif
import Testing
import RunusCore
import Missions
@testable import Features

/// The race pace of records 0619 and 0651 (a recency-weighted median) and the features built on it.
@Suite("RunnerState race pace (records 0619, 0651, 0654)")
struct RunnerStateRacePaceTests {
    static let t0: EpochSeconds = 1_790_000_000

    static func run(_ id: String, daysBefore: Double, distance: Meters, pace: SecondsPerKm) -> RunRecord {
        let moving = distance / 1000 * pace
        return RunRecord(id: id, userID: "u", startTime: t0 - daysBefore * 86_400, distance: distance, elapsed: moving,
                         moving: moving, elevationGain: 0, source: "test")
    }

    /// Relative tolerance for sums of a few dozen logs and powers (a few ulps each).
    static let relative = 1e-12

    @Test("runs all at one Riegel-consistent race pace give exactly that pace, whatever their distances and ages")
    func riegelConsistentRunner() {
        let p5: SecondsPerKm = 290
        var rng = SeededGenerator(seed: 7)
        let runs = (0..<30).map { i -> RunRecord in
            let d = rng.uniform(1000, 30_000)
            return Self.run("r\(i)", daysBefore: rng.uniform(0.1, 41.9), distance: d, pace: p5 * pow(d / 5000, 0.06))
        }
        let s = RunnerState(history: runs, asOf: Self.t0)
        let estimate = try! #require(s.racePace5k)
        #expect(abs(estimate - p5) <= Self.relative * p5, "\(estimate)")
        #expect(abs(s.expectedRacePace(over: 10_000) - p5 * pow(2, 0.06)) <= Self.relative * p5)
    }

    @Test("the estimate is the weighted median over runs ≥ 1 km of the last 90 days, recomputed plainly")
    func weightedMedianOracle() {
        let (runs, _) = randomHistoryWithOutcomes(seed: 31, count: 90)
        for index in [10, 45, 89] {
            let t = runs[index].startTime + 3600
            let s = RunnerState(history: runs, asOf: t)
            // The plainest form: every (5 km pace, weight) pair; the median is the pace whose
            // lighter-or-equal side and heavier-or-equal side each hold at least half the weight.
            var pairs: [(pace: Double, weight: Double)] = []
            for r in runs where r.startTime < t && t - r.startTime <= 90 * 86_400 && r.distance >= 1000 {
                let ageDays = (t - r.startTime) / 86_400
                pairs.append((r.moving / (r.distance / 1000) * pow(5000 / r.distance, 0.06), exp(-ageDays / 30 * log(2.0))))
            }
            let total = pairs.map(\.weight).reduce(0, +)
            let got = try! #require(s.racePace5k)
            let below = pairs.filter { $0.pace < got }.map(\.weight).reduce(0, +)
            let above = pairs.filter { $0.pace > got }.map(\.weight).reduce(0, +)
            #expect(below <= total / 2 && above <= total / 2, "run \(index): \(got) leaves \(below) below, \(above) above of \(total)")
            #expect(pairs.contains { abs($0.pace - got) <= 1e-9 * got }, "run \(index): \(got) is one of the runs' paces")
        }
    }

    @Test("runs that are not the usual effort (jogged rests, a walked cool-down) do not move the median, as they moved the mean")
    func unusualRunsDoNotMoveIt() {
        var runs = (0..<8).map { Self.run("easy\($0)", daysBefore: Double($0) * 3 + 1, distance: 5000, pace: 330) }
        runs += (0..<3).map { Self.run("odd\($0)", daysBefore: Double($0) * 3 + 2, distance: 5000, pace: 420) }
        let estimate = try! #require(RunnerState(history: runs, asOf: Self.t0).racePace5k)
        #expect(abs(estimate - 330) <= Self.relative * 330, "\(estimate)")
    }

    @Test("a run that completed a mission of another effort is left out; a failed one, or one of the usual effort, stays in")
    func otherEffortCompletionsLeftOut() throws {
        // Five easy runs at 330 s/km and four faster ones at 300 that decided missions.
        var runs = (0..<5).map { Self.run("easy\($0)", daysBefore: Double($0) * 2 + 1, distance: 5000, pace: 330) }
        let fast = (0..<4).map { Self.run("fast\($0)", daysBefore: Double($0) * 2 + 2, distance: 5000, pace: 300) }
        runs += fast
        func estimate(_ outcomes: [PastOutcome]) throws -> SecondsPerKm {
            try #require(RunnerState(history: runs, outcomes: outcomes, asOf: Self.t0).racePace5k)
        }
        func outcome(_ kind: MissionKind, _ completed: Bool, _ run: RunRecord) -> PastOutcome {
            PastOutcome(kind: kind, completed: completed, decidedAt: run.startTime)
        }
        // Without outcomes the median of nine runs, five of them easy, is the easy pace; two fast
        // runs more would make it the fast one.
        #expect(try estimate([]) == 330)
        let completedPace = fast.map { outcome(.pace, true, $0) }
        let more = (0..<2).map { Self.run("more\($0)", daysBefore: 0.5 + Double($0), distance: 5000, pace: 300) }
        #expect(RunnerState(history: runs + more, asOf: Self.t0).racePace5k == 300)
        // Completed pace and interval missions take their runs out: the same history plus two
        // completed fast runs stays at the easy pace.
        let withMore = RunnerState(history: runs + more, outcomes: completedPace + more.map { outcome(.intervals, true, $0) },
                                   asOf: Self.t0)
        #expect(withMore.racePace5k == 330)
        // Every fast run left out: the easy runs alone.
        #expect(try estimate(completedPace) == 330)
        let evidence = try #require(RunnerState.racePaceEvidence(past: runs, asOf: Self.t0, outcomes: completedPace))
        let kept = RunnerState.racePaceEvidence(past: Array(runs.prefix(5)), asOf: Self.t0)
        #expect(evidence.pace == kept?.pace && abs(evidence.effectiveRuns - (kept?.effectiveRuns ?? 0)) < Self.relative)
        // Failed missions and usual-effort kinds (distance, loop) leave their runs in.
        let kept2 = RunnerState(history: runs + more, outcomes: more.map { outcome(.pace, false, $0) }
                                  + more.map { outcome(.distance, true, $0) }, asOf: Self.t0)
        #expect(kept2.racePace5k == 300)
        // An outcome decided at or after the instant changes nothing.
        let later = Self.run("later", daysBefore: -1, distance: 5000, pace: 300)
        #expect(RunnerState(history: runs + more, outcomes: [outcome(.pace, true, later)], asOf: Self.t0).racePace5k == 300)
        #expect(RunnerState.otherEffortKinds.isSuperset(of: [.pace, .distanceInTime, .intervals, .personalBest, .raceFinish]))
        #expect(RunnerState.otherEffortKinds.isDisjoint(with: [.distance, .duration, .longRun, .loop, .earlyBird, .nightOwl,
                                                               .explorer, .weeklyVolume, .streak, .evenPace]))
    }

    @Test("weighted median: the midpoint when the cumulative weight lands exactly on half; nothing without weight")
    func weightedMedianEdges() {
        #expect(RunnerState.weightedMedian([(300, 1), (320, 1)]) == 310)
        #expect(RunnerState.weightedMedian([(320, 1), (300, 1), (310, 1)]) == 310)
        #expect(RunnerState.weightedMedian([(300, 3), (400, 1)]) == 300)
        #expect(RunnerState.weightedMedian([(400, 1), (300, 0)]) == 400)
        #expect(RunnerState.weightedMedian([(300, 0)]) == nil)
        #expect(RunnerState.weightedMedian([(300, .nan), (310, .infinity)]) == nil)
        #expect(RunnerState.weightedMedian([]) == nil)
    }

    @Test("old and short runs are ignored; without a run the features fall back to the typical-pace estimate")
    func windowAndFallback() {
        let old = Self.run("old", daysBefore: 91, distance: 8000, pace: 200)
        let short = Self.run("short", daysBefore: 1, distance: 900, pace: 200)
        let kept = Self.run("kept", daysBefore: 3, distance: 5000, pace: 330)
        let only = try! #require(RunnerState(history: [old, short, kept], asOf: Self.t0).racePace5k)
        #expect(abs(only - 330) < 1e-9)
        let none = RunnerState(history: [old, short], asOf: Self.t0)
        #expect(none.racePace5k == nil)
        let spec = MissionSpec.pace(maxPace: 300, minDistance: 5000)
        let names = MissionFeatures.schema.names
        let race = names.firstIndex(of: "rel_race_pace_pace")!, typical = names.firstIndex(of: "rel_pace_pace")!
        let v = MissionFeatures.vector(spec, state: none)
        #expect(v[race] == v[typical])
        let withRun = RunnerState(history: [old, short, kept], asOf: Self.t0)
        #expect(abs(MissionFeatures.vector(spec, state: withRun)[race] - log(330 / 300.0)) < 1e-12)
        let dit = MissionSpec.distanceInTime(distance: 10_000, maxDuration: 3300)
        let ditIndex = names.firstIndex(of: "rel_race_pace_distance_in_time")!
        let w = MissionFeatures.vector(dit, state: withRun)
        #expect(abs(w[ditIndex] - log(330 * pow(2, 0.06) / 330)) < 1e-9)
        #expect(w[race] == 0 && v[ditIndex] == 0)
    }
}
