import Testing
import RunusCore
import Features
import Simulation
import Training

/// The acceptance test: the model learned from simulated runners recovers the
/// simulator's true completion probabilities on a later period it never saw.
@Suite("learned model vs simulated truth")
struct ModelRecoversTruthTests {
    /// Floors from the issue: AUC ≥ 0.75 and mean |p̂ − p_true| ≤ 0.05 on held-out pairs.
    static let minimumAUC = 0.75
    static let maximumMeanAbsoluteError = 0.05

    @Test("on held-out simulated missions, AUC ≥ 0.75 and mean |p̂ − p_true| ≤ 0.05")
    func recoversTruth() throws {
        let configuration = SimulationConfiguration(runners: 120, days: 150, seed: 2024)
        let runners = ParallelMap.map(count: configuration.runners) {
            RunnerSimulator.simulate(runner: $0, configuration: configuration)
        }
        var examples: [LabelledExample] = []
        for runner in runners {
            examples += try ExampleBuilder.examples(runs: runner.runs, assignments: runner.assignments,
                                                    utcOffset: runner.profile.utcOffsetSeconds, digests: runner.digests)
        }
        examples.sort { ($0.time, $0.assignmentID) < ($1.time, $1.assignmentID) }
        let result = try TrainingPipeline.train(examples: examples, runners: runners.count, sources: ["simulated"],
                                                options: .init())
        let test = result.test
        #expect(test.rows > 800, "held-out set too small to judge: \(test.rows)")
        #expect(test.auc >= Self.minimumAUC, "AUC \(test.auc)")
        let mae = try #require(test.maeTrue)
        #expect(mae <= Self.maximumMeanAbsoluteError, "mean |p - p_true| \(mae)")
        // Held-out examples are strictly later than every training example (time split).
        #expect(examples.filter { $0.time < result.cutoff }.count == result.trainRows)
        #expect(result.artifact.training.rows == result.trainRows && result.split.test.count == test.rows)
    }
}
