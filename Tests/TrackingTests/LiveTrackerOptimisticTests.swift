import Testing
import RunusCore
@testable import Tracking

/// The optimistic tail (record 0160): a snapshot taken from it must equal the batch record at
/// every prefix, bit for bit, like the replayed one; it must actually serve most snapshots of a
/// foot run, give way to the replay when the tail decides a vehicle, and cost amortised O(1).
@Suite("Live tracker optimistic tail")
struct LiveTrackerOptimisticTests {
    /// Appends `points` to a tracker with the optimistic tail and, at each prefix in `checks`,
    /// compares both snapshots with batch. Returns how many prefixes the optimistic tail served.
    static func compare(_ points: [TrackPoint], at checks: [Int], configuration: MetricsConfiguration = .default,
                        label: String) -> (served: Int, checked: Int, failures: Int) {
        var live = LiveTracker(weightKg: 70, configuration: configuration, optimisticTail: true)
        var served = 0, checked = 0, failures = 0, next = 0
        for (n, p) in points.enumerated() {
            live.append(p)
            guard next < checks.count, checks[next] == n + 1 else { continue }
            next += 1
            checked += 1
            let batch = RunMetrics(track: Track(points: Array(points[...n])), weightKg: 70, configuration: configuration)
            let expected = LiveMetrics(batch, effortDistances: live.effortDistances)
            let optimistic = live.optimisticSnapshot()
            if optimistic != nil { served += 1 }
            let got = optimistic ?? live.replayedSnapshot()
            if got != expected || live.snapshot() != got {
                failures += 1
                Issue.record("\(label) prefix \(n + 1) (optimistic: \(optimistic != nil)): live \(got) vs batch \(expected)")
                if failures > 2 { break }
            }
        }
        return (served, checked, failures)
    }

    /// Random tracks with car, bus and sprint legs (the classifier deciding some vehicle parts
    /// 6+ minutes after they start, so a foot tail becomes a vehicle one late), spikes, pauses
    /// and dropouts.
    @Test("snapshots from the optimistic tail equal batch at every prefix, vehicle parts decided late included",
          arguments: [1, 2, 5] as [UInt64])
    func randomTracks(seed: UInt64) {
        let points = RandomRuns.track(seed: seed, minutes: 40)
        let r = Self.compare(points, at: LiveTrackerTests.checkpoints(count: points.count, dense: 150, stride: 11),
                             label: "seed \(seed)")
        #expect(r.failures == 0)
        // Both paths run: the optimistic tail serves some prefixes, the replay the vehicle ones.
        #expect(r.served > 0 && r.served < r.checked, "served \(r.served) of \(r.checked)")
    }

    @Test("with the jitter, auto-pause and distance knobs changed, the optimistic snapshots equal batch")
    func knobs() {
        let configuration = MetricsConfiguration(maxAcceleration: 1.5, pauseWindowHalfWidth: 10, jitterRadius: 8,
                                                 distanceOnlyWhileMoving: true, splitLength: 37.5)
        let points = RandomRuns.track(seed: 32, minutes: 25)
        let r = Self.compare(points, at: LiveTrackerTests.checkpoints(count: points.count, dense: 150, stride: 13),
                             configuration: configuration, label: "seed 32 (knobs)")
        #expect(r.failures == 0 && r.served > 0)
    }

    /// A foot run (no vehicle leg): after the first minutes the optimistic tail serves every
    /// snapshot.
    @Test("on a foot run the optimistic tail serves the snapshots")
    func footRun() {
        var b = TrackBuilder()
        b.run(speed: 3.2, seconds: 900)
        b.run(speed: 0, seconds: 60)
        b.run(speed: 2.8, seconds: 600)
        let r = Self.compare(b.points, at: Array(stride(from: 1, through: b.points.count, by: 5)), label: "foot run")
        #expect(r.failures == 0 && r.served >= r.checked * 9 / 10, "served \(r.served) of \(r.checked)")
    }

    /// Counted, not timed: the optimistic tail accepts each fix once, plus the rebuilds after
    /// vehicle decisions, each no longer than the fixes that arrived since: at most about two
    /// segments per fix over a 3-hour track with every kind of leg.
    @Test("the optimistic tail's work is amortised O(1)")
    func work() {
        let points = RandomRuns.track(seed: 31, minutes: 200, interval: 1)
        var live = LiveTracker(optimisticTail: true)
        for p in points { live.append(p) }
        #expect(live.optimisticWork <= 2 * live.appended + 1_300, "work \(live.optimisticWork) for \(live.appended) fixes")
        #expect(live.optimisticWork >= live.appended / 2)
    }
}
