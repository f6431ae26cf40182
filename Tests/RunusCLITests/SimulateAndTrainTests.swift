import Testing
import RunusCore
import Features
import Learning
import Simulation
@testable import RunusCLI

@Suite("simulate and train commands", .serialized)
struct SimulateAndTrainTests {
    @Test("runus simulate twice with the same seed gives byte-identical files; another seed does not")
    func simulateIsDeterministic() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        func simulate(_ name: String, seed: Int) -> ExitCode {
            RunusCLI.run(arguments: ["simulate", "--db", dir.file(name), "--runners", "6", "--days", "30",
                                     "--seed", "\(seed)", "--quiet"], output: CapturedOutput())
        }
        #expect(simulate("a.sqlite", seed: 11) == .success)
        #expect(simulate("b.sqlite", seed: 11) == .success)
        #expect(simulate("c.sqlite", seed: 12) == .success)
        let a = try #require(fileBytes(dir.file("a.sqlite")))
        #expect(a.count > 10_000)
        #expect(a == fileBytes(dir.file("b.sqlite")))
        #expect(a != fileBytes(dir.file("c.sqlite")))
        // No partial file or WAL is left behind.
        #expect(fileBytes(dir.file("a.sqlite.partial")) == nil)
        #expect(fileBytes(dir.file("a.sqlite-wal")) == nil)
    }

    @Test("simulate refuses to overwrite without --force")
    func refusesOverwrite() {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let args = ["simulate", "--db", dir.file("x.sqlite"), "--runners", "2", "--days", "5", "--quiet"]
        #expect(RunusCLI.run(arguments: args, output: CapturedOutput()) == .success)
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: args, output: out) == .failure)
        #expect(out.stderr.contains("exists; pass --force"))
        #expect(RunusCLI.run(arguments: args + ["--force"], output: CapturedOutput()) == .success)
    }

    @Test("runus train on the same database twice writes identical model files")
    func trainIsReproducible() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("t.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "20", "--days", "60", "--seed", "3", "--quiet"],
                             output: CapturedOutput()) == .success)
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m1")], output: out) == .success, "\(out.stderr)")
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m2")], output: CapturedOutput()) == .success)
        let model = try #require(fileBytes(dir.file("m1/model.json")))
        #expect(model == fileBytes(dir.file("m2/model.json")))
        #expect(fileBytes(dir.file("m1/MODEL_CARD.md")) == fileBytes(dir.file("m2/MODEL_CARD.md")))
        let artifact = try ModelArtifact.decode(model)
        #expect(artifact.featureSchemaHash == MissionFeatures.schema.hash)
        #expect(artifact.featureNames == MissionFeatures.schema.names)
    }

    @Test("train refuses a database without enough labels and names the count")
    func tooFewLabels() {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("tiny.sqlite")
        _ = RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "1", "--days", "10", "--quiet"], output: CapturedOutput())
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m")], output: out) == .failure)
        #expect(out.stderr.contains("labelled examples"))
    }
}

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
            examples += try ExampleBuilder.examples(runs: runner.runs, assignments: runner.assignments)
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
    }
}
