import Testing
import RunusCore
@testable import Learning

private func fittedArtifact() throws -> (ModelArtifact, LogisticRegressionModel, SyntheticLogistic) {
    let d = SyntheticLogistic.make(rows: 1_000, means: [3, 1_000, -0.5], sds: [1, 250, 0.1], beta: [0.7, 0.002, -4],
                                   intercept: -4.1, seed: 77)
    let configuration = LogisticRegression.Configuration(l2: 0.5)
    let model = try LogisticRegression.fit(x: d.x, y: d.y, configuration: configuration)
    let auc = try Metrics.rocAUC(labels: d.y, scores: model.probabilities(x: d.x))
    let artifact = try ModelArtifact(
        model: model, modelVersion: "2026-11-29.1", featureNames: ["pace_ratio", "distance_m", "trend"],
        featureSchemaHash: "sha256:abc123",
        training: .init(fingerprint: "rows:1000:seed:77", seed: 77, configuration: configuration, report: model.fitReport!),
        metrics: ["train_auc": auc, "train_rows": 1000])
    return (artifact, model, d)
}

private let tinyGolden = """
{
  "feature_schema": {
    "hash": "h1",
    "names": [
      "a",
      "b"
    ]
  },
  "format_version": 1,
  "metrics": {},
  "model_type": "logistic_regression",
  "model_version": "v1",
  "parameters": {
    "coefficients": [
      0.5,
      -2
    ],
    "intercept": 0.1,
    "means": [
      0,
      1e-07
    ],
    "scales": [
      1,
      3.25
    ]
  },
  "training": {
    "converged": true,
    "fingerprint": "fp",
    "iterations": 6,
    "l2": 1,
    "rows": 10,
    "seed": 42
  }
}

"""

@Suite("Model artifact")
struct ModelArtifactTests {
    @Test("encoding is deterministic and decode(encode(a)) == a, byte for byte")
    func roundTrip() throws {
        let (artifact, _, _) = try fittedArtifact()
        let bytes = artifact.encode()
        #expect(bytes == artifact.encode())
        let decoded = try ModelArtifact.decode(bytes)
        #expect(decoded == artifact)
        #expect(decoded.encode() == bytes)
        // The pretty text parses to the same value as the compact writer's.
        #expect(try JSONParser.parse(bytes) == artifact.jsonValue)
    }

    @Test("the rebuilt model predicts bitwise like the fitted one")
    func bitwisePredictions() throws {
        let (artifact, model, d) = try fittedArtifact()
        let rebuilt = try ModelArtifact.decode(artifact.encode()).makeModel()
        #expect(rebuilt.coefficients == model.coefficients && rebuilt.intercept == model.intercept)
        #expect(rebuilt.standardizer == model.standardizer)
        let a = model.probabilities(x: d.x), b = rebuilt.probabilities(x: d.x)
        #expect(a.map(\.bitPattern) == b.map(\.bitPattern))
        for i in stride(from: 0, to: d.x.rows, by: 37) {
            #expect(model.probability(row: d.x.row(i)).bitPattern == rebuilt.probability(row: d.x.row(i)).bitPattern)
        }
    }

    @Test("a small artifact reads as reviewed: sorted keys, 2-space indent, JSONWriter numbers")
    func golden() throws {
        let model = LogisticRegressionModel(standardizer: Standardizer(means: [0, 1e-7], scales: [1, 3.25]),
                                            coefficients: [0.5, -2], intercept: 0.1)
        let artifact = try ModelArtifact(model: model, modelVersion: "v1", featureNames: ["a", "b"], featureSchemaHash: "h1",
                                         training: .init(fingerprint: "fp", rows: 10, seed: 42, l2: 1, iterations: 6, converged: true))
        #expect(String(decoding: artifact.encode(), as: UTF8.self) == tinyGolden)
        #expect(try ModelArtifact.decode(Array(tinyGolden.utf8)) == artifact)
    }

