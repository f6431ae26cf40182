import Testing
import RunusCore
@testable import Tracking

@Suite("Distance profile")
struct DistanceProfileTests {
    /// Random profile with speed bursts and flat (paused) stretches, 1–5 s fixes.
    static func randomProfile(_ rng: inout SeededGenerator, count: Int) -> DistanceProfile {
        var t = 1000.0, d = 0.0
        var times = [t], distances = [d]
        for _ in 1..<count {
            t += Double(rng.int(in: 1...5))
            d += rng.bernoulli(0.15) ? 0 : rng.uniform(0, 15)
            times.append(t); distances.append(d)
        }
        return DistanceProfile(times: times, distances: distances)
    }

    /// Oracle, O(n²) and obviously correct: every window that starts at a fix (latest time at
    /// that distance) or ends at a fix, with the other end found by a linear scan.
    static func bruteForce(_ p: DistanceProfile, _ d: Meters) -> Seconds? {
        let n = p.times.count
        var best: Double? = nil
        func consider(_ v: Double) { best = min(best ?? v, v) }
        for i in 0..<n {
            for j in (i + 1)..<max(n, i + 1) where p.distances[j] >= p.distances[i] + d {
                let target = p.distances[i] + d
                let f = (target - p.distances[j - 1]) / (p.distances[j] - p.distances[j - 1])
                consider(p.times[j - 1] + f * (p.times[j] - p.times[j - 1]) - p.times[i])
                break
            }
            for k in stride(from: i - 1, through: 0, by: -1) where p.distances[k] <= p.distances[i] - d {
                let target = p.distances[i] - d
                let span = p.distances[k + 1] - p.distances[k]
                let start = span > 0 && p.distances[k + 1] > target
                    ? p.times[k] + (target - p.distances[k]) / span * (p.times[k + 1] - p.times[k]) : p.times[k]
                consider(p.times[i] - start)
                break
            }
        }
        return best
    }

    /// Two algorithms doing the same arithmetic in a different order: rounding only.
    static let timeTolerance: Seconds = 1e-6

    @Test("best effort equals the O(n²) oracle on random profiles", arguments: [11, 12, 13, 14, 15])
    func bestEffortMatchesBruteForce(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let p = Self.randomProfile(&rng, count: rng.int(in: 2...300))
        for d in [0.5, 10, 100, 400, 1000, 1609.344, p.totalDistance, p.totalDistance + 1] {
            guard d > 0 else { continue }
            let fast = p.fastestDuration(covering: d), slow = Self.bruteForce(p, d)
            #expect((fast == nil) == (slow == nil), "d=\(d)")
            if let fast, let slow { #expect(abs(fast - slow) < Self.timeTolerance, "d=\(d): \(fast) vs \(slow)") }
            // And no window starting on a fine grid beats it.
            if let fast {
                var x = 0.0
                while x + d <= p.totalDistance {
                    let w = p.time(atDistance: x + d)! - p.time(atDistance: x)!
                    #expect(w >= fast - Self.timeTolerance)
                    x += p.totalDistance / 97
                }
            }
        }
    }

    @Test("time and distance lookups interpolate and invert each other")
    func lookups() {
        let p = DistanceProfile(times: [0, 10, 20, 30], distances: [0, 50, 50, 150])
        #expect(p.time(atDistance: 25) == 5)
        #expect(p.time(atDistance: 50) == 10)          // earliest instant reaching 50 m
        #expect(p.time(atDistance: 100) == 25)
        #expect(p.time(atDistance: 151) == nil && p.time(atDistance: -1) == nil)
        #expect(p.distance(atTime: 15) == 50 && p.distance(atTime: 27.5) == 125)
        #expect(p.distance(atTime: -5) == 0 && p.distance(atTime: 99) == 150)
        #expect(p.fastestDuration(covering: 100) == 10)
        #expect(p.movingDuration(from: 0, to: 150) == 20)   // the flat stretch has no distance
    }
}
