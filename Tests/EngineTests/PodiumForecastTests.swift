import Testing
import Foundation
import RunusCore
@testable import Engine

/// Record 0652: the chance of each runner to finish in the first k places.
@Suite("podium forecast")
struct PodiumForecastTests {
    typealias Runner = PodiumForecast.Runner
    /// The grid's error on a probability (midpoint cells of a twelfth of the smallest σ).
    static let gridTolerance = 1e-4

    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    @Test("runners alike share the places: each has k / n of the first k, times their finish chance")
    func alike() throws {
        let p = try #require(PodiumForecast.placeProbabilities(Array(repeating: Runner(logTime: 7.3, sigma: 0.04, finish: 1), count: 6), places: 3))
        for row in p { for k in 0..<3 { #expect(abs(row[k] - Double(k + 1) / 6) < Self.gridTolerance, "\(row)") } }
        let half = try #require(PodiumForecast.placeProbabilities([Runner(logTime: 7.3, sigma: 0.04, finish: 0.5),
                                                                   Runner(logTime: 7.3, sigma: 0.04, finish: 0.5)], places: 1))
        // Winning: finishing, and the other either not finishing or finishing behind.
        #expect(abs(half[0][0] - 0.5 * (0.5 + 0.5 * 0.5)) < Self.gridTolerance, "\(half)")
    }

    @Test("two runners: the win is Φ of the gap over the combined spread, for spreads that differ tenfold")
    func twoRunners() throws {
        let a = Runner(logTime: 7.30, sigma: 0.03, finish: 0.9), b = Runner(logTime: 7.34, sigma: 0.3, finish: 0.8)
        let p = try #require(PodiumForecast.placeProbabilities([a, b], places: 1))
        let aAhead = Self.phi((b.logTime - a.logTime) / (a.sigma * a.sigma + b.sigma * b.sigma).squareRoot())
        #expect(abs(p[0][0] - a.finish * ((1 - b.finish) + b.finish * aAhead)) < Self.gridTolerance, "\(p)")
        #expect(abs(p[1][0] - b.finish * ((1 - a.finish) + a.finish * (1 - aAhead))) < Self.gridTolerance, "\(p)")
    }

    @Test("when everybody finishes, the first k places hold k runners; chances grow with k and stay under the finish chance")
    func placesAddUp() throws {
        var rng = SeededGenerator(seed: 5)
        let field = (0..<300).map { _ in
            Runner(logTime: 7.4 + rng.gaussian(mean: 0, sd: 0.15), sigma: rng.uniform(0.03, 0.2), finish: 1)
        }
        let p = try #require(PodiumForecast.placeProbabilities(field, places: 3))
        for k in 0..<3 { #expect(abs(p.map { $0[k] }.reduce(0, +) - Double(k + 1)) < 300 * Self.gridTolerance) }
        let partial = field.enumerated().map { i, r in Runner(logTime: r.logTime, sigma: r.sigma, finish: i.isMultiple(of: 2) ? 0.6 : 0.95) }
        let q = try #require(PodiumForecast.placeProbabilities(partial, places: 3))
        for (row, runner) in zip(q, partial) {
            #expect(row[0] <= row[1] + Self.gridTolerance && row[1] <= row[2] + Self.gridTolerance && row[2] <= runner.finish + Self.gridTolerance)
        }
    }

    @Test("a mixed field agrees with 200,000 races drawn from the same forecasts")
    func monteCarlo() throws {
        let field = [Runner(logTime: 7.20, sigma: 0.05, finish: 0.9), Runner(logTime: 7.25, sigma: 0.03, finish: 1),
                     Runner(logTime: 7.22, sigma: 0.2, finish: 0.7), Runner(logTime: 7.35, sigma: 0.04, finish: 1),
                     Runner(logTime: 7.28, sigma: 0.1, finish: 0.85)]
        let p = try #require(PodiumForecast.placeProbabilities(field, places: 3))
        var rng = SeededGenerator(seed: 9)
        let draws = 200_000
        var counts = Array(repeating: [0, 0, 0], count: field.count)
        for _ in 0..<draws {
            let times: [Double?] = field.map { r in
                let t = r.logTime + r.sigma * rng.gaussian()
                return rng.uniform() < r.finish ? t : nil
            }
            let order = times.indices.filter { times[$0] != nil }.sorted { times[$0]! < times[$1]! }
            for (place, i) in order.prefix(3).enumerated() { for k in place..<3 { counts[i][k] += 1 } }
        }
        for i in field.indices {
            for k in 0..<3 {
                let rate = Double(counts[i][k]) / Double(draws)
                let se = (p[i][k] * (1 - p[i][k]) / Double(draws)).squareRoot()
                #expect(abs(rate - p[i][k]) <= 4 * se + Self.gridTolerance, "runner \(i), first \(k + 1): \(rate) vs \(p[i][k])")
            }
        }
    }

    @Test("500 random fields of extreme figures: every answer a probability, growing with k, or nil when a figure is not valid")
    func fuzzed() {
        var rng = SeededGenerator(seed: 21)
        let extremes: [Double] = [0, 1e-300, 1e-9, 0.5, 1, 700, -700, 1e300, .nan, .infinity, -.infinity]
        for _ in 0..<500 {
            let n = rng.int(in: 1...12)
            let field = (0..<n).map { _ in
                Runner(logTime: rng.uniform() < 0.2 ? extremes[rng.int(in: 0...(extremes.count - 1))] : rng.uniform(5, 10),
                       sigma: rng.uniform() < 0.2 ? extremes[rng.int(in: 0...(extremes.count - 1))] : rng.uniform(0.001, 1),
                       finish: rng.uniform() < 0.1 ? extremes[rng.int(in: 0...(extremes.count - 1))] : rng.uniform())
            }
            let places = rng.int(in: 0...4)
            guard let p = PodiumForecast.placeProbabilities(field, places: places) else { continue }
            #expect(p.count == n && (1...3).contains(places))
            for row in p {
                #expect(row.count == places && row.allSatisfy { $0.isFinite && (0...1).contains($0) }, "\(field) → \(row)")
                #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 + Self.gridTolerance }, "\(row)")
            }
        }
    }

    @Test("no forecast for an empty field, places outside 1 … 3, or figures that cannot be a forecast")
    func refusals() {
        let ok = Runner(logTime: 7, sigma: 0.1, finish: 1)
        #expect(PodiumForecast.placeProbabilities([], places: 1) == nil)
        #expect(PodiumForecast.placeProbabilities([ok, ok], places: 0) == nil)
        #expect(PodiumForecast.placeProbabilities([ok, ok], places: 4) == nil)
        for bad in [Runner(logTime: .nan, sigma: 0.1, finish: 1), Runner(logTime: 7, sigma: 0, finish: 1),
                    Runner(logTime: 7, sigma: .infinity, finish: 1), Runner(logTime: 7, sigma: 0.1, finish: 1.5),
                    Runner(logTime: 7, sigma: 0.1, finish: -0.1), Runner(logTime: -.infinity, sigma: 0.1, finish: 1)] {
            #expect(PodiumForecast.placeProbabilities([ok, bad], places: 1) == nil, "\(bad)")
        }
        // Finite log times whose span overflows, and a span wider than the grid's cells.
        #expect(PodiumForecast.placeProbabilities([Runner(logTime: -1e308, sigma: 0.1, finish: 1),
                                                   Runner(logTime: 1e308, sigma: 0.1, finish: 1)], places: 1) == nil)
        let wide = PodiumForecast.placeProbabilities([Runner(logTime: 0, sigma: 0.01, finish: 1), Runner(logTime: 1e6, sigma: 0.01, finish: 1)], places: 1)
        #expect(wide.map { abs($0[0][0] - 1) < 1e-9 && $0[1][0] < 1e-9 } == true, "\(String(describing: wide))")
    }
}
