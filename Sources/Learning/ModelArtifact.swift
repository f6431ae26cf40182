import RunusCore

/// A trained logistic regression as a versioned, self-describing, human-readable JSON document.
/// Callers read and write the bytes; this type never touches files.
///
/// Layout (format_version 1, snake_case keys, sorted, 2-space indentation):
///
///     { "format_version": 1, "model_type": "logistic_regression", "model_version": "...",
///       "feature_schema": { "names": [...], "hash": "..." },
///       "parameters": { "intercept": b, "coefficients": [...], "means": [...], "scales": [...] },
///       "training": { "fingerprint": "...", "rows": n, "seed": s, "l2": λ, "iterations": k, "converged": true },
///       "metrics": { "name": number, ... } }
///
/// Coefficients are on the standardized scale, in feature order. Numbers are written in
/// shortest round-trip form, so `decode(encode(a)) == a` and the rebuilt model predicts
/// bitwise like the original. See docs/decisions/0304-model-artifact-format.md.
///
/// Format version 2 adds the optional `kind_calibration` object (per-kind maps on top of σ of
/// the margin, docs/decisions/0631); a document without one is written as version 1, byte for
/// byte what earlier builds wrote. Format version 3 adds the optional `schedule_prior` object
/// (what the streak and weekly-volume forecasts shrink a runner's weekday shares toward,
/// record 0668); a document is written with the lowest version that holds what it has.
public struct ModelArtifact: Sendable, Equatable {
    /// The newest `format_version` this build writes and reads.
    public static let currentFormatVersion = 3
    /// The `model_type` of a logistic regression artifact.
    public static let logisticRegressionType = "logistic_regression"
    /// Largest |integer| JSON numbers carry exactly (2^53).
    static let exactIntegerLimit = 9_007_199_254_740_992

    /// Where the parameters came from.
    public struct Training: Sendable, Equatable {
        /// Identifies the training data (e.g. a hash of the rows), given by the caller.
        public var fingerprint: String
        /// Number of training rows, >= 0.
        public var rows: Int
        /// Seed of the generator that split or sampled the data, |seed| < 2^53.
        public var seed: Int
        /// λ used (see `LogisticRegression.Configuration.l2`), >= 0.
        public var l2: Double
        /// Newton steps taken, >= 0.
        public var iterations: Int
        /// Whether the solver met its tolerance.
        public var converged: Bool

        public init(fingerprint: String, rows: Int, seed: Int, l2: Double, iterations: Int, converged: Bool) {
            self.fingerprint = fingerprint
            self.rows = rows
            self.seed = seed
            self.l2 = l2
            self.iterations = iterations
            self.converged = converged
        }
    }

    public let formatVersion: Int
    public let modelType: String
    /// Caller-chosen version label, e.g. "2026-11-29.1".
    public let modelVersion: String
    /// Feature names in column order.
    public let featureNames: [String]
    /// Caller-computed hash of the feature schema; the daemon refuses a mismatch.
    public let featureSchemaHash: String
    /// Intercept b on the standardized scale (log-odds).
    public let intercept: Double
    /// β on the standardized scale, in feature order.
    public let coefficients: [Double]
    /// Standardizer means, in each feature's unit.
    public let means: [Double]
    /// Standardizer scales, in each feature's unit, > 0.
    public let scales: [Double]
    public let training: Training
    /// Named quality measures (e.g. "test_auc"), finite.
    public let metrics: [String: Double]
    /// Per-kind maps applied to σ(margin); nil = σ(margin) is served (record 0631).
    public let kindCalibration: KindCalibration?
    /// `kindCalibration` resolved against `featureNames`.
    public let kindColumns: KindCalibration.Columns?
    /// The pooled weekday shares the multi-day forecasts shrink toward; nil = none (record 0668).
    public let schedulePrior: SchedulePrior?

    /// The lowest format version that holds the artifact's parts.
    static func formatVersion(kindCalibration: KindCalibration?, schedulePrior: SchedulePrior?) -> Int {
        schedulePrior != nil ? 3 : kindCalibration != nil ? 2 : 1
    }

