import RunusCore

/// Everything that can go wrong at the `Training` boundary because of the data (programmer bugs
/// are preconditions instead). Each message names the bad value and what was expected.
public enum TrainingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer labelled examples than a time split needs.
    case tooFewExamples(count: Int, minimum: Int)
    /// The time split left no training or no test row.
    case emptyTrainOrTest
    /// The time split left no validation row although `fraction` > 0 asked for some.
    case emptyValidation(fraction: Double)
    /// An example of the earlier slice is not before the cutoff (epoch seconds).
    case notBeforeCutoff(user: UserID, example: String, time: EpochSeconds, cutoff: EpochSeconds)
    /// An example of the later slice predates that runner's last earlier example (`last`).
    case olderThanTraining(user: UserID, example: String, time: EpochSeconds, last: EpochSeconds, cutoff: EpochSeconds)
    /// A stored run whose track does not decode.
    case undecodableTrack(run: String, problem: String)
    /// A stored assignment whose mission spec does not parse.
    case invalidStoredSpec(assignment: String, problem: String)
    /// The store has no tried mission at all.
    case noExamples
    /// No tried mission falls in the report's period (described in words).
    case noExamplesInPeriod(String)
    /// A model file whose feature schema is not this build's.
    case schemaMismatch(path: String, hash: String, features: Int, expectedHash: String, expectedFeatures: Int)
    /// The gradient-boosting grid had no shape to try.
    case emptyGrid
    /// Too few runners with examples to hold `needed` groups of people out (folds, or train and held-out).
    case tooFewRunners(count: Int, needed: Int)
    /// A group split's held-out share outside (0, 1).
    case badHeldOutShare(Double)
    /// A cross-validation over fewer than 2 folds of people.
    case badFolds(Int)

    public var description: String {
        switch self {
        case let .tooFewExamples(count, minimum):
            return "only \(count) labelled examples (tried missions); at least \(minimum) are needed"
        case .emptyTrainOrTest:
            return "the time split left an empty train or test set"
        case let .emptyValidation(fraction):
            return "the time split left an empty validation slice (validation fraction \(fraction))"
        case let .notBeforeCutoff(user, example, time, cutoff):
            return "leakage check: runner \(user) example \(example) at \(time) is in the earlier slice but not before the cutoff \(cutoff)"
        case let .olderThanTraining(user, example, time, last, cutoff):
            return "leakage check: runner \(user) example \(example) at \(time) is older than the runner's training rows (last \(last), cutoff \(cutoff))"
        case let .undecodableTrack(run, problem):
            return "run \(run): stored track cannot be decoded: \(problem)"
        case let .invalidStoredSpec(assignment, problem):
            return "assignment \(assignment): stored mission spec is invalid: \(problem)"
        case .noExamples:
            return "the database has no labelled examples (tried missions)"
        case let .noExamplesInPeriod(period):
            return "no labelled examples in the period (\(period)); widen --from/--to"
        case let .schemaMismatch(path, hash, features, expectedHash, expectedFeatures):
            return "\(path): feature schema \(hash) (\(features) features) does not match this build's schema "
                + "\(expectedHash) (\(expectedFeatures) features); retrain the model or use a matching build"
        case .emptyGrid:
            return "the gradient-boosting grid is empty: give at least one num_leaves and one min_data_in_leaf value"
        case let .tooFewRunners(count, needed):
            return "only \(count) runners have labelled examples; holding people out needs at least \(needed)"
        case let .badHeldOutShare(share):
            return "held-out share of runners \(share) is outside (0, 1)"
        case let .badFolds(folds):
            return "\(folds) folds of people: a cross-validation needs at least 2"
        }
    }
}
