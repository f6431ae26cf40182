import Testing
import RunusCore
import Tracking
@testable import Missions

@Suite("Mission evaluator")
struct MissionEvaluatorTests {
    /// Synthetic runs are exact up to the local-distance approximation (< 1e-5 relative, record 0100).
    static let progressTolerance = 1e-3

    @Test("distance: done, done within the 1 % GPS tolerance, failed with partial progress")
    func distance() {
        let spec = MissionSpec.distance(minDistance: 5000)
        #expect(MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(5100, 330)])).status == .completed)
        let nearMiss = SyntheticRun.metrics([(4960, 330)])
        #expect(MissionEvaluator.evaluate(spec, metrics: nearMiss).status == .completed)
        #expect(MissionEvaluator.evaluate(spec, metrics: nearMiss, tolerance: .exact).status == .failed)
        let short = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(2475, 330)]))
        #expect(short.status == .failed)
        #expect(abs(short.progress - 0.5) < Self.progressTolerance)
        #expect(short.evidence == ["ran 2.48 km of 5.00 km (4.95 km accepted for GPS error)"])
    }

    @Test("duration: moving time counts, a short run reports its share")
    func duration() {
        let spec = MissionSpec.duration(minDuration: 1800)
        #expect(MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(6000, 300)])).status == .completed)
        let e = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(3000, 297)]))   // 891 s
        #expect(e.status == .failed && abs(e.progress - 891 / 1782) < Self.progressTolerance)
        #expect(e.evidence == ["moved for 14:51 of 30:00"])
    }

    @Test("pace: fast enough passes even after a slow warm-up; too slow or too short fails")
    func pace() {
        let spec = MissionSpec.pace(maxPace: 330, minDistance: 5000)
        #expect(MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(5000, 320)])).status == .completed)
        // Within the +1 s/km slack.
        #expect(MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(5000, 330.8)])).status == .completed)
        let slow = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(5000, 340)]))
        #expect(slow.status == .failed && abs(slow.progress - 331.0 / 340) < Self.progressTolerance)
        let warmUp = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(1000, 420), (5000, 320)]))
        #expect(warmUp.status == .completed)
        #expect(warmUp.evidence.last == "fastest 4.95 km at 5:20/km (target 5:30/km)")
        let short = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(3000, 300)]))
        #expect(short.status == .failed && abs(short.progress - 3000.0 / 4950) < Self.progressTolerance)
    }

    @Test("negative split: a faster second half passes, a slower one fails, with both halves as evidence")
    func negativeSplit() {
        let spec = MissionSpec.negativeSplit(minDistance: 5000)
        let good = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(2500, 310), (2500, 290)]))
        #expect(good.status == .completed && good.progress == 1)
        #expect(good.evidence.last == "first half 12:55, second half 12:05")
        let bad = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(2500, 290), (2500, 310)]))
        #expect(bad.status == .failed && bad.progress < 1 && bad.progress > 0.9)
        let even = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(5000, 300)]))
        #expect(even.status == .failed)
        // Fast second half but too short.
        let short = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(1500, 310), (1500, 290)]))
        #expect(short.status == .failed && abs(short.progress - 3000.0 / 4950) < Self.progressTolerance)
    }

    @Test("distance in time: the fastest stretch counts; too slow and too short fail")
    func distanceInTime() {
        let spec = MissionSpec.distanceInTime(distance: 5000, maxDuration: 1650)
        let ok = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(800, 400), (5000, 324)]))
        #expect(ok.status == .completed)
        let slow = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(5000, 340)]))
        // Fastest 4950 m takes 1683 s; limit 1650 + 5 s slack.
        #expect(slow.status == .failed && abs(slow.progress - 1655.0 / 1683) < Self.progressTolerance)
        let short = MissionEvaluator.evaluate(spec, metrics: SyntheticRun.metrics([(2000, 300)]))
        #expect(short.status == .failed && short.progress < 0.5)
    }

    @Test("a run without a usable track is not applicable to any kind")
    func notApplicable() {
        let empty = RunMetrics(track: Track(points: []))
        for spec in MissionSpecTests.examples {
            let e = MissionEvaluator.evaluate(spec, metrics: empty)
            #expect(e.status == .notApplicable && e.progress == 0)
        }
    }
}
