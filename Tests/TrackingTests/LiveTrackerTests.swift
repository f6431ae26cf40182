import Foundation
import Testing
import RunusCore
@testable import Tracking

/// Live (streaming) against batch: at a prefix, `LiveTracker.snapshot()` must equal
/// `RunMetrics(track: prefix)` with best efforts from its profile (record 0160).
///
/// Tolerance: none. Every stage mirrors the batch arithmetic in the same order (sums of the
/// same terms in the same order, minima over the same candidates), so the numbers are
/// bit-identical; a tolerance would hide a rule that drifted.
@Suite("Live tracker")
struct LiveTrackerTests {
    /// Appends `points` and compares with batch at each prefix length in `checks` (ascending).
    static func compare(_ points: [TrackPoint], at checks: [Int], weightKg: Double? = 70,
                        configuration: MetricsConfiguration = .default, label: String) -> (vehicleChecks: Int, failures: Int) {
        var live = LiveTracker(weightKg: weightKg, configuration: configuration)
        var vehicleChecks = 0, failures = 0, next = 0
        for (n, p) in points.enumerated() {
            live.append(p)
            guard next < checks.count, checks[next] == n + 1 else { continue }
            next += 1
            let prefix = Track(points: Array(points[...n]))
            let batch = RunMetrics(track: prefix, weightKg: weightKg, configuration: configuration)
            let expected = LiveMetrics(batch, effortDistances: live.effortDistances)
            let got = live.snapshot()
            if got != expected {
                failures += 1
                Issue.record("\(label) prefix \(n + 1): live \(got) vs batch \(expected)")
                if failures > 2 { break }
            }
            if n % 7 == 0 {
                let profile = live.profile()
                #expect(profile.times == batch.profile.times && profile.distances == batch.profile.distances
                        && profile.moving == batch.profile.moving, "\(label) prefix \(n + 1): profile")
            }
            let cleaned = prefix.cleaned(configuration: configuration)
            if cleaned.vehicleSegments(configuration: configuration).contains(true) { vehicleChecks += 1 }
        }
        return (vehicleChecks, failures)
    }

    /// Every prefix up to `dense`, then every `stride`-th, and the last 40.
    static func checkpoints(count n: Int, dense: Int, stride: Int) -> [Int] {
        var set = Set(1...min(n, dense))
        set.formUnion(Swift.stride(from: dense, through: n, by: stride))
        set.formUnion(max(1, n - 40)...n)
        return set.sorted()
    }

    @Test("live equals batch on random tracks with pauses, faults and vehicle legs", arguments: Array(1...6) as [UInt64])
    func randomTracks(seed: UInt64) {
        let points = RandomRuns.track(seed: seed, minutes: 40)
        let (vehicle, failures) = Self.compare(points, at: Self.checkpoints(count: points.count, dense: 200, stride: 53),
                                               label: "seed \(seed)")
        #expect(failures == 0)
        _ = vehicle
    }

    @Test("the random tracks exercise both vehicle rules")
    func coverage() {
        var rule = 0, classifierOnly = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let cleaned = Track(points: RandomRuns.track(seed: seed, minutes: 40)).cleaned()
            let flags = cleaned.vehicleSegments()
            let ruleFlags = cleaned.vehicleSpeedRule()
            if ruleFlags.contains(true) { rule += 1 }
            if zip(flags, ruleFlags).contains(where: { $0 && !$1 }) { classifierOnly += 1 }
        }
        #expect(rule >= 3 && classifierOnly >= 1, "tracks with rule flags \(rule), with classifier-only flags \(classifierOnly)")
    }

    @Test("without the classifier, and with other thresholds, live still equals batch")
    func otherConfiguration() {
        let configuration = MetricsConfiguration(pauseSpeed: 0.8, resumeSpeed: 1.6, elevationThreshold: 0, splitLength: 1609.344,
                                                 vehicleSpeed: 6, classifyActivities: false)
        for seed in [21, 22] as [UInt64] {
            let points = RandomRuns.track(seed: seed, minutes: 30)
            let result = Self.compare(points, at: Self.checkpoints(count: points.count, dense: 200, stride: 11), weightKg: nil,
                                      configuration: configuration, label: "seed \(seed) (no classifier)")
            #expect(result.failures == 0)
        }
    }

    /// The knobs of records 0150–0152 away from their defaults: distance only while moving, no
    /// jitter filter or a wide one, per-segment or 10 s auto-pause windows, a tight acceleration
    /// limit, and 37.5 m splits (many splits, and dropouts whose one segment spans several).
    @Test("with the distance, jitter, auto-pause and acceleration knobs changed, live still equals batch",
          arguments: [(31, 0, 0, true), (32, 8, 10, false)] as [(UInt64, Double, Double, Bool)])
    func distanceKnobs(seed: UInt64, jitterRadius: Double, halfWidth: Double, onlyWhileMoving: Bool) {
        let configuration = MetricsConfiguration(maxAcceleration: 1.5, pauseWindowHalfWidth: halfWidth, jitterRadius: jitterRadius,
                                                 distanceOnlyWhileMoving: onlyWhileMoving, splitLength: 37.5)
        let points = RandomRuns.track(seed: seed, minutes: 25)
        let result = Self.compare(points, at: Self.checkpoints(count: points.count, dense: 150, stride: 29),
                                  configuration: configuration, label: "seed \(seed) (knobs)")
        #expect(result.failures == 0)
    }

    @Test("empty, one-fix and all-vehicle tracks")
    func edges() {
        #expect(LiveTracker().snapshot() == LiveMetrics(RunMetrics(track: Track(points: [])), effortDistances: LiveTracker.defaultEffortDistances))
        var b = TrackBuilder()
        b.run(speed: 15, seconds: 120)
        let r = Self.compare(b.points, at: Array(1...b.points.count), label: "all vehicle")
        #expect(r.failures == 0 && r.vehicleChecks > 0)
    }
}