    /// An artifact for `model`. Throws `LearningError.invalidArtifact` when the names do not
    /// match the model's feature count, a name repeats, a number is not finite, or the seed or
    /// counts cannot be written exactly.
    public init(model: LogisticRegressionModel, modelVersion: String, featureNames: [String], featureSchemaHash: String,
                training: Training, metrics: [String: Double] = [:]) throws {
        if featureNames.count != model.featureCount {
            throw LearningError.invalidArtifact(field: "feature_schema.names",
                problem: "\(featureNames.count) names for a model with \(model.featureCount) features")
        }
        try self.init(formatVersion: 1, modelType: Self.logisticRegressionType,
                      modelVersion: modelVersion, featureNames: featureNames, featureSchemaHash: featureSchemaHash,
                      intercept: model.intercept, coefficients: model.coefficients,
                      means: model.standardizer.means, scales: model.standardizer.scales,
                      training: training, metrics: metrics)
    }

    /// The same artifact with per-kind maps (nil: none) and merged `metrics`.
    public func with(kindCalibration: KindCalibration?, metrics extra: [String: Double] = [:]) throws -> ModelArtifact {
        try with(kindCalibration: kindCalibration, schedulePrior: schedulePrior, metrics: extra)
    }

    /// The same artifact with a schedule prior (nil, or one with weight 0: none; record 0668)
    /// and merged `metrics`.
    public func with(schedulePrior: SchedulePrior?, metrics extra: [String: Double] = [:]) throws -> ModelArtifact {
        try with(kindCalibration: kindCalibration, schedulePrior: schedulePrior, metrics: extra)
    }

    func with(kindCalibration: KindCalibration?, schedulePrior: SchedulePrior?, metrics extra: [String: Double]) throws -> ModelArtifact {
        let prior = SchedulePrior.stored(schedulePrior)
        return try ModelArtifact(formatVersion: Self.formatVersion(kindCalibration: kindCalibration, schedulePrior: prior),
                                 modelType: modelType, modelVersion: modelVersion,
                                 featureNames: featureNames, featureSchemaHash: featureSchemaHash, intercept: intercept,
                                 coefficients: coefficients, means: means, scales: scales, training: training,
                                 metrics: metrics.merging(extra) { $1 }, kindCalibration: kindCalibration, schedulePrior: prior)
    }

    /// P(y = 1) of one row as served: σ(margin), then the row's kind map when there is one.
    public func probability(row: [Double], model: LogisticRegressionModel) -> Double {
        let p = model.probability(row: row)
        return kindColumns?.probability(shared: p, row: row) ?? p
    }

