import RunusCore

/// What a served model says about itself: its version, kind, calibration and metrics, and the
/// `model.info` answer (spec/protocol/model.info.json).
extension AnyModelArtifact {
    public var modelVersion: String {
        switch self {
        case .logisticRegression(let a): return a.modelVersion
        case .gradientBoosting(let a): return a.modelVersion
        }
    }

    /// The artifact's `model_type`: "logistic_regression" or "gradient_boosting".
    public var modelType: String {
        switch self {
        case .logisticRegression(let a): return a.modelType
        case .gradientBoosting: return GradientBoostingArtifact.modelType
        }
    }

    /// The `runus train --model` name: "lr" or "gbdt".
    public var kindName: String {
        switch self {
        case .logisticRegression: return "lr"
        case .gradientBoosting: return "gbdt"
        }
    }

    public var metrics: [String: Double] {
        switch self {
        case .logisticRegression(let a): return a.metrics
        case .gradientBoosting(let a): return a.metrics
        }
    }

    /// "platt", "isotonic" or "none" (logistic regressions are not recalibrated).
    public var calibrationMethod: String {
        switch self {
        case .logisticRegression: return "none"
        case .gradientBoosting(let a): return a.calibration?.method ?? "none"
        }
    }

    /// What the multi-day forecasts shrink a runner's weekday shares toward (record 0668); nil:
    /// none, each runner's own record only.
    public var schedulePrior: SchedulePrior? {
        switch self {
        case .logisticRegression(let a): return a.schedulePrior
        case .gradientBoosting(let a): return a.schedulePrior
        }
    }

    /// The `model.info` answer (spec/protocol/model.info.json).
    public var info: JSONValue {
        var metricValues: [String: JSONValue] = [:]
        for (name, value) in metrics { metricValues[name] = .number(value) }
        var result: [String: JSONValue] = [
            "model_version": .string(modelVersion),
            "model_type": .string(modelType),
            "kind": .string(kindName),
            "calibration": .string(calibrationMethod),
            "metrics": .object(metricValues),
        ]
        if let schedulePrior { result["schedule_prior"] = schedulePrior.jsonValue }
        switch self {
        case .logisticRegression(let a):
            result["format_version"] = .number(Double(a.formatVersion))
            result["feature_schema_hash"] = .string(a.featureSchemaHash)
            result["features"] = .array(a.featureNames.map { .string($0) })
            result["training"] = [
                "fingerprint": .string(a.training.fingerprint), "rows": .number(Double(a.training.rows)),
                "seed": .number(Double(a.training.seed)), "l2": .number(a.training.l2),
            ]
        case .gradientBoosting(let a):
            result["format_version"] = .number(Double(a.formatVersion))
            result["feature_schema_hash"] = .string(a.featureSchemaHash)
            result["features"] = .array(a.featureNames.map { .string($0) })
            result["training"] = [
                "fingerprint": .string(a.fingerprint), "rows": .number(Double(a.trainingRows)),
                "seed": .number(Double(a.seed)), "iterations": .number(Double(a.iterations)),
            ]
        }
        return .object(result)
    }
}
