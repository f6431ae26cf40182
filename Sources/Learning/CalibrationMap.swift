import RunusCore

/// A fitted calibration stored in a model artifact: how a model's raw score (log-odds) becomes
/// the probability the daemon serves. JSON shape, inside a gradient-boosting artifact:
///
///     "calibration": { "method": "platt", "slope": a, "intercept": b }
///     "calibration": { "method": "isotonic", "thresholds": [...], "values": [...] }
///
/// Which method the trainer picks, and on what data, is docs/decisions/0611.
public enum CalibrationMap: Sendable, Equatable {
    case platt(Calibration.Platt)
    case isotonic(Calibration.Isotonic)

    /// "platt" or "isotonic".
    public var method: String {
        switch self {
        case .platt: return "platt"
        case .isotonic: return "isotonic"
        }
    }

    /// The calibrated probability of a raw score (log-odds), in [0, 1].
    public func probability(score: Double) -> Double {
        switch self {
        case .platt(let p): return p.probability(score: score)
        case .isotonic(let i): return i.probability(score: score)
        }
    }

    public var jsonValue: JSONValue {
        func numbers(_ xs: [Double]) -> JSONValue { .array(xs.map { .number($0 == 0 ? 0 : $0) }) }
        switch self {
        case .platt(let p):
            return ["method": "platt", "slope": .number(p.slope), "intercept": .number(p.intercept),
                    "iterations": .number(Double(p.iterations))]
        case .isotonic(let i):
            return ["method": "isotonic", "thresholds": numbers(i.thresholds), "values": numbers(i.values)]
        }
    }

    /// Reads the object at `fields`; errors name the dotted field.
    static func decode(_ fields: Fields) throws -> CalibrationMap {
        let method = try fields.string("method")
        switch method {
        case "platt":
            let slope = try fields.number("slope"), intercept = try fields.number("intercept")
            guard slope.isFinite, intercept.isFinite else {
                throw LearningError.invalidArtifact(field: fields.name("slope"), problem: "slope \(slope) and intercept \(intercept) must be finite")
            }
            return .platt(Calibration.Platt(slope: slope, intercept: intercept, iterations: try fields.int("iterations")))
        case "isotonic":
            let xs = try fields.numbers("thresholds"), ys = try fields.numbers("values")
            guard !xs.isEmpty, xs.count == ys.count else {
                throw LearningError.invalidArtifact(field: fields.name("values"), problem: "\(ys.count) values for \(xs.count) thresholds, expected the same non-zero count")
            }
            for k in 1..<max(xs.count, 1) where !(xs[k] > xs[k - 1]) || !(ys[k] >= ys[k - 1]) {
                throw LearningError.invalidArtifact(field: fields.name("thresholds") + "[\(k)]", problem: "thresholds must increase and values must not decrease")
            }
            for (k, y) in ys.enumerated() where !(0...1).contains(y) {
                throw LearningError.invalidArtifact(field: fields.name("values") + "[\(k)]", problem: "\(y) is outside [0, 1]")
            }
            return .isotonic(Calibration.Isotonic(thresholds: xs, values: ys))
        default:
            throw LearningError.invalidArtifact(field: fields.name("method"), problem: "\"\(method)\", expected \"platt\" or \"isotonic\"")
        }
    }
}
