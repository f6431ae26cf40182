extension LogisticRegression {
    /// Checks the configuration and the data before any work; throws the first problem found,
    /// naming its row and column (0-based). Returns the total weight and the weighted label mean.
    static func validate(x: Matrix, y: [Double], weights: [Double]?, configuration c: Configuration) throws -> (totalWeight: Double, labelMean: Double) {
        if !(c.l2.isFinite && c.l2 >= 0) {
            throw LearningError.invalidConfiguration(parameter: "l2", value: "\(c.l2)", expected: "a finite number >= 0")
        }
        if c.maxIterations < 0 {
            throw LearningError.invalidConfiguration(parameter: "maxIterations", value: "\(c.maxIterations)", expected: "an integer >= 0")
        }
        if !(c.tolerance.isFinite && c.tolerance >= 0) {
            throw LearningError.invalidConfiguration(parameter: "tolerance", value: "\(c.tolerance)", expected: "a finite number >= 0")
        }
        if y.count != x.rows {
            throw LearningError.dimensionMismatch(what: "labels y (one per row of x)", expected: x.rows, actual: y.count)
        }
        if let weights, weights.count != x.rows {
            throw LearningError.dimensionMismatch(what: "weights (one per row of x)", expected: x.rows, actual: weights.count)
        }
        if let scale = c.penaltyScale {
            if scale.count != x.cols {
                throw LearningError.dimensionMismatch(what: "penaltyScale (one per column of x)", expected: x.cols, actual: scale.count)
            }
            if let j = scale.firstIndex(where: { !($0.isFinite && $0 >= 0) }) {
                throw LearningError.invalidConfiguration(parameter: "penaltyScale[\(j)]", value: "\(scale[j])", expected: "a finite number >= 0")
            }
        }
        if x.rows == 0 { throw LearningError.emptyData("logistic regression: x has no rows") }
        if x.cols == 0 && !c.fitIntercept {
            throw LearningError.emptyData("logistic regression: x has no columns and fitIntercept is false, nothing to fit")
        }
        for (i, label) in y.enumerated() where label != 0 && label != 1 {
            throw LearningError.invalidLabel(row: i, value: label)
        }
        if let weights {
            for (i, w) in weights.enumerated() where !(w.isFinite && w >= 0) {
                throw LearningError.invalidWeight(row: i, value: w)
            }
        }
        let p = x.cols
        try x.withUnsafeBufferPointer { all in
            for k in all.indices where !all[k].isFinite {
                throw LearningError.nonFiniteFeature(row: k / p, column: k % p, value: all[k])
            }
        }
        var total = 0.0, positive = 0.0
        for i in 0..<x.rows {
            let w = weights?[i] ?? 1
            total += w
            positive += w * y[i]
        }
        if !(total > 0) { throw LearningError.emptyData("logistic regression: all \(x.rows) weights are 0") }
        if positive == 0 || positive == total {
            throw LearningError.emptyData(
                "logistic regression: every row with positive weight has label \(positive == 0 ? 0 : 1); both classes are needed")
        }
        return (total, positive / total)
    }
}
