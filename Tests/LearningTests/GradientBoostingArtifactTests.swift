import RunusCore
import Testing
@testable import Learning

/// A format-1 logistic-regression document as older builds wrote it (the layout of
/// models/default/model.json), kept verbatim so that loading old files stays tested.
private let formatOneDocument = """
{
  "feature_schema": { "hash": "h1", "names": ["a", "b"] },
  "format_version": 1,
  "metrics": {},
  "model_type": "logistic_regression",
  "model_version": "v1",
  "parameters": { "coefficients": [0.5, -2], "intercept": 0.1, "means": [0, 1e-07], "scales": [1, 3.25] },
  "training": { "converged": true, "fingerprint": "fp", "iterations": 6, "l2": 1, "rows": 10, "seed": 42 }
}
"""

@Suite("Gradient boosting artifact (format 2)")
struct GradientBoostingArtifactTests {
    static func fitted() throws -> (GradientBoostingArtifact, SyntheticTrees) {
        let data = SyntheticTrees.make(rows: 2_000, seed: 31)
        var c = GradientBoosting.Configuration()
        c.numIterations = 10
        c.numLeaves = 7
        c.seed = 5
        let model = try GradientBoosting.fit(x: data.x, y: data.y, configuration: c)
        let artifact = try GradientBoostingArtifact(model: model, modelVersion: "2026-11-29.gbdt", featureNames: ["a", "b", "c", "flag", "with_nan", "noise"],
                                                    featureSchemaHash: "sha256:test", fingerprint: "synthetic:2000:31", seed: 5,
                                                    configuration: c, metrics: ["train_auc": 0.8])
        return (artifact, data)
    }

    @Test("decode(encode(a)) predicts bitwise like the fitted model, and encoding is deterministic")
    func roundTrip() throws {
        let (artifact, data) = try Self.fitted()
        let bytes = artifact.encode()
        let back = try GradientBoostingArtifact.decode(bytes)
        #expect(back.model.trees == artifact.model.trees)
        #expect(back.model.rawScores(x: data.x) == artifact.model.rawScores(x: data.x))
        #expect(back.encode() == bytes)
        #expect(back.configuration["num_leaves"] == 7 && back.seed == 5 && back.metrics == ["train_auc": 0.8])
        guard case .gradientBoosting(let viaAny) = try AnyModelArtifact.decode(bytes) else {
            Issue.record("AnyModelArtifact did not dispatch a gradient_boosting document")
            return
        }
        #expect(viaAny.model.trees == artifact.model.trees)
    }

    @Test("format 1 logistic-regression files keep loading, directly and through AnyModelArtifact")
    func formatOneStillLoads() throws {
        let bytes = Array(formatOneDocument.utf8)
        let direct = try ModelArtifact.decode(bytes)
        guard case .logisticRegression(let viaAny) = try AnyModelArtifact.decode(bytes) else {
            Issue.record("AnyModelArtifact did not dispatch a logistic_regression document")
            return
        }
        #expect(viaAny == direct)
        #expect(direct.makeModel().probability(row: [1, 2]) == viaAny.makeModel().probability(row: [1, 2]))
    }

    @Test("a newer format, a gradient_boosting document claiming format 1, and a broken tree are refused")
    func refusals() throws {
        let (artifact, _) = try Self.fitted()
        let text = String(decoding: artifact.encode(), as: UTF8.self)
        let future = GradientBoostingArtifact.currentFormatVersion + 1
        let newer = text.replacing("\"format_version\": 2", with: "\"format_version\": \(future)")
        #expect(throws: LearningError.unsupportedFormatVersion(found: future, supported: GradientBoostingArtifact.currentFormatVersion)) {
            try GradientBoostingArtifact.decode(Array(newer.utf8))
        }
        let older = text.replacing("\"format_version\": 2", with: "\"format_version\": 1")
        #expect(throws: LearningError.invalidArtifact(field: "format_version", problem: "1: gradient_boosting artifacts start at format_version 2")) {
            try GradientBoostingArtifact.decode(Array(older.utf8))
        }
        // Format 3 adds the calibration; a version-2 document may not carry one (record 0611).
        let platt = CalibrationMap.platt(try Calibration.Platt.fit(scores: [-1, 0, 1, 2], labels: [0, 1, 0, 1]))
        let calibrated = artifact.with(calibration: platt)
        #expect(calibrated.formatVersion == 3 && artifact.formatVersion == 2)
        let decoded = try GradientBoostingArtifact.decode(calibrated.encode())
        #expect(decoded.calibration == platt && decoded.encode() == calibrated.encode())
        let smuggled = String(decoding: calibrated.encode(), as: UTF8.self).replacing("\"format_version\": 3", with: "\"format_version\": 2")
        #expect(throws: LearningError.self) { try GradientBoostingArtifact.decode(Array(smuggled.utf8)) }
        let broken = text.replacing("\"num_leaves\": 7", with: "\"num_leaves\": 9")
        #expect(throws: LearningError.self) { try GradientBoostingArtifact.decode(Array(broken.utf8)) }
        #expect(throws: LearningError.self) { try AnyModelArtifact.decode(Array("{\"model_type\": \"forest\"}".utf8)) }
    }
}
