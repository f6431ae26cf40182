import Testing
import Foundation
import RunusCore
import Engine
import Features
import Simulation
import Training

/// Record 0652 and docs/simulation.md ("Races"): simulated runners race in fields of six, and
/// the podium forecast made from their histories (`RaceMissions.podiumRunner`) is judged by the
/// true chance, which is the same forecast on their latent race times with only the race day's
/// spread. Fields are drawn two ways: six runners at random (strangers who joined one race),
/// and six neighbours in the order of their estimates (a race of equals, the hardest case).
@Suite("podium forecast on simulated runners")
struct PodiumTruthTests {
    /// Issue 25's per-kind goal for mean |p̂ − p_true|.
    static let truthGoal = 0.05
    /// Most |mean p̂ − mean p_true| in a bin of the forecast (calibration).
    static let calibrationGoal = 0.05
    /// Fewest chances a calibration bin needs to be judged.
    static let binMinimum = 100
    static let fieldSize = 6
    static let fields = 300

    struct Entrant {
        let estimate: PodiumForecast.Runner
        let truth: PodiumForecast.Runner
    }

    /// Every simulated runner with a race-pace estimate the day after the simulation, with
    /// their forecast for a 5 km race (as `RaceMissions` makes it, everyone finishing) and
    /// their latent truth.
    static func entrants(_ configuration: SimulationConfiguration) -> [Entrant] {
        (0..<configuration.runners).compactMap { i in
            let runner = RunnerSimulator.simulate(runner: i, configuration: configuration)
            let start = configuration.startDay.adding(days: configuration.days).startInstant(utcOffset: runner.profile.utcOffsetSeconds)
            let outcomes = PastOutcome.from(assignments: runner.assignments, runs: runner.runs)
            guard let estimate = RaceMissions.podiumRunner(runs: runner.runs, outcomes: outcomes, distance: 5000, start: start,
                                                           finish: 1) else { return nil }
            let truth = PodiumForecast.Runner(logTime: log(runner.race5kAfter), sigma: RaceMissions.raceDaySpread, finish: 1)
            return Entrant(estimate: estimate, truth: truth)
        }
    }

    /// Mean |p̂ − p_true| over every runner's first 1, 2 and 3 places, and per bin of p̂ (of
    /// width 0.2) the count and the mean p̂ and p_true.
    static func compare(_ fields: [[Entrant]]) throws -> (gap: Double, bins: [(count: Int, forecast: Double, truth: Double)]) {
        var gap = 0.0, compared = 0
        var bins = Array(repeating: (count: 0, forecast: 0.0, truth: 0.0), count: 5)
        for field in fields {
            let p = try #require(PodiumForecast.placeProbabilities(field.map(\.estimate), places: 3))
            let truth = try #require(PodiumForecast.placeProbabilities(field.map(\.truth), places: 3))
            for i in field.indices {
                for k in 0..<3 {
                    gap += abs(p[i][k] - truth[i][k]); compared += 1
                    let b = min(4, max(0, Int(p[i][k] * 5)))
                    bins[b].count += 1; bins[b].forecast += p[i][k]; bins[b].truth += truth[i][k]
                }
            }
        }
        return (gap / Double(max(1, compared)), bins.map { ($0.count, $0.forecast / Double(max(1, $0.count)), $0.truth / Double(max(1, $0.count))) })
    }

    @Test("strangers: mean |p̂ − p_true| ≤ 0.05; strangers and equals: each bin of p̂ within 0.05 of the truth")
    func forecastTracksTruth() throws {
        let all = Self.entrants(SimulationConfiguration(runners: 32, days: 70, seed: 13))
        try #require(all.count >= 24, "runners with an estimate: \(all.count)")
        var rng = SeededGenerator(seed: 13)
        let strangers: [[Entrant]] = (0..<Self.fields).map { _ in
            var pool = all, field: [Entrant] = []
            for _ in 0..<Self.fieldSize { field.append(pool.remove(at: rng.int(in: 0...(pool.count - 1)))) }
            return field
        }
        let sorted = all.sorted { $0.estimate.logTime < $1.estimate.logTime }
        let equals: [[Entrant]] = (0..<Self.fields).map { _ in
            let first = rng.int(in: 0...(sorted.count - Self.fieldSize))
            return Array(sorted[first..<(first + Self.fieldSize)])
        }
        for (name, fields) in [("strangers", strangers), ("equals", equals)] {
            let (gap, bins) = try Self.compare(fields)
            print("podium, \(name): mean |p̂ − p_true| \(TrainingPipeline.rounded(gap)); bins (count, p̂, p_true) "
                  + bins.map { "(\($0.count), \(TrainingPipeline.rounded($0.forecast)), \(TrainingPipeline.rounded($0.truth)))" }.joined(separator: " "))
            if name == "strangers" { #expect(gap <= Self.truthGoal, "\(name): \(gap)") }
            for (b, bin) in bins.enumerated() where bin.count >= Self.binMinimum {
                #expect(abs(bin.forecast - bin.truth) <= Self.calibrationGoal, "\(name), bin \(b): \(bin)")
            }
        }
    }
}
