import Foundation
import Testing
import RunusCore
import Features
import Learning
import Storage
@testable import RunusCLI

/// A gradient-boosted mission model trained with the Learning API on a database's examples, the
/// same time split as `runus train` (first 80% by time; its last eighth validates for early
/// stopping). Reports need a GBDT next to the LR; until `runus train --model gbdt` is in main
/// this is how tests and `make report` get one.
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

/// `make report` calls this to write a GBDT model directory when `runus train --model gbdt` is not
/// available: RUNUS_REPORT_GBDT_DB=PATH RUNUS_REPORT_GBDT_OUT=DIR swift test --filter ReportGBDTWriter.
@Suite("report GBDT writer (make report only)")
struct ReportGBDTWriter {
    static let db = ProcessInfo.processInfo.environment["RUNUS_REPORT_GBDT_DB"]
    static let out = ProcessInfo.processInfo.environment["RUNUS_REPORT_GBDT_OUT"]

    // Runs only when make report sets both variables: it writes files outside the test's own directory.
    @Test("writes a GBDT model directory for make report", .enabled(if: db != nil && out != nil))
    func write() throws {
        try ReportGBDT.train(db: Self.db!, out: Self.out!)
    }
}
