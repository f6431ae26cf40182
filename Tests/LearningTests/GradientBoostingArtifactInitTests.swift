import RunusCore
import Testing
@testable import Learning

/// A format-2 gradient-boosting document as earlier builds wrote it (one two-leaf tree), kept
/// verbatim so that loading old files stays tested after format 4 (record 0617).
private let formatTwoDocument = """
{
  "feature_schema": { "hash": "h2", "names": ["a", "b"] },
  "format_version": 2,
  "metrics": { "test_auc": 0.75 },
  "model_type": "gradient_boosting",
  "model_version": "gbdt-old",
  "parameters": {
    "objective": "binary",
    "trees": [
      { "decision_type": [2], "internal_count": [10], "internal_value": [0.25], "internal_weight": [2.5],
        "leaf_count": [4, 6], "leaf_value": [-0.5, 1.25], "leaf_weight": [1, 1.5], "left_child": [-1],
        "num_leaves": 2, "right_child": [-2], "shrinkage": 1, "split_feature": [1], "split_gain": [3.5], "threshold": [0.5] }
    ]
  },
  "training": { "configuration": { "num_leaves": 2 }, "fingerprint": "fp", "iterations": 1, "rows": 10, "seed": 1 }
}
"""

@Suite("Gradient boosting artifact with an initial model (format 4)")
struct GradientBoostingArtifactInitTests {
    static let names = ["a", "b", "c", "flag", "with_nan", "noise"]

    /// Trees boosted from an LR fitted on the same rows (NaN imputed as 0 for the LR, which
    /// needs finite values; the trees see the NaN).
    static func fitted() throws -> (GradientBoostingArtifact, Matrix, ModelArtifact) {
        let data = SyntheticTrees.make(rows: 2_000, seed: 13)
        var finite = data.x
        for i in 0..<finite.rows where finite[i, 4].isNaN { finite[i, 4] = 0 }
        let lr = try LogisticRegression.fit(x: finite, y: data.y, configuration: .init(l2: 1))
        let lrArtifact = try ModelArtifact(model: lr, modelVersion: "lr-init", featureNames: names, featureSchemaHash: "sha256:test",
                                           training: .init(fingerprint: "fp", rows: data.y.count, seed: 1, l2: 1, iterations: 0, converged: true))
        let model = lrArtifact.makeModel()
        let initScore = (0..<finite.rows).map { i in finite.withRow(i) { model.decisionFunction(row: $0) } }
        var c = GradientBoosting.Configuration()
        c.numIterations = 15
        c.numLeaves = 5
        c.seed = 2
        let trees = try GradientBoosting.fit(x: finite, y: data.y, initScore: initScore, configuration: c)
        let platt = CalibrationMap.platt(try Calibration.Platt.fit(scores: [-2, -1, 0, 1, 2, 3], labels: [0, 0, 1, 0, 1, 1]))
        let artifact = try GradientBoostingArtifact(model: trees, modelVersion: "gbdt-init", featureNames: names, featureSchemaHash: "sha256:test",
                                                    fingerprint: "fp", seed: 2, configuration: c, calibration: platt, initModel: lrArtifact)
        return (artifact, finite, lrArtifact)
    }

    @Test("the raw score is the LR margin plus the trees', the same row by row, in batches and after decode(encode)")
    func scoresAndRoundTrip() throws {
        let (artifact, x, lr) = try Self.fitted()
        #expect(artifact.formatVersion == 4)
        let bytes = artifact.encode()
        let back = try GradientBoostingArtifact.decode(bytes)
        #expect(back.encode() == bytes && back.initModel == lr && back.formatVersion == 4)
        let rows = (0..<200).map { i in (0..<x.cols).map { x[i, $0] } }
        let lrModel = lr.makeModel()
        let expected = rows.map { lrModel.decisionFunction(row: $0) + artifact.model.rawScore(row: $0) }
        #expect(rows.map(artifact.rawScore(row:)) == expected)
        #expect(artifact.rawScores(rows: rows) == expected)
        #expect(artifact.rawScores(x: x.selectingRows(0..<200)) == expected)
        #expect(back.rawScores(rows: rows) == expected)
        #expect(back.probabilities(rows: rows) == rows.map(artifact.probability(row:)))
        #expect(back.probabilities(rows: rows) == expected.map { artifact.calibration!.probability(score: $0) })
        // The trees alone are a different model: the initial margin matters.
        #expect(artifact.model.rawScores(rows: rows) != expected)
    }

    @Test("a verbatim format-2 document keeps loading and scores as its trees alone")
    func formatTwoStillLoads() throws {
        let old = try GradientBoostingArtifact.decode(Array(formatTwoDocument.utf8))
        #expect(old.initModel == nil && old.calibration == nil && old.formatVersion == 2)
        #expect(old.rawScore(row: [0, 0.2]) == -0.5 && old.rawScore(row: [0, 0.9]) == 1.25)
        #expect(old.probabilities(rows: [[0, 0.9]]) == [Logistic.sigmoid(1.25)])
        guard case .gradientBoosting(let viaAny) = try AnyModelArtifact.decode(Array(formatTwoDocument.utf8)) else {
            Issue.record("AnyModelArtifact did not dispatch a gradient_boosting document"); return
        }
        #expect(viaAny.encode() == old.encode())
    }

    @Test("an init_model in a format-3 document, with another feature schema, or malformed is refused with its field")
    func refusals() throws {
        let (artifact, _, lr) = try Self.fitted()
        let text = String(decoding: artifact.encode(), as: UTF8.self)
        let smuggled = text.replacing("\"format_version\": 4", with: "\"format_version\": 3")
        #expect(throws: LearningError.invalidArtifact(field: "init_model", problem: "needs format_version 4, the document says 3")) {
            try GradientBoostingArtifact.decode(Array(smuggled.utf8))
        }
        let foreign = try ModelArtifact(model: lr.makeModel(), modelVersion: "x", featureNames: Self.names, featureSchemaHash: "other",
                                        training: lr.training)
        #expect(throws: LearningError.self) {
            try GradientBoostingArtifact(model: artifact.model, modelVersion: "v", featureNames: Self.names, featureSchemaHash: "sha256:test",
                                         fingerprint: "fp", seed: 2, initModel: foreign)
        }
        let broken = text.replacing("\"coefficients\":", with: "\"coefficients_gone\":")
        #expect(throws: LearningError.invalidArtifact(field: "init_model.parameters.coefficients", problem: "is missing")) {
            try GradientBoostingArtifact.decode(Array(broken.utf8))
        }
    }
}
