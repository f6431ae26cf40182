import RunusCore

/// A gradient-boosted model as a versioned, human-readable JSON document, `format_version` 2
/// (the first version with `model_type` "gradient_boosting"; version 1 documents are logistic
/// regressions and keep loading through `ModelArtifact` / `AnyModelArtifact`).
///
///     { "format_version": 2, "model_type": "gradient_boosting", "model_version": "...",
///       "feature_schema": { "names": [...], "hash": "..." },
///       "parameters": { "objective": "binary", "trees": [ { "num_leaves": L, "split_feature": [...],
///           "threshold": [...], "decision_type": [...], "left_child": [...], "right_child": [...],
///           "split_gain": [...], "internal_value": [...], "internal_weight": [...], "internal_count": [...],
///           "leaf_value": [...], "leaf_weight": [...], "leaf_count": [...], "shrinkage": s }, ... ] },
///       "training": { "fingerprint": "...", "rows": n, "seed": s, "configuration": { LightGBM names }, "iterations": k },
///       "metrics": { ... } }
///
/// Tree fields are LightGBM's (`LightGBMModelText`), numbers in shortest round-trip form, so a
/// decoded model predicts bitwise like the encoded one. See docs/decisions/0313-gbdt-artifact-format-2.md.
public struct GradientBoostingArtifact: Sendable {
    /// The newest `format_version` this type reads and writes; reading accepts 2...currentFormatVersion.
    /// Version 3 adds the optional `calibration` object (docs/decisions/0611); version 4 the
    /// optional `init_model` (a logistic-regression artifact whose margin the trees boost from,
    /// docs/decisions/0617); version 5 the optional `kind_calibration` (per-kind maps after the
    /// shared calibration, docs/decisions/0631); version 6 the optional `schedule_prior` (record
    /// 0668). A document is written with the lowest version that holds what it has, so one
    /// without those parts is byte for byte what earlier builds wrote.
    public static let currentFormatVersion = 6
    public static let modelType = "gradient_boosting"

    public let modelVersion: String
    public let featureNames: [String]
    public let featureSchemaHash: String
    public let model: GradientBoostingModel
    /// Identifies the training data, given by the caller.
    public let fingerprint: String
    /// Seed of the training generator, |seed| < 2^53 when written.
    public let seed: UInt64
    /// The hyperparameters, LightGBM names → values (numbers only).
    public let configuration: [String: Double]
    /// Named quality measures, finite.
    public let metrics: [String: Double]
    /// Training rows and boosting rounds run, >= 0 (from the fit report; 0 for imported models).
    public let trainingRows: Int, iterations: Int
    /// Maps the raw score to the served probability; nil = σ(raw score).
    public let calibration: CalibrationMap?
    /// The logistic regression whose margin (log-odds) each row's trees were boosted from
    /// (LightGBM `init_score`); nil = the trees alone (they carry the average in their first tree).
    public let initModel: ModelArtifact?
    /// `initModel`'s model, built once.
    let initRegression: LogisticRegressionModel?
    /// Per-kind maps applied after `calibration` (or σ); nil = none (record 0631).
    public let kindCalibration: KindCalibration?
    /// `kindCalibration` resolved against `featureNames`.
    public let kindColumns: KindCalibration.Columns?
    /// The pooled weekday shares the multi-day forecasts shrink toward; nil = none (record 0668).
    public let schedulePrior: SchedulePrior?

    /// The format version `encode` writes: 6 with a schedule prior, else 5 with per-kind maps,
    /// else 4 with an initial model, else 3 with a calibration, else 2.
    public var formatVersion: Int {
        schedulePrior != nil ? 6 : kindCalibration != nil ? 5 : initModel != nil ? 4 : calibration == nil ? 2 : 3
    }

    /// Raw score (log-odds) of one row: the initial model's margin (when there is one) plus the trees'.
    /// Training, the daemon, `runus models` and reports all score through this (or the batch forms).
    public func rawScore(row: [Double]) -> Double {
        let trees = model.rawScore(row: row)
        guard let initRegression else { return trees }
        return initRegression.decisionFunction(row: row) + trees
    }