    @Test("negative zero is written and read back as +0 so round trips stay exact")
    func negativeZero() throws {
        let model = LogisticRegressionModel(standardizer: Standardizer(means: [-0.0], scales: [1]), coefficients: [-0.0], intercept: -0.0)
        let artifact = try ModelArtifact(model: model, modelVersion: "v", featureNames: ["x"], featureSchemaHash: "h",
                                         training: .init(fingerprint: "", rows: 1, seed: 0, l2: 1, iterations: 0, converged: false))
        #expect(artifact.coefficients[0].sign == .plus && artifact.means[0].sign == .plus && artifact.intercept.sign == .plus)
        #expect(try ModelArtifact.decode(artifact.encode()) == artifact)
    }

    @Test("decode errors name the missing or malformed field", arguments: [
        ("\"model_version\": \"v1\",", "", LearningError.invalidArtifact(field: "model_version", problem: "is missing")),
        ("\"seed\": 42", "\"seed\": 4.5",
         LearningError.invalidArtifact(field: "training.seed", problem: "expected a whole number below 2^53, got 4.5")),
        ("-2\n", "\"-2\"\n", LearningError.invalidArtifact(field: "parameters.coefficients[1]", problem: "expected a number, got string")),
        ("3.25\n", "0\n", LearningError.invalidArtifact(field: "parameters.scales[1]", problem: "0.0 must be > 0")),
        ("      1e-07\n", "      1e-07,\n      2\n",
         LearningError.invalidArtifact(field: "parameters.means", problem: "has 3 values, expected 2 (one per feature name)")),
        ("\"format_version\": 1", "\"format_version\": 4", LearningError.unsupportedFormatVersion(found: 4, supported: 3)),
        ("\"logistic_regression\"", "\"gbdt\"",
         LearningError.invalidArtifact(field: "model_type", problem: "\"gbdt\" is not \"logistic_regression\"")),
        ("\"training\": {", "\"training\": [], \"x\": {",
         LearningError.invalidArtifact(field: "training", problem: "expected an object, got array")),
        ("\"converged\": true", "\"converged\": 1",
         LearningError.invalidArtifact(field: "training.converged", problem: "expected true or false, got number")),
    ])
    func decodeErrors(find: String, replace: String, expected: LearningError) throws {
        let text = tinyGolden.replacing(find, with: replace)
        #expect(text != tinyGolden, "the edit must apply")
        #expect(throws: expected) { try ModelArtifact.decode(Array(text.utf8)) }
    }

    @Test("a newer format version gets a message that says what to do")
    func newerVersionMessage() {
        #expect(LearningError.unsupportedFormatVersion(found: 2, supported: 1).description
            == "model artifact format_version 2 is newer than this build reads (up to 1); upgrade runus or re-export the model")
    }

    @Test("broken JSON and mismatched names are refused")
    func otherRefusals() throws {
        #expect(throws: LearningError.self) { try ModelArtifact.decode(Array("{\"format_version\": ".utf8)) }
        #expect(throws: LearningError.invalidArtifact(field: "(document)", problem: "expected an object, got array")) {
            try ModelArtifact.decode(Array("[]".utf8))
        }
        let model = LogisticRegressionModel(standardizer: .identity(featureCount: 2), coefficients: [1, 2], intercept: 0)
        let training = ModelArtifact.Training(fingerprint: "", rows: 1, seed: 1, l2: 1, iterations: 1, converged: true)
        #expect(throws: LearningError.invalidArtifact(field: "feature_schema.names", problem: "1 names for a model with 2 features")) {
            try ModelArtifact(model: model, modelVersion: "v", featureNames: ["a"], featureSchemaHash: "h", training: training)
        }
        #expect(throws: LearningError.invalidArtifact(field: "feature_schema.names[1]", problem: "name \"a\" appears twice")) {
            try ModelArtifact(model: model, modelVersion: "v", featureNames: ["a", "a"], featureSchemaHash: "h", training: training)
        }
        #expect(throws: LearningError.invalidArtifact(field: "metrics.auc", problem: "nan is not a finite number")) {
            try ModelArtifact(model: model, modelVersion: "v", featureNames: ["a", "b"], featureSchemaHash: "h", training: training,
                              metrics: ["auc": .nan])
        }
    }
}
