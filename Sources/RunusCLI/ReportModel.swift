import Foundation
import Features
import Learning
import Reports

/// A model directory read for `runus report`: `model.json` of either kind (logistic regression,
/// format 1, or gradient boosting, format 2), checked against this build's feature schema.
///
/// Interim: the daemon's scorer (`Engine/MissionScorer.swift`) reads only logistic regressions
/// today and a GBDT scorer is being added in parallel; this small loader lets reports read both
/// kinds now. The integrator can replace it with the shared loader when that lands.
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
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("no model artifact at \(path)") }
        let artifact: AnyModelArtifact
        do { artifact = try AnyModelArtifact.decode(Array(data)) } catch { throw CLIError("\(path): \(error)") }
        let version: String, names: [String], hash: String, parameters: EvaluatedModel.Parameters
        switch artifact {
        case .logisticRegression(let a):
            (version, names, hash) = (a.modelVersion, a.featureNames, a.featureSchemaHash)
            parameters = .logisticRegression(a.makeModel())
        case .gradientBoosting(let a):
            (version, names, hash) = (a.modelVersion, a.featureNames, a.featureSchemaHash)
            parameters = .gradientBoosting(a.model)
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
