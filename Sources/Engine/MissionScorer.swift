import RunusCore
import Features
import Learning

/// Scores feature rows (in `MissionFeatures.schema` order) with a completion probability.
public protocol MissionScorer: Sendable {
    /// Version string written on every assignment it scores.
    var version: String { get }
    func probabilities(_ rows: [[Double]]) -> [Double]
    /// What the streak and weekly-volume forecasts shrink a runner's weekday shares toward
    /// (record 0668): the served model's, `SchedulePrior.none` for a model without one.
    var schedulePrior: SchedulePrior { get }
}

extension MissionScorer {
    /// No prior: the forecasts read each runner's own record only.
    public var schedulePrior: SchedulePrior { .none }
}

public enum EngineError: Error, CustomStringConvertible, Equatable {
    case schemaMismatch(expected: String, artifact: String)
    case unknownUser(UserID)
    /// `missions.today` asked for a day outside yesterday…tomorrow of the runner's zone.
    case dayOutOfRange(asked: CivilDate, today: CivilDate)
    case unknownRun(user: UserID, id: String)
    /// A stored track this version cannot decode (a bug or a damaged file: not the client's).
    case undecodableTrack(user: UserID, id: String, reason: String)

    public var description: String {
        switch self {
        case .schemaMismatch(let expected, let artifact):
            return "model feature schema \(artifact) does not match this build's schema \(expected); retrain the model"
        case .unknownUser(let id):
            return "unknown user '\(id)'"
        case .unknownRun(let user, let id):
            return "user '\(user.prefix(128))' has no run '\(id.prefix(260))'"
        case .undecodableTrack(let user, let id, let reason):
            return "the stored track of run '\(id.prefix(260))' of user '\(user.prefix(128))' cannot be decoded: \(reason)"
        case .dayOutOfRange(let asked, let today):
            return "date \(asked) is outside \(today.adding(days: -1))…\(today.adding(days: 1)) (yesterday to tomorrow in the runner's time zone, where today is \(today))"
        }
    }
}

/// A logistic-regression artifact serving as the scorer: σ of the margin, then the artifact's
/// per-kind map when it has one (docs/decisions/0631). Creation refuses an artifact whose
/// feature schema is not the code's.
public struct LogisticScorer: MissionScorer {
    public let version: String
    let model: LogisticRegressionModel
    let kindColumns: KindCalibration.Columns?
    public let schedulePrior: SchedulePrior

    public init(artifact: ModelArtifact) throws {
        guard artifact.featureSchemaHash == MissionFeatures.schema.hash else {
            throw EngineError.schemaMismatch(expected: MissionFeatures.schema.hash, artifact: artifact.featureSchemaHash)
        }
        version = artifact.modelVersion
        model = artifact.makeModel()
        kindColumns = artifact.kindColumns
        schedulePrior = artifact.schedulePrior ?? .none
    }

    public func probabilities(_ rows: [[Double]]) -> [Double] {
        guard let kindColumns else { return rows.map { model.probability(row: $0) } }
        return rows.map { kindColumns.probability(shared: model.probability(row: $0), row: $0) }
    }
}
