import Learning

/// How long a runner has been running when a mission is offered, by the number of runs logged
/// before the offer (docs/decisions/0701-runner-experience.md): new < 10 earlier runs, regular
/// 10–49, veteran >= 50.
public enum RunnerExperience: String, Sendable, CaseIterable, Comparable {
    case new, regular, veteran

    /// Earlier runs at which a runner stops being new, and becomes a veteran.
    public static let regularFrom = 10, veteranFrom = 50

    /// The class of a runner with `earlierRuns` (>= 0) runs logged before the offer.
    public init(earlierRuns: Int) {
        precondition(earlierRuns >= 0, "earlierRuns \(earlierRuns) < 0")
        self = earlierRuns >= Self.veteranFrom ? .veteran : earlierRuns >= Self.regularFrom ? .regular : .new
    }

    /// Label with its rule, for tables.
    public var label: String {
        switch self {
        case .new: return "new (< \(Self.regularFrom) runs)"
        case .regular: return "regular (\(Self.regularFrom)–\(Self.veteranFrom - 1) runs)"
        case .veteran: return "veteran (≥ \(Self.veteranFrom) runs)"
        }
    }

    public static func < (a: RunnerExperience, b: RunnerExperience) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One example of the evaluation period: its outcome, each model's prediction and what it is
/// sliced by. Every example of a report has the same number of probabilities (one per model).
public struct EvaluatedExample: Sendable, Equatable {
    /// 1 completed, 0 failed.
    public var label: Double
    /// Predicted completion probability of each model, in [0, 1], in the report's model order.
    public var probabilities: [Double]
    /// Mission kind (wire name, e.g. "negative_split").
    public var kind: String
    /// Runner id (the resampling unit of the runner bootstrap).
    public var runner: String
    public var experience: RunnerExperience
    /// Month of the offer, "YYYY-MM" (the runner's local calendar).
    public var month: String
    /// Local day of the offer, "YYYY-MM-DD" (groups the policy's runner-days).
    public var day: String

    public init(label: Double, probabilities: [Double], kind: String, runner: String, experience: RunnerExperience,
                month: String, day: String) {
        self.label = label; self.probabilities = probabilities; self.kind = kind; self.runner = runner
        self.experience = experience; self.month = month; self.day = day
    }
}

/// A model as the report needs it: a name for legends, its version, and its parameters (for
/// feature importance).
public struct EvaluatedModel: Sendable {
    public enum Parameters: Sendable {
        case logisticRegression(LogisticRegressionModel)
        /// The trees and, when the artifact has them, the calibration that maps the raw score
        /// (log-odds) to the probability the daemon serves (record 0611) and the logistic
        /// regression whose margin the trees were boosted from (record 0617).
        case gradientBoosting(GradientBoostingModel, calibration: CalibrationMap? = nil, initModel: LogisticRegressionModel? = nil)
    }

    /// Short name shown in legends and tables, e.g. "GBDT".
    public let name: String
    /// The artifact's `model_version`.
    public let version: String
    public let featureNames: [String]
    public let parameters: Parameters
    /// Per-kind maps applied after the model's own probability (record 0631); nil: none.
    public let kindColumns: KindCalibration.Columns?

    public init(name: String, version: String, featureNames: [String], parameters: Parameters,
                kindColumns: KindCalibration.Columns? = nil) {
        self.name = name; self.version = version; self.featureNames = featureNames; self.parameters = parameters
        self.kindColumns = kindColumns
    }

    /// "logistic_regression" or "gradient_boosting".
    public var kind: String {
        switch parameters {
        case .logisticRegression: return "logistic_regression"
        case .gradientBoosting: return "gradient_boosting"
        }
    }

    /// P(completed) for every row of `x` (`x.cols` = feature count), in [0, 1], as the daemon
    /// serves it (per-kind maps included).
    public func probabilities(_ x: Matrix) -> [Double] {
        let shared = sharedProbabilities(x)
        guard let kindColumns else { return shared }
        return shared.indices.map { kindColumns.probability(shared: shared[$0], x: x, row: $0) }
    }

    /// The probabilities before any per-kind map.
    func sharedProbabilities(_ x: Matrix) -> [Double] {
        switch parameters {
        case .logisticRegression(let m): return m.probabilities(x: x)
        case .gradientBoosting(let m, let calibration, let initModel):
            if calibration == nil && initModel == nil { return m.probabilities(x: x) }
            // As the artifact (and so the daemon) scores: initial margin plus trees, then the calibration.
            return m.rawScores(x: x, initModel: initModel).map { GradientBoostingModel.probability(rawScore: $0, calibration: calibration) }
        }
    }
}
