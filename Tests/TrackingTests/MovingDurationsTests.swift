import Testing
import RunusCore
@testable import Tracking

/// Splits take every split's moving time in one pass (`movingDurations(between:)`); it must
/// agree bit for bit with one `movingDuration` call per range, which it replaced because
/// that was O(fixes × splits) (a mutated 20,000 km file hung: the fuzzing campaign).
@Suite("moving durations in one pass")
struct MovingDurationsTests {
    static func profile(_ g: inout SeededGenerator, count: Int, flags: Bool) -> DistanceProfile {
        var times: [EpochSeconds] = [0], distances: [Meters] = [0], moving: [Bool] = [true]
        for _ in 1..<count {
            times.append(times[times.count - 1] + g.uniform(0.5, 30))
            // A third of the steps add no distance (stops, jitter), some add a lot.
            let step = g.bernoulli(0.33) ? 0 : (g.bernoulli(0.05) ? g.uniform(500, 5000) : g.uniform(0, 8))
            distances.append(distances[distances.count - 1] + step)
            moving.append(g.bernoulli(0.8))
        }
        return DistanceProfile(times: times, distances: distances, moving: flags ? moving : nil)
    }

    @Test("equal to one movingDuration per range, on random profiles with stops, flags and split lengths", arguments: [false, true])
    func agreesWithPerRange(flags: Bool) {
        var g = SeededGenerator(seed: 2026, stream: flags ? 1 : 0)
        for _ in 0..<200 {
            let p = Self.profile(&g, count: g.int(in: 2...300), flags: flags)
            let total = p.totalDistance
            var bounds: [Meters] = [0]
            let length = g.bernoulli(0.5) ? 1000 : g.uniform(1, 400)
            while total - bounds[bounds.count - 1] > 1e-3 {
                let next = bounds[bounds.count - 1] + length
                bounds.append(total - next <= 1e-3 ? total : next)
            }
            let once = p.movingDurations(between: bounds)
            let each = (0..<(bounds.count - 1)).map { p.movingDuration(from: bounds[$0], to: bounds[$0 + 1]) }
            #expect(once.map(\.bitPattern) == each.map(\.bitPattern))
        }
    }

    @Test("900 km in 50,000 fixes: 900 splits adding up to the moving time; past 1,000 km (no run) none")
    func manySplits() {
        let n = 50_000
        let times = (0..<n).map { Double($0) }
        func profile(metresPerSecond v: Double) -> DistanceProfile {
            DistanceProfile(times: times, distances: (0..<n).map { Double($0) * v })
        }
        let long = profile(metresPerSecond: 900_000 / Double(n - 1))
        let splits = RunMetrics.splits(profile: long, length: 1000)
        #expect(splits.count == 900)
        let sum = splits.reduce(0) { $0 + $1.duration }
        #expect(abs(sum - long.movingDuration(from: 0, to: long.totalDistance)) <= 1e-6 * sum)
        // A garbage file's 20,000 km: splits are not a run's any more (record 0230).
        #expect(RunMetrics.splits(profile: profile(metresPerSecond: 400), length: 1000).isEmpty)
    }
}