@Suite("Live tracker cost")
struct LiveTrackerCostTests {
    /// Amortised O(1), shown by counting rather than timing: over a 3-hour track at about 1 Hz
    /// with every kind of leg, the work per fix stays flat as the run grows, and the undecided
    /// tail a snapshot recomputes stays under a bound set by the stages' holding times (record
    /// 0160: about 18 minutes of fixes), however long the run.
    @Test("work per fix is flat and the undecided tail is bounded", arguments: [31] as [UInt64])
    func amortisedConstant(seed: UInt64) {
        let points = RandomRuns.track(seed: seed, minutes: 200, interval: 1)
        var live = LiveTracker()
        var maxUndecided = 0
        var workAtHour: [(fixes: Int, work: Int)] = []
        let start = points[0].time
        for p in points {
            live.append(p)
            maxUndecided = max(maxUndecided, live.undecided)
            if p.time - start >= Double(workAtHour.count + 1) * 3600 { workAtHour.append((live.appended, live.work)) }
        }
        // Bound: rule stage 50 s + classifier windows (5 × 120 s + 60 s) + a vehicle stretch
        // under 360 s + the totals' jitter spread and auto-pause (10 s) ≈ 1,080 s; at 1 Hz with
        // ±20 % jitter, fewer than 1,300 fixes.
        #expect(maxUndecided <= 1_300, "max undecided \(maxUndecided)")
        // Per fix, whatever the hour: one step per stage, about one fix read for window
        // features, and at most three pointer moves for each of the 8 best efforts: ≤ 28.
        let hours = zip(workAtHour, [(0, 0)] + workAtHour).map { (fixes: $0.fixes - $1.0, work: $0.work - $1.1) }
        #expect(hours.count >= 3 && hours.allSatisfy { $0.work <= 28 * $0.fixes }, "work per hour \(hours)")
    }
}

@Suite("Live jitter spread")
struct LiveJitterSpreadTests {
    /// `LiveJitterSpread` against `JitterFilter.spreadSteps` at every prefix, bit for bit: the
    /// decided steps followed by `pending()` equal the batch steps of the prefix, and no more than
    /// `spreadLimit` seconds of steps wait (AutoPauseTests' fixes: stops, walks, runs, gaps).
    @Test("decided steps and the pending remainder equal spreadSteps at every prefix", arguments: [(41, 5.0), (42, 0.0)] as [(UInt64, Double)])
    func equalsBatch(seed: UInt64, radius: Double) {
        let points = AutoPauseTests.randomFixes(seed: seed, count: 600)
        var live = LiveJitterSpread(first: points[0], radius: radius, spreadLimit: 10)
        var decided: [Meters] = [0]
        for n in 2...points.count {
            decided += live.append(points[n - 1])
            let batch = JitterFilter.spreadSteps(Array(points[..<n]), radius: radius, spreadLimit: 10)
            #expect(decided + live.pending() == batch, "prefix \(n)")
            if decided + live.pending() != batch { break }
            let waiting = n - decided.count
            if waiting > 1 { #expect(points[n - 1].time - points[n - waiting].time <= 10, "prefix \(n): \(waiting) steps wait") }
        }
    }
}
