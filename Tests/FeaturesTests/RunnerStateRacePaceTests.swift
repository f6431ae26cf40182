#if canImport(Glibc)
import Glibc
#endif
import Testing
import RunusCore
import Missions
@testable import Features

/// The recency-weighted race pace of record 0619 and the two features built on it.
@Suite("RunnerState race pace (record 0619)")
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

    @Test("the estimate is the weighted geometric mean over runs ≥ 1 km of the last 42 days, recomputed plainly")
    func weightedMeanOracle() {
        let (runs, _) = randomHistoryWithOutcomes(seed: 31, count: 90)
        for index in [10, 45, 89] {
            let t = runs[index].startTime + 3600
            let s = RunnerState(history: runs, asOf: t)
            // The plainest form: collect (weight, 5 km pace) pairs, then divide the sums.
            var pairs: [(Double, Double)] = []
            for r in runs where r.startTime < t && t - r.startTime <= 42 * 86_400 && r.distance >= 1000 {
                let ageDays = (t - r.startTime) / 86_400
                pairs.append((exp(-ageDays / 14 * log(2.0)), r.moving / (r.distance / 1000) * pow(5000 / r.distance, 0.06)))
            }
            let expected = exp(pairs.map { $0.0 * log($0.1) }.reduce(0, +) / pairs.map(\.0).reduce(0, +))
            let got = try! #require(s.racePace5k)
            #expect(abs(got - expected) <= 1e-9 * expected, "run \(index): \(got) vs \(expected)")
        }
    }

    @Test("old and short runs are ignored; without a run the features fall back to the typical-pace estimate")
    func windowAndFallback() {
        let old = Self.run("old", daysBefore: 43, distance: 8000, pace: 200)
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
