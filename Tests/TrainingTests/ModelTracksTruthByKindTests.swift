import Testing
import RunusCore
import Engine
import Features
import Missions
import Simulation
import Training

/// Issue 25 item 1: for every kind the schema models (those of schemas v4 and v5 included), the model
/// learnt from simulated runners tracks the simulator's true probability on a later period it
/// never saw, kind by kind.
@Suite("learned model vs simulated truth, by kind")
struct ModelTracksTruthByKindTests {
    /// The bound on mean |p̂ − p_true| per kind.
    static let maximumMeanAbsoluteError = 0.05
    /// Held-out tries a kind needs before its mean error is judged (the mean of |p̂ − p_true|
    /// over fewer moves by more than a point from runner to runner).
    static let minimumRows = 60
    /// The simulation the shipped model is trained on (`make model`: `MODEL_RUNNERS` × `SIM_DAYS`),
    /// with another seed. At 300 runners personal best (0.059) and distance in time (0.051)
    /// missed the bound: a model fitted to the true logits on the same features tracks them, so
    /// the gap was the estimation from 0/1 labels, and the shipped model is trained on 600
    /// runners (record 0667). At 600 runners every kind is within 0.05 on seeds 2025, 1 and 7;
    /// personal best and distance in time stay the closest (0.044–0.049).
    static let configuration = SimulationConfiguration(runners: 600, days: 180, seed: 2025)

    @Test("on held-out simulated missions, mean |p̂ − p_true| ≤ 0.05 for each kind")
    func tracksTruthPerKind() throws {
        let configuration = Self.configuration
        let runners = ParallelMap.map(count: configuration.runners) {
            RunnerSimulator.simulate(runner: $0, configuration: configuration)
        }
        var examples: [LabelledExample] = []
        for runner in runners {
            // The runner's offset places start hours and weeks, as `runus train` does.
            examples += try ExampleBuilder.examples(runs: runner.runs, assignments: runner.assignments,
                                                    utcOffset: runner.profile.utcOffsetSeconds, digests: runner.digests)
        }
        examples.sort { LabelledExample.inTrainingOrder($0, $1) }
        let result = try TrainingPipeline.train(examples: examples, runners: runners.count, sources: ["simulated"],
                                                options: .init())
        let scorer = try LogisticScorer(artifact: result.artifact)
        let test = result.split.test
        let predicted = scorer.probabilities(test.map(\.features))
        var error: [MissionKind: (sum: Double, rows: Int)] = [:]
        for (example, p) in zip(test, predicted) {
            let truth = try #require(example.pTrue)
            error[example.kind, default: (0, 0)].sum += abs(p - truth)
            error[example.kind, default: (0, 0)].rows += 1
        }
        for kind in MissionFeatures.kinds {
            let e = try #require(error[kind], "\(kind.rawValue): no held-out tries")
            #expect(e.rows >= Self.minimumRows, "\(kind.rawValue): only \(e.rows) held-out tries")
            let mae = e.sum / Double(e.rows)
            print("mean |p - p_true| \(kind.rawValue) \(TrainingPipeline.rounded(mae)) over \(e.rows)")
            #expect(mae <= Self.maximumMeanAbsoluteError, "\(kind.rawValue): mean |p - p_true| \(mae) over \(e.rows)")
        }
    }
}
