import Foundation
import Features
import Learning
import Reports

/// A model directory read for `runus report` through the shared loader (`ModelFiles.load`), as
/// the parameters the report needs (LR coefficients, GBDT trees with their stored calibration, so
/// the report's probabilities are the ones the daemon serves), checked against this build's
/// feature schema.
struct ReportModel {
    let directory: String
    let model: EvaluatedModel

    /// Short kind label for legends.
    static func label(_ parameters: EvaluatedModel.Parameters) -> String {
        switch parameters {
        case .logisticRegression: return "LR"
        case .gradientBoosting: return "GBDT"
        }
    }

    static func load(directory: String, schema: FeatureSchema = MissionFeatures.schema) throws -> ReportModel {
        let path = directory + "/" + ModelFiles.artifactName
        let artifact = try ModelFiles.load(from: directory).artifact
        let version: String, names: [String], hash: String, parameters: EvaluatedModel.Parameters
        switch artifact {
        case .logisticRegression(let a):
            (version, names, hash) = (a.modelVersion, a.featureNames, a.featureSchemaHash)
            parameters = .logisticRegression(a.makeModel())
        case .gradientBoosting(let a):
            (version, names, hash) = (a.modelVersion, a.featureNames, a.featureSchemaHash)
            parameters = .gradientBoosting(a.model, calibration: a.calibration, initModel: a.initModel?.makeModel())
        }
        guard hash == schema.hash, names == schema.names else {
            throw CLIError("\(path): feature schema \(hash) (\(names.count) features) does not match this build's schema "
                           + "\(schema.hash) (\(schema.count) features); retrain the model or use a matching build")
        }
        return ReportModel(directory: directory,
                           model: EvaluatedModel(name: label(parameters), version: version, featureNames: names, parameters: parameters))
    }

    /// The same model under another legend name.
    func renamed(_ name: String) -> ReportModel {
        ReportModel(directory: directory, model: EvaluatedModel(name: name, version: model.version,
                                                                featureNames: model.featureNames, parameters: model.parameters))
    }
}
