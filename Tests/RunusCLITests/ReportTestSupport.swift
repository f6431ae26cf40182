import Foundation
import Testing
import RunusCore
import Features
import Learning
import Storage
import Training
@testable import RunusCLI

/// A gradient-boosted mission model trained with the Learning API on a database's examples, the
/// same time split as `runus train` (first 80% by time; its last eighth validates for early
/// stopping), without `train --model gbdt`'s tuning grid and calibration: a quick fixture for the
/// report tests, which need a GBDT next to the LR.
enum ReportGBDT {
    static func configuration(seed: UInt64) -> GradientBoosting.Configuration {
        var c = GradientBoosting.Configuration()
        c.numIterations = 300
        c.learningRate = 0.05
        c.numLeaves = 15
        c.minDataInLeaf = 40
        c.lambdaL2 = 1
        c.earlyStoppingRounds = 20
        c.seed = seed
        c.parallel = false   // same model on any machine, and no contention in tests
        return c
    }

    static func train(db: String, out: String, seed: UInt64 = 1) throws {
        let store = try SQLiteStore(path: db)
        let examples = try TrainingPipeline.examples(store: store).examples
        let cutoff = examples[Int(Double(examples.count) * 0.8)].time
        let train = examples.filter { $0.time < cutoff }
        let validationStart = train[Int(Double(train.count) * 0.875)].time
        let fit = train.filter { $0.time < validationStart }, validation = train.filter { $0.time >= validationStart }
        let schema = MissionFeatures.schema
        let x = Matrix(rowArrays: fit.map(\.features), cols: schema.count)
        let v = Matrix(rowArrays: validation.map(\.features), cols: schema.count)
        let model = try GradientBoosting.fit(x: x, y: fit.map(\.label), validation: (v, validation.map(\.label)),
                                             configuration: configuration(seed: seed))
        let fingerprint = TrainingPipeline.fingerprint(train)
        let artifact = try GradientBoostingArtifact(model: model, modelVersion: "gbdt-\(fingerprint.prefix(8))",
                                                    featureNames: schema.names, featureSchemaHash: schema.hash,
                                                    fingerprint: fingerprint, seed: seed, configuration: configuration(seed: seed))
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data(artifact.encode()).write(to: URL(fileURLWithPath: out + "/model.json"))
    }
}