    /// Memberwise, validating; negative zeros become +0 so that encoding is an exact inverse.
    init(formatVersion: Int, modelType: String, modelVersion: String, featureNames: [String], featureSchemaHash: String,
         intercept: Double, coefficients: [Double], means: [Double], scales: [Double],
         training: Training, metrics: [String: Double], kindCalibration: KindCalibration? = nil,
         schedulePrior: SchedulePrior? = nil) throws {
        let p = featureNames.count
        var seen = Set<String>()
        for (j, name) in featureNames.enumerated() where !seen.insert(name).inserted {
            throw LearningError.invalidArtifact(field: "feature_schema.names[\(j)]", problem: "name \"\(name)\" appears twice")
        }
        for (field, values) in [("parameters.coefficients", coefficients), ("parameters.means", means), ("parameters.scales", scales)] {
            if values.count != p {
                throw LearningError.invalidArtifact(field: field, problem: "has \(values.count) values, expected \(p) (one per feature name)")
            }
            for (j, v) in values.enumerated() where !v.isFinite {
                throw LearningError.invalidArtifact(field: "\(field)[\(j)]", problem: "\(v) is not a finite number")
            }
        }
        for (j, s) in scales.enumerated() where !(s > 0) {
            throw LearningError.invalidArtifact(field: "parameters.scales[\(j)]", problem: "\(s) must be > 0")
        }
        if !intercept.isFinite { throw LearningError.invalidArtifact(field: "parameters.intercept", problem: "\(intercept) is not finite") }
        if !(training.l2.isFinite && training.l2 >= 0) {
            throw LearningError.invalidArtifact(field: "training.l2", problem: "\(training.l2) must be finite and >= 0")
        }
        for (field, value) in [("training.rows", training.rows), ("training.iterations", training.iterations)] where value < 0 {
            throw LearningError.invalidArtifact(field: field, problem: "\(value) must be >= 0")
        }
        for (field, value) in [("training.rows", training.rows), ("training.seed", training.seed)]
        where value.magnitude >= UInt(Self.exactIntegerLimit) {
            throw LearningError.invalidArtifact(field: field, problem: "\(value) is beyond ±2^53 and would not survive JSON")
        }
        for (name, v) in metrics where !v.isFinite {
            throw LearningError.invalidArtifact(field: "metrics.\(name)", problem: "\(v) is not a finite number")
        }
        func positiveZero(_ v: Double) -> Double { v == 0 ? 0 : v }
        self.formatVersion = formatVersion
        self.modelType = modelType
        self.modelVersion = modelVersion
        self.featureNames = featureNames
        self.featureSchemaHash = featureSchemaHash
        self.intercept = positiveZero(intercept)
        self.coefficients = coefficients.map(positiveZero)
        self.means = means.map(positiveZero)
        self.scales = scales
        var training = training
        training.l2 = positiveZero(training.l2)
        self.training = training
        self.metrics = metrics.mapValues(positiveZero)
        self.kindCalibration = kindCalibration
        self.kindColumns = try kindCalibration?.columns(featureNames: featureNames)
        self.schedulePrior = schedulePrior
    }

    /// The model these parameters describe (no fit report).
    public func makeModel() -> LogisticRegressionModel {
        LogisticRegressionModel(standardizer: Standardizer(means: means, scales: scales),
                                coefficients: coefficients, intercept: intercept)
    }

    /// The artifact as a JSON value (sorted keys when written).
    public var jsonValue: JSONValue {
        var document: [String: JSONValue] = [
            "format_version": .number(Double(formatVersion)),
            "model_type": .string(modelType),
            "model_version": .string(modelVersion),
            "feature_schema": .object([
                "names": .array(featureNames.map { .string($0) }),
                "hash": .string(featureSchemaHash),
            ]),
            "parameters": .object([
                "intercept": .number(intercept),
                "coefficients": .array(coefficients.map { .number($0) }),
                "means": .array(means.map { .number($0) }),
                "scales": .array(scales.map { .number($0) }),
            ]),
            "training": .object([
                "fingerprint": .string(training.fingerprint),
                "rows": .number(Double(training.rows)),
                "seed": .number(Double(training.seed)),
                "l2": .number(training.l2),
                "iterations": .number(Double(training.iterations)),
                "converged": .bool(training.converged),
            ]),
            "metrics": .object(metrics.mapValues { .number($0) }),
        ]
        if let kindCalibration { document["kind_calibration"] = kindCalibration.jsonValue }
        if let schedulePrior { document["schedule_prior"] = schedulePrior.jsonValue }
        return .object(document)
    }

    /// Pretty-printed UTF-8 JSON, deterministic: the same artifact always gives the same bytes.
    public func encode() -> [UInt8] {
        JSONPrettyPrinter.bytes(jsonValue)
    }
}

extension ModelArtifact.Training {
    /// The training record of a fit: rows, iterations and convergence from its report, λ from its configuration.
    public init(fingerprint: String, seed: Int, configuration: LogisticRegression.Configuration, report: LogisticRegression.FitReport) {
        self.init(fingerprint: fingerprint, rows: report.rows, seed: seed, l2: configuration.l2,
                  iterations: report.iterations, converged: report.converged)
    }
}
