/// A fitted logistic regression: immutable, cheap to copy, safe to share between threads.
///
/// The parameters live on the standardized scale (`coefficients`, `intercept`) because that is
/// where the penalty acts and what the artifact stores. Prediction folds the standardizer into
/// original-scale coefficients once, at construction, so scoring a row is one dot product and a
/// batch is one `dgemv` without a standardized copy. See docs/decisions/0305-prediction-folds-standardizer.md.
public struct LogisticRegressionModel: Sendable, Equatable {
    /// Feature means and scales learnt on the training rows.
    public let standardizer: Standardizer
    /// β on standardized features (log-odds per standard deviation), in feature order.
    public let coefficients: [Double]
    /// b on standardized features (log-odds at the training means).
    public let intercept: Double
    /// β'ⱼ = βⱼ / scaleⱼ: log-odds per unit of feature j in its own unit.
    public let originalCoefficients: [Double]
    /// b' = b - Σ β'ⱼ·meanⱼ: log-odds when every raw feature is 0.
    public let originalIntercept: Double
    /// How the solver ended; nil for a model rebuilt from an artifact.
    public let fitReport: LogisticRegression.FitReport?

    public init(standardizer: Standardizer, coefficients: [Double], intercept: Double,
                fitReport: LogisticRegression.FitReport? = nil) {
        precondition(coefficients.count == standardizer.featureCount,
                     "model has \(coefficients.count) coefficients but the standardizer has \(standardizer.featureCount) features")
        precondition(intercept.isFinite && coefficients.allSatisfy(\.isFinite), "model parameters must be finite")
        self.standardizer = standardizer
        self.coefficients = coefficients
        self.intercept = intercept
        self.fitReport = fitReport
        var folded = [Double](repeating: 0, count: coefficients.count)
        var offset = intercept
        for j in coefficients.indices {
            folded[j] = coefficients[j] / standardizer.scales[j]
            offset -= folded[j] * standardizer.means[j]
        }
        self.originalCoefficients = folded
        self.originalIntercept = offset
    }

    /// Number of features a row must have.
    public var featureCount: Int { coefficients.count }

    /// The margin (log-odds) for one raw row of `featureCount` values.
    public func decisionFunction(row: [Double]) -> Double {
        row.withUnsafeBufferPointer { decisionFunction(row: $0) }
    }

    /// The margin (log-odds) for one raw row given in place (e.g. from `Matrix.withRow`).
    public func decisionFunction(row: UnsafeBufferPointer<Double>) -> Double {
        precondition(row.count == featureCount, "feature count mismatch: model expects \(featureCount), row has \(row.count)")
        var sum = 0.0
        originalCoefficients.withUnsafeBufferPointer { c in
            for j in 0..<c.count { sum += c[j] * row[j] }
        }
        return sum + originalIntercept
    }

    /// P(y = 1) for one raw row, in [0, 1].
    public func probability(row: [Double]) -> Double {
        Logistic.sigmoid(decisionFunction(row: row))
    }

    /// P(y = 1) for one raw row given in place (e.g. from `Matrix.withRow`), in [0, 1].
    public func probability(row: UnsafeBufferPointer<Double>) -> Double {
        Logistic.sigmoid(decisionFunction(row: row))
    }

    /// Margins for every row of `x` (one `dgemv`). Agrees with the row-by-row function up to
    /// summation order (a few ulps), not bitwise.
    public func decisionFunction(x: Matrix) -> [Double] {
        precondition(x.cols == featureCount, "feature count mismatch: model expects \(featureCount), matrix has \(x.cols)")
        var margins = [Double](repeating: 0, count: x.rows)
        x.gemv(x: originalCoefficients, y: &margins)
        for i in margins.indices { margins[i] += originalIntercept }
        return margins
    }

    /// P(y = 1) for every row of `x`, each in [0, 1].
    public func probabilities(x: Matrix) -> [Double] {
        var out = decisionFunction(x: x)
        for i in out.indices { out[i] = Logistic.sigmoid(out[i]) }
        return out
    }
}
