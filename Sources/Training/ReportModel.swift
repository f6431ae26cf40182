import Features
import Learning
import Reports

/// A model as `runus report` evaluates it: the parameters the report needs (LR coefficients,
/// GBDT trees with their stored calibration, so the report's probabilities are the ones the
/// daemon serves), checked against this build's feature schema.
public struct ReportModel: Sendable {
    /// The directory the model was read from (the CLI names legends after it).
    public let directory: String
    public let model: EvaluatedModel

    /// Short kind label for legends.
    public static func label(_ parameters: EvaluatedModel.Parameters) -> String {
        switch parameters {
        case .logisticRegression: return "LR"
        case .gradientBoosting: return "GBDT"
        }
    }

    /// `artifact`, read from the file `path` in `directory` (both only named), for the report.
    public init(artifact: AnyModelArtifact, directory: String, path: String, schema: FeatureSchema = MissionFeatures.schema) throws {
        let version: String, names: [String], hash: String, parameters: EvaluatedModel.Parameters
        let kindColumns: KindCalibration.Columns?
        switch artifact {
        case .logisticRegression(let a):
            (version, names, hash) = (a.modelVersion, a.featureNames, a.featureSchemaHash)
            parameters = .logisticRegression(a.makeModel())
            kindColumns = a.kindColumns
        case .gradientBoosting(let a):
            (version, names, hash) = (a.modelVersion, a.featureNames, a.featureSchemaHash)
            parameters = .gradientBoosting(a.model, calibration: a.calibration, initModel: a.initModel?.makeModel())
            kindColumns = a.kindColumns
        }
        guard hash == schema.hash, names == schema.names else {
            throw TrainingError.schemaMismatch(path: path, hash: hash, features: names.count, expectedHash: schema.hash,
                                               expectedFeatures: schema.count)
        }
        self.init(directory: directory, model: EvaluatedModel(name: Self.label(parameters), version: version, featureNames: names,
                                                              parameters: parameters, kindColumns: kindColumns))
    }

    init(directory: String, model: EvaluatedModel) {
        self.directory = directory; self.model = model
    }

    /// The same model under another legend name.
    public func renamed(_ name: String) -> ReportModel {
        ReportModel(directory: directory, model: EvaluatedModel(name: name, version: model.version,
                                                                featureNames: model.featureNames, parameters: model.parameters,
                                                                kindColumns: model.kindColumns))
    }
}
