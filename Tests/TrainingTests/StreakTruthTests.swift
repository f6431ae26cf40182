import Testing
import RunusCore
import Engine
import Features
import Missions
import Simulation
import Training

/// A scorer that puts every modelled candidate far below the band, so that the policy offers a
/// streak (scored by `StreakForecast`) whenever one fits, with the shipped model's schedule prior.
private struct FarBelowScorer: MissionScorer {
    let version = "far-below-1"
    let schedulePrior: SchedulePrior
    func probabilities(_ rows: [[Double]]) -> [Double] { rows.map { _ in 0.01 } }
}

/// Record 0650 and docs/simulation.md: on simulated runners offered streaks whenever one fits
/// (`PolicySimulationTests` checks them under the shipped model), the streak forecast tracks the true
/// probability (the chance of running on each day still needed), and a streak's stored outcome
/// is what the runner's run days say.
@Suite("streaks on simulated runners")
struct StreakTruthTests {
    /// Issue 25's per-kind goal for mean |p̂ − p_true|.
    static let truthGoal = 0.05
    /// Standard errors of the realised rate allowed around the mean prediction.
    static let errors = 3.0

    @Test("mean |p̂ − p_true| of offered streaks ≤ 0.05; realised near predicted; outcomes match the run days")
    func forecastTracksTruth() throws {
        let configuration = SimulationConfiguration(runners: 16, days: 90, seed: 11)
        let prior = try shippedSchedulePrior()
        let simulate = PolicySimulation.simulator(configuration, scorer: FarBelowScorer(schedulePrior: prior))
        var tried = 0, completed = 0, predicted = 0.0, gap = 0.0
        for i in 0..<configuration.runners {
            let runner = simulate(i)
            let offset = runner.profile.utcOffsetSeconds
            let runDays = Set(runner.runs.map { CivilDate(instant: $0.startTime, utcOffset: offset) })
            for a in runner.assignments where a.kind == MissionKind.streak.rawValue {
                guard case .streak(let n) = try MissionSpec(json: try JSONParser.parse(a.specJSON)) else { continue }
                guard let truth = a.pTrue else {
                    // Not tried: the runner did not run on its day (or the simulation ended in its window).
                    #expect(a.status == .expired, "\(a.id): \(a.status)")
                    continue
                }
                #expect(runDays.contains(a.day), "\(a.id) tried without a run on its day")
                tried += 1
                predicted += a.pComplete
                gap += abs(a.pComplete - truth)
                // The days in a row up to and including the last needed one (within the window).
                var behind = 0
                while runDays.contains(a.day.adding(days: -(behind + 1))) { behind += 1 }
                let needed = max(0, n - 1 - behind)
                let ranAll = (0...needed).allSatisfy { runDays.contains(a.day.adding(days: $0)) }
                #expect((a.status == .completed) == ranAll, "\(a.id): \(a.status), ran all needed days \(ranAll)")
                if a.status == .completed { completed += 1 }
            }
        }
        try #require(tried >= 150, "streaks tried: \(tried)")
        let meanGap = gap / Double(tried), meanPredicted = predicted / Double(tried)
        let rate = Double(completed) / Double(tried)
        print("streak: mean |p̂ − p_true| \(TrainingPipeline.rounded(meanGap)), realised \(TrainingPipeline.rounded(rate)) "
              + "at a predicted \(TrainingPipeline.rounded(meanPredicted)) over \(tried)")
        // A runner's own share of days run is read from 4…12 of each weekday, and its sampling
        // noise alone kept the forecast at 0.070 (records 0650, 0660); the shipped model's
        // schedule prior, learnt from other simulated runners, takes most of it away (record 0668).
        #expect(meanGap <= Self.truthGoal, "mean |p̂ − p_true| \(meanGap) over \(tried)")
        let se = (meanPredicted * (1 - meanPredicted) / Double(tried)).squareRoot()
        #expect(abs(rate - meanPredicted) <= Self.errors * se, "realised \(rate), predicted \(meanPredicted), n \(tried)")
    }
}
