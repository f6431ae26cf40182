/// Everything that can go wrong at the `Learning` boundary because of bad data (programmer bugs
/// are preconditions instead). Each message names the place, the bad value and what was expected.
public enum LearningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two inputs that must agree in size do not, e.g. labels versus matrix rows.
    case dimensionMismatch(what: String, expected: Int, actual: Int)
    /// A label other than 0 or 1 at `row` (0-based).
    case invalidLabel(row: Int, value: Double)
    /// A NaN or infinite feature value at (`row`, `column`), 0-based.
    case nonFiniteFeature(row: Int, column: Int, value: Double)
    /// A negative, NaN or infinite observation weight at `row` (0-based).
    case invalidWeight(row: Int, value: Double)
    /// A hyperparameter outside its documented range.
    case invalidConfiguration(parameter: String, value: String, expected: String)
    /// Nothing to learn from or to measure: no rows, zero total weight, one class only, ...
    case emptyData(String)
    /// The Newton system could not be solved by Cholesky (LAPACK `dposv` returned `info`).
    case singularHessian(iteration: Int, info: Int)
    /// A metric input that is out of range (a probability outside [0, 1], a NaN score, ...).
    case invalidMetricInput(metric: String, row: Int, value: Double, expected: String)
    /// A model artifact field that is missing or malformed; `field` is a dotted path.
    case invalidArtifact(field: String, problem: String)
    /// An artifact written by a newer format than this build reads.
    case unsupportedFormatVersion(found: Int, supported: Int)

    public var description: String {
        switch self {
        case let .dimensionMismatch(what, expected, actual):
            return "\(what): expected \(expected), got \(actual)"
        case let .invalidLabel(row, value):
            return "row \(row): label \(value) is not 0 or 1"
        case let .nonFiniteFeature(row, column, value):
            return "row \(row), column \(column): feature value \(value) is not a finite number"
        case let .invalidWeight(row, value):
            return "row \(row): weight \(value) must be finite and >= 0"
        case let .invalidConfiguration(parameter, value, expected):
            return "configuration \(parameter) = \(value): expected \(expected)"
        case let .emptyData(message):
            return message
        case let .singularHessian(iteration, info):
            return "Newton iteration \(iteration): Hessian is not positive definite (LAPACKE_dposv info \(info)); "
                + "expected with l2 = 0 and collinear or separable features (use l2 > 0), or when every prediction is saturated"
        case let .invalidMetricInput(metric, row, value, expected):
            return "\(metric), row \(row): value \(value), expected \(expected)"
        case let .invalidArtifact(field, problem):
            return "model artifact field '\(field)': \(problem)"
        case let .unsupportedFormatVersion(found, supported):
            return "model artifact format_version \(found) is newer than this build reads (up to \(supported)); "
                + "upgrade runus or re-export the model"
        }
    }
}