    /// P(y = 1) of one row, calibrated when the artifact holds a calibration, in [0, 1].
    public func probability(row: [Double]) -> Double {
        let score = rawScore(row: row)
        let shared = calibration?.probability(score: score) ?? Logistic.sigmoid(score)
        return kindColumns?.probability(shared: shared, row: row) ?? shared
    }

    /// The same artifact with `calibration` (and merged `metrics`), e.g. after fitting it on held-out data.
    public func with(calibration: CalibrationMap?, metrics extra: [String: Double] = [:]) -> GradientBoostingArtifact {
        GradientBoostingArtifact(model: model, modelVersion: modelVersion, featureNames: featureNames, featureSchemaHash: featureSchemaHash,
                                 fingerprint: fingerprint, seed: seed, configurationValues: configuration,
                                 metrics: metrics.merging(extra) { $1 }, trainingRows: trainingRows, iterations: iterations,
                                 calibration: calibration, initModel: initModel,
                                 kindCalibration: kindCalibration, kindColumns: kindColumns, schedulePrior: schedulePrior)
    }

    /// The same artifact with per-kind maps (nil: none) and merged `metrics`; throws when a map's
    /// kind has no `kind_<name>` feature column.
    public func with(kindCalibration: KindCalibration?, metrics extra: [String: Double] = [:]) throws -> GradientBoostingArtifact {
        GradientBoostingArtifact(model: model, modelVersion: modelVersion, featureNames: featureNames, featureSchemaHash: featureSchemaHash,
                                 fingerprint: fingerprint, seed: seed, configurationValues: configuration,
                                 metrics: metrics.merging(extra) { $1 }, trainingRows: trainingRows, iterations: iterations,
                                 calibration: calibration, initModel: initModel,
                                 kindCalibration: kindCalibration, kindColumns: try kindCalibration?.columns(featureNames: featureNames),
                                 schedulePrior: schedulePrior)
    }

    /// The same artifact with a schedule prior (nil, or one with weight 0: none; record 0668)
    /// and merged `metrics`.
    public func with(schedulePrior: SchedulePrior?, metrics extra: [String: Double] = [:]) -> GradientBoostingArtifact {
        GradientBoostingArtifact(model: model, modelVersion: modelVersion, featureNames: featureNames, featureSchemaHash: featureSchemaHash,
                                 fingerprint: fingerprint, seed: seed, configurationValues: configuration,
                                 metrics: metrics.merging(extra) { $1 }, trainingRows: trainingRows, iterations: iterations,
                                 calibration: calibration, initModel: initModel, kindCalibration: kindCalibration,
                                 kindColumns: kindColumns, schedulePrior: SchedulePrior.stored(schedulePrior))
    }

    public init(model: GradientBoostingModel, modelVersion: String, featureNames: [String], featureSchemaHash: String,
                fingerprint: String, seed: UInt64, configuration: GradientBoosting.Configuration? = nil,
                metrics: [String: Double] = [:], calibration: CalibrationMap? = nil, initModel: ModelArtifact? = nil) throws {
        if featureNames.count != model.featureCount {
            throw LearningError.invalidArtifact(field: "feature_schema.names", problem: "\(featureNames.count) names for a model with \(model.featureCount) features")
        }
        try Self.checkInitModel(initModel, featureNames: featureNames, featureSchemaHash: featureSchemaHash)
        if seed >= UInt64(ModelArtifact.exactIntegerLimit) {
            throw LearningError.invalidArtifact(field: "training.seed", problem: "\(seed) is beyond 2^53 and would not survive JSON")
        }
        for (name, v) in metrics where !v.isFinite { throw LearningError.invalidArtifact(field: "metrics.\(name)", problem: "\(v) is not a finite number") }
        self.model = model
        self.modelVersion = modelVersion
        self.featureNames = featureNames
        self.featureSchemaHash = featureSchemaHash
        self.fingerprint = fingerprint
        self.seed = seed
        self.configuration = configuration.map(Self.describe) ?? [:]
        self.metrics = metrics
        self.calibration = calibration
        self.initModel = initModel
        self.initRegression = initModel?.makeModel()
        self.kindCalibration = nil
        self.kindColumns = nil
        self.schedulePrior = nil
        self.trainingRows = model.report?.rows ?? 0
        self.iterations = model.report?.iterations ?? model.trees.count
    }

