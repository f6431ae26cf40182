import Foundation
import RunusCore
import Engine
import Learning

/// A model directory read and ready to serve: the artifact (any kind) and its scorer.
struct LoadedModel: Sendable {
    let artifact: AnyModelArtifact
    let scorer: any MissionScorer
    /// The directory it was read from.
    let directory: String
}

extension ModelFiles {
    /// Reads DIR/model.json of any kind (logistic regression or gradient boosting).
    static func readAny(from directory: String) throws -> AnyModelArtifact {
        let path = directory + "/" + artifactName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("no model artifact at \(path)")
        }
        do {
            return try AnyModelArtifact.decode(Array(data))
        } catch {
            throw CLIError("\(path): \(error)")
        }
    }

    /// The one loader used by `serve`, `model.reload`, `simulate-policy` and `models compare`:
    /// reads any artifact kind and builds its scorer, refusing a foreign feature schema.
    static func load(from directory: String) throws -> LoadedModel {
        let artifact = try readAny(from: directory)
        do {
            return LoadedModel(artifact: artifact, scorer: try MissionScorers.make(artifact), directory: directory)
        } catch {
            throw CLIError("\(directory)/\(artifactName): \(error)")
        }
    }

    static func write(artifact: AnyModelArtifact, card: String, to directory: String) throws {
        switch artifact {
        case .logisticRegression(let a): try write(artifact: a, card: card, to: directory)
        case .gradientBoosting(let a): try write(bytes: a.encode(), card: card, to: directory)
        }
    }

    static func write(bytes: [UInt8], card: String, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + artifactName), options: .atomic)
            try Data(card.utf8).write(to: URL(fileURLWithPath: directory + "/" + cardName), options: .atomic)
        } catch {
            throw CLIError("cannot write the model to \(directory): \(error.localizedDescription)")
        }
    }
}

extension AnyModelArtifact {
    var modelVersion: String {
        switch self {
        case .logisticRegression(let a): return a.modelVersion
        case .gradientBoosting(let a): return a.modelVersion
        }
    }

    /// The artifact's `model_type`: "logistic_regression" or "gradient_boosting".
    var modelType: String {
        switch self {
        case .logisticRegression(let a): return a.modelType
        case .gradientBoosting: return GradientBoostingArtifact.modelType
        }
    }

    /// The `runus train --model` name: "lr" or "gbdt".
    var kindName: String {
        switch self {
        case .logisticRegression: return "lr"
        case .gradientBoosting: return "gbdt"
        }
    }

    var metrics: [String: Double] {
        switch self {
        case .logisticRegression(let a): return a.metrics
        case .gradientBoosting(let a): return a.metrics
        }
    }

    /// "platt", "isotonic" or "none" (logistic regressions are not recalibrated).
    var calibrationMethod: String {
        switch self {
        case .logisticRegression: return "none"
        case .gradientBoosting(let a): return a.calibration?.method ?? "none"
        }
    }

    /// The `model.info` answer (spec/protocol/model.info.json).
    var info: JSONValue {
        var metricValues: [String: JSONValue] = [:]
        for (name, value) in metrics { metricValues[name] = .number(value) }
        var result: [String: JSONValue] = [
            "model_version": .string(modelVersion),
            "model_type": .string(modelType),
            "kind": .string(kindName),
            "calibration": .string(calibrationMethod),
            "metrics": .object(metricValues),
        ]
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

extension DaemonOperations {
    /// Operations serving a logistic-regression artifact.
    init(store: any EngineStore, scorer: any MissionScorer, artifact: ModelArtifact, clock: any Clock,
         startedAt: EpochSeconds, resolver: any UTCOffsetResolver = SystemTimeZones()) {
        self.init(store: store, scorer: scorer, artifact: .logisticRegression(artifact), clock: clock,
                  startedAt: startedAt, resolver: resolver)
    }
}
