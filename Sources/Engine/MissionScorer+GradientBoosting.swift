import RunusCore
import Features
import Learning

/// A gradient-boosted tree artifact serving as the scorer: the flat `TreePredictor`, then the
/// artifact's calibration (docs/decisions/0611) when it has one. Creation refuses an artifact
/// whose feature schema is not the code's, as `LogisticScorer` does.
public struct GradientBoostingScorer: MissionScorer {
    public let version: String
    let artifact: GradientBoostingArtifact
    public var schedulePrior: SchedulePrior { artifact.schedulePrior ?? .none }

    public init(artifact: GradientBoostingArtifact) throws {
        try MissionScorers.checkSchema(artifact.featureSchemaHash)
        // The hash covers names in order; the count is checked too so a bad artifact cannot trap.
        guard artifact.model.featureCount == MissionFeatures.schema.count else {
            throw EngineError.schemaMismatch(expected: MissionFeatures.schema.hash,
                                             artifact: "\(artifact.featureSchemaHash) (\(artifact.model.featureCount) features, expected \(MissionFeatures.schema.count))")
        }
        version = artifact.modelVersion
        self.artifact = artifact
    }

    /// The candidates are scored as one batch (tree by tree through all rows, docs/decisions/0306).
    public func probabilities(_ rows: [[Double]]) -> [Double] {
        artifact.probabilities(rows: rows)
    }
}

/// Scorers for any artifact kind this build reads.
public enum MissionScorers {
    /// The scorer for `artifact`; throws `EngineError.schemaMismatch` for a foreign feature schema.
    public static func make(_ artifact: AnyModelArtifact) throws -> any MissionScorer {
        switch artifact {
        case .logisticRegression(let a): return try LogisticScorer(artifact: a)
        case .gradientBoosting(let a): return try GradientBoostingScorer(artifact: a)
        }
    }

    static func checkSchema(_ hash: String) throws {
        guard hash == MissionFeatures.schema.hash else {
            throw EngineError.schemaMismatch(expected: MissionFeatures.schema.hash, artifact: hash)
        }
    }
}