    init(model: GradientBoostingModel, modelVersion: String, featureNames: [String], featureSchemaHash: String,
         fingerprint: String, seed: UInt64, configurationValues: [String: Double], metrics: [String: Double],
         trainingRows: Int, iterations: Int, calibration: CalibrationMap?, initModel: ModelArtifact?,
         kindCalibration: KindCalibration? = nil, kindColumns: KindCalibration.Columns? = nil,
         schedulePrior: SchedulePrior? = nil) {
        self.kindCalibration = kindCalibration
        self.schedulePrior = schedulePrior
        self.kindColumns = kindColumns
        self.calibration = calibration
        self.initModel = initModel
        self.initRegression = initModel?.makeModel()
        self.trainingRows = trainingRows
        self.iterations = iterations
        self.model = model
        self.modelVersion = modelVersion
        self.featureNames = featureNames
        self.featureSchemaHash = featureSchemaHash
        self.fingerprint = fingerprint
        self.seed = seed
        self.configuration = configurationValues
        self.metrics = metrics
    }

    static func describe(_ c: GradientBoosting.Configuration) -> [String: Double] {
        ["num_iterations": Double(c.numIterations), "learning_rate": c.learningRate, "num_leaves": Double(c.numLeaves),
         "max_depth": Double(c.maxDepth), "min_data_in_leaf": Double(c.minDataInLeaf),
         "min_sum_hessian_in_leaf": c.minSumHessianInLeaf, "lambda_l2": c.lambdaL2, "min_gain_to_split": c.minGainToSplit,
         "max_bin": Double(c.maxBin), "min_data_in_bin": Double(c.minDataInBin), "bin_construct_sample_cnt": Double(c.binSampleCount),
         "bagging_fraction": c.baggingFraction, "bagging_freq": Double(c.baggingFrequency), "feature_fraction": c.featureFraction,
         "early_stopping_round": Double(c.earlyStoppingRounds)]
    }

    public var jsonValue: JSONValue {
        func numbers(_ xs: [Double]) -> JSONValue { .array(xs.map { .number($0 == 0 ? 0 : $0) }) }
        func ints(_ xs: [Int]) -> JSONValue { .array(xs.map { .number(Double($0)) }) }
        let trees: [JSONValue] = model.trees.map { t in
            .object([
                "num_leaves": .number(Double(t.leafCount)), "split_feature": ints(t.splitFeature), "threshold": numbers(t.threshold),
                "decision_type": ints(t.decisionType.map(Int.init)), "left_child": ints(t.leftChild), "right_child": ints(t.rightChild),
                "split_gain": numbers(t.splitGain), "internal_value": numbers(t.internalValue), "internal_weight": numbers(t.internalWeight),
                "internal_count": ints(t.internalCount), "leaf_value": numbers(t.leafValue), "leaf_weight": numbers(t.leafWeight),
                "leaf_count": ints(t.leafDataCount), "shrinkage": .number(t.shrinkage),
            ])
        }
        var document: [String: JSONValue] = [
            "format_version": .number(Double(formatVersion)),
            "model_type": .string(Self.modelType),
            "model_version": .string(modelVersion),
            "feature_schema": .object(["names": .array(featureNames.map { .string($0) }), "hash": .string(featureSchemaHash)]),
            "parameters": .object(["objective": .string("binary"), "trees": .array(trees)]),
            "training": .object([
                "fingerprint": .string(fingerprint), "rows": .number(Double(trainingRows)),
                "seed": .number(Double(seed)), "iterations": .number(Double(iterations)),
                "configuration": .object(configuration.mapValues { .number($0) }),
            ]),
            "metrics": .object(metrics.mapValues { .number($0) }),
        ]
        if let calibration { document["calibration"] = calibration.jsonValue }
        if let initModel { document["init_model"] = initModel.jsonValue }
        if let kindCalibration { document["kind_calibration"] = kindCalibration.jsonValue }
        if let schedulePrior { document["schedule_prior"] = schedulePrior.jsonValue }
        return .object(document)
    }

    /// Pretty-printed UTF-8 JSON, deterministic.
    public func encode() -> [UInt8] { JSONPrettyPrinter.bytes(jsonValue) }

