import Testing
import Foundation
import RunusCore
@testable import Features

/// Record 0655: the weekly-volume outlook against a brute-force oracle, and against hostile inputs.
@Suite("weekly volume forecast")
struct WeeklyVolumeForecastTests {
    /// The grid's rounding moves each distance by at most half a bin (cap / 400 / 2); the
    /// thresholds below sit further than that from every reachable total, so the answers are exact
    /// up to floating-point sums.
    static let tolerance = 1e-12

    /// P(X₀ + Σ Bₖ Xₖ ≥ needed) by enumerating every run/rest pattern and every distance drawn.
    static func oracle(days: [(distance: Meters, weight: Double)], chances: [Double], needed: Meters) -> Double {
        let total = days.reduce(0) { $0 + $1.weight }
        func go(_ k: Int, _ sum: Meters, _ p: Double) -> Double {
            if k == chances.count { return sum >= needed ? p : 0 }
            var out = go(k + 1, sum, p * (1 - chances[k]))
            for d in days { out += go(k + 1, sum + d.distance, p * chances[k] * d.weight / total) }
            return out
        }
        return days.reduce(0) { $0 + go(0, $1.distance, $1.weight / total) }
    }

    static let days: [(distance: Meters, weight: Double)] = [(3000, 1), (5200, 0.5), (8100, 2), (12_600, 0.25)]
    static let chances = [0.3, 0.9, 0.05, 0.6]

    @Test("the outlook's chance of adding at least d equals the enumeration of every pattern of days and distances")
    func againstEnumeration() {
        // Totals are sums of the four distances; each threshold sits further from every reachable
        // total than five distances' rounding (5 × half a bin of cap / 400).
        for needed in [2000.0, 4000, 7000, 9900, 13_950, 19_000, 24_000, 30_000, 36_000, 41_800, 47_850] {
            let outlook = WeeklyVolumeForecast.Outlook(days: Self.days, chances: Self.chances, cap: needed)
            let exact = Self.oracle(days: Self.days, chances: Self.chances, needed: needed)
            #expect(abs(outlook.probability(adding: needed) - exact) < Self.tolerance, "needed \(needed)")
            // One outlook up to a larger cap (bins of 150 m) answers needs 500 m from any total too.
            if needed <= 9900 {
                let wide = WeeklyVolumeForecast.Outlook(days: Self.days, chances: Self.chances, cap: 60_000)
                #expect(abs(wide.probability(adding: needed) - exact) < Self.tolerance, "needed \(needed) on a coarser grid")
            }
        }
        let outlook = WeeklyVolumeForecast.Outlook(days: Self.days, chances: Self.chances, cap: 30_000)
        #expect(outlook.probability(adding: 0) == 1 && outlook.probability(adding: -5) == 1)
        #expect(outlook.probability(adding: .nan) == 0)
        // Non-increasing in the distance asked.
        let curve = stride(from: 0.0, through: 30_000, by: 250).map { outlook.probability(adding: $0) }
        #expect(zip(curve, curve.dropFirst()).allSatisfy { $0 >= $1 - 1e-15 })
    }

    @Test("a week's factor mixes the sum's chances at the three Gauss–Hermite scales")
    func weekFactor() {
        // Each of the three scaled thresholds sits over 200 m from every reachable total.
        let spread = 0.2, needed = 9700.0
        let mixed = WeeklyVolumeForecast.Outlook(days: Self.days, chances: Self.chances, cap: needed, spread: spread)
        let expected = WeeklyVolumeForecast.hermite.reduce(0) { acc, node in
            acc + node.w * Self.oracle(days: Self.days, chances: Self.chances, needed: needed * exp(-spread * node.z))
        }
        #expect(abs(mixed.probability(adding: needed) - expected) < Self.tolerance)
        #expect(abs(WeeklyVolumeForecast.hermite.reduce(0) { $0 + $1.w } - 1) < Self.tolerance)
    }

    @Test("hostile inputs (NaN, infinities, 1e300, negative or zero weights) give a probability or nil, never a trap", arguments: [1, 2, 3])
    func hostile(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let values: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 0, -1, 1e-300, 5000, 42_195, .greatestFiniteMagnitude]
        for _ in 0..<300 {
            func pick() -> Double { values[rng.int(in: 0...(values.count - 1))] }
            let days = (0..<rng.int(in: 0...5)).map { _ in (distance: pick(), weight: rng.bernoulli(0.5) ? pick() : 1) }
            let chances = (0..<rng.int(in: 0...6)).map { _ in pick() }
            let cap = pick(), spread = rng.bernoulli(0.5) ? 0 : abs(pick())
            guard cap.isFinite, spread.isFinite else { continue }
            let outlook = WeeklyVolumeForecast.Outlook(days: days, chances: chances, cap: cap, spread: spread)
            for needed in [pick(), pick()] {
                let p = outlook.probability(adding: needed)
                #expect(p >= 0 && p <= 1, "\(days) \(chances) cap \(cap) needed \(needed): \(p)")
            }
        }
        // Through the state: stored runs of any distance.
        let history = (0..<40).map { k in
            RunRecord(id: "r\(k)", userID: "u", startTime: Double(k) * 86_400 + 3600, distance: values[k % values.count],
                      elapsed: 1800, moving: 1800, elevationGain: 0, source: "test")
        }
        let state = RunnerState(history: history, asOf: 45 * 86_400)
        for target in values {
            if let p = WeeklyVolumeForecast.probability(target: target, state: state) { #expect(p >= 0 && p <= 1, "\(target): \(p)") }
        }
        #expect(WeeklyVolumeForecast.outlook(state: state, upTo: 1e4, spread: .nan) == nil)
    }
}