    /// Reads a format-2 gradient-boosting document; errors name the dotted field.
    public static func decode(_ bytes: [UInt8]) throws -> GradientBoostingArtifact {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch let error as JSONParseError {
            throw LearningError.invalidArtifact(field: "(document)", problem: error.description)
        }
        let root = try Fields(document, path: "")
        let version = try root.int("format_version")
        if version > currentFormatVersion { throw LearningError.unsupportedFormatVersion(found: version, supported: currentFormatVersion) }
        let type = try root.string("model_type")
        if type != modelType { throw LearningError.invalidArtifact(field: "model_type", problem: "\"\(type)\" is not \"\(modelType)\"") }
        if version < 2 { throw LearningError.invalidArtifact(field: "format_version", problem: "\(version): gradient_boosting artifacts start at format_version 2") }
        let schema = try root.object("feature_schema")
        let names = try schema.strings("names")
        let parameters = try root.object("parameters")
        let objective = try parameters.string("objective")
        if objective != "binary" { throw LearningError.invalidArtifact(field: "parameters.objective", problem: "\"\(objective)\" is not \"binary\"") }
        var trees: [DecisionTree] = []
        for (k, value) in try parameters.array("trees").enumerated() {
            let t = try Fields(value, path: "parameters.trees[\(k)]")
            func ints(_ key: String) throws -> [Int] {
                try t.numbers(key).enumerated().map { j, v in
                    guard let i = Int(exactly: v) else { throw LearningError.invalidArtifact(field: "\(t.name(key))[\(j)]", problem: "\(v) is not a whole number") }
                    return i
                }
            }
            let leaves = try t.int("num_leaves")
            let tree = DecisionTree(leafCount: leaves, splitFeature: try ints("split_feature"), threshold: try t.numbers("threshold"),
                                    decisionType: try ints("decision_type").map { UInt8(clamping: $0) }, leftChild: try ints("left_child"),
                                    rightChild: try ints("right_child"), splitGain: try t.numbers("split_gain"),
                                    internalValue: try t.numbers("internal_value"), internalWeight: try t.numbers("internal_weight"),
                                    internalCount: try ints("internal_count"), leafValue: try t.numbers("leaf_value"),
                                    leafWeight: try t.numbers("leaf_weight"), leafDataCount: try ints("leaf_count"), shrinkage: try t.number("shrinkage"))
            try check(tree, place: "parameters.trees[\(k)]", features: names.count)
            trees.append(tree)
        }
        if trees.isEmpty { throw LearningError.invalidArtifact(field: "parameters.trees", problem: "has no trees") }
        let training = try root.object("training")
        let configurationObject = try training.object("configuration")
        var configuration: [String: Double] = [:]
        for key in configurationObject.members.keys { configuration[key] = try configurationObject.number(key) }
        let metricsObject = try root.object("metrics")
        var metrics: [String: Double] = [:]
        for key in metricsObject.members.keys { metrics[key] = try metricsObject.number(key) }
        var calibration: CalibrationMap? = nil
        if root.members["calibration"] != nil {
            if version < 3 { throw LearningError.invalidArtifact(field: "calibration", problem: "needs format_version 3, the document says \(version)") }
            calibration = try CalibrationMap.decode(try root.object("calibration"))
        }
        var initModel: ModelArtifact? = nil
        if let value = root.members["init_model"] {
            if version < 4 { throw LearningError.invalidArtifact(field: "init_model", problem: "needs format_version 4, the document says \(version)") }
            initModel = try decodeInitModel(value)
            try checkInitModel(initModel, featureNames: names, featureSchemaHash: try schema.string("hash"))
        }
        let kind = try KindCalibration.decodeOptional(root, version: version, minimumVersion: 5, featureNames: names)
        let schedulePrior = try SchedulePrior.decodeOptional(root, version: version, minimumVersion: 6)
        let seed = try training.int("seed")
        if seed < 0 { throw LearningError.invalidArtifact(field: "training.seed", problem: "\(seed) must be >= 0") }
        return GradientBoostingArtifact(model: GradientBoostingModel(trees: trees, featureCount: names.count), modelVersion: try root.string("model_version"),
                                        featureNames: names, featureSchemaHash: try schema.string("hash"), fingerprint: try training.string("fingerprint"),
                                        seed: UInt64(seed), configurationValues: configuration, metrics: metrics,
                                        trainingRows: try training.int("rows"), iterations: try training.int("iterations"),
                                        calibration: calibration, initModel: initModel,
                                        kindCalibration: kind?.0, kindColumns: kind?.1, schedulePrior: schedulePrior)
    }

    /// The `init_model` object read as a logistic-regression artifact; errors name "init_model.<field>".
    static func decodeInitModel(_ value: JSONValue) throws -> ModelArtifact {
        guard value.objectValue != nil else {
            throw LearningError.invalidArtifact(field: "init_model", problem: "expected an object, got \(value.typeName)")
        }
        do { return try ModelArtifact.decode(JSONPrettyPrinter.bytes(value)) } catch LearningError.invalidArtifact(let field, let problem) {
            throw LearningError.invalidArtifact(field: "init_model." + field, problem: problem)
        }
    }

    /// The initial model must read the same features, in the same order, as the trees.
    static func checkInitModel(_ m: ModelArtifact?, featureNames: [String], featureSchemaHash: String) throws {
        guard let m else { return }
        if m.featureNames != featureNames || m.featureSchemaHash != featureSchemaHash {
            throw LearningError.invalidArtifact(field: "init_model.feature_schema",
                                                problem: "\(m.featureSchemaHash) (\(m.featureNames.count) features) differs from the trees' \(featureSchemaHash) (\(featureNames.count) features)")
        }
    }

    static func check(_ t: DecisionTree, place: String, features: Int) throws {
        let m = t.leafCount - 1
        if t.leafCount < 1 { throw LearningError.invalidArtifact(field: "\(place).num_leaves", problem: "\(t.leafCount) must be >= 1") }
        let internalArrays: [(String, Int)] = [("split_feature", t.splitFeature.count), ("threshold", t.threshold.count),
            ("decision_type", t.decisionType.count), ("left_child", t.leftChild.count), ("right_child", t.rightChild.count),
            ("split_gain", t.splitGain.count), ("internal_value", t.internalValue.count), ("internal_weight", t.internalWeight.count),
            ("internal_count", t.internalCount.count)]
        for (name, count) in internalArrays where count != m {
            throw LearningError.invalidArtifact(field: "\(place).\(name)", problem: "has \(count) values, expected \(m) (num_leaves - 1)")
        }
        for (name, count) in [("leaf_value", t.leafValue.count), ("leaf_weight", t.leafWeight.count), ("leaf_count", t.leafDataCount.count)] where count != t.leafCount {
            throw LearningError.invalidArtifact(field: "\(place).\(name)", problem: "has \(count) values, expected \(t.leafCount) (num_leaves)")
        }
        for (j, f) in t.splitFeature.enumerated() where f < 0 || f >= features {
            throw LearningError.invalidArtifact(field: "\(place).split_feature[\(j)]", problem: "feature \(f) outside 0..<\(features)")
        }
        for (j, c) in (t.leftChild + t.rightChild).enumerated() where c >= m || c < -t.leafCount {
            throw LearningError.invalidArtifact(field: "\(place).children[\(j)]", problem: "child \(c) outside -\(t.leafCount)...\(m - 1)")
        }
    }
}

/// Any model artifact this build reads: format 1 logistic regressions and format 2 gradient boosting.
public enum AnyModelArtifact: Sendable {
    case logisticRegression(ModelArtifact)
    case gradientBoosting(GradientBoostingArtifact)

    /// Dispatches on `model_type`; version rules are each type's own.
    public static func decode(_ bytes: [UInt8]) throws -> AnyModelArtifact {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch let error as JSONParseError {
            throw LearningError.invalidArtifact(field: "(document)", problem: error.description)
        }
        switch document["model_type"]?.stringValue {
        case ModelArtifact.logisticRegressionType?: return .logisticRegression(try ModelArtifact.decode(bytes))
        case GradientBoostingArtifact.modelType?: return .gradientBoosting(try GradientBoostingArtifact.decode(bytes))
        case let other:
            throw LearningError.invalidArtifact(field: "model_type", problem: "\(other.map { "\"\($0)\"" } ?? "missing"), expected \"\(ModelArtifact.logisticRegressionType)\" or \"\(GradientBoostingArtifact.modelType)\"")
        }
    }
}
