extension GradientBoostingArtifact {
    /// Raw scores (log-odds) of rows of `featureCount` values each: the trees scored as one batch
    /// by the flat predictor, plus the initial model's margin of each row when there is one; equal
    /// to `rawScore(row:)` of each row.
    public func rawScores(rows: [[Double]]) -> [Double] {
        var scores = model.rawScores(rows: rows)
        if let initRegression {
            for i in scores.indices { scores[i] = initRegression.decisionFunction(row: rows[i]) + scores[i] }
        }
        return scores
    }

    /// Raw scores of every row of `x` (`x.cols == featureCount`), equal to `rawScore(row:)` of each row.
    public func rawScores(x: Matrix) -> [Double] { model.rawScores(x: x, initModel: initRegression) }

    /// P(y = 1) of each row (calibrated when the artifact holds a calibration, in [0, 1]), the
    /// rows scored as one batch by the flat predictor; equal to `probability(row:)` of each row.
    public func probabilities(rows: [[Double]]) -> [Double] {
        let shared = rawScores(rows: rows).map { GradientBoostingModel.probability(rawScore: $0, calibration: calibration) }
        guard let kindColumns else { return shared }
        return shared.indices.map { kindColumns.probability(shared: shared[$0], row: rows[$0]) }
    }
}

extension GradientBoostingModel {
    /// Raw scores of every row of `x`, plus `initModel`'s margin of each row when given, summed as
    /// `GradientBoostingArtifact.rawScore(row:)` sums them (margin first), so bitwise equal to it.
    public func rawScores(x: Matrix, initModel: LogisticRegressionModel?) -> [Double] {
        var scores = rawScores(x: x)
        if let initModel {
            for i in scores.indices { scores[i] = x.withRow(i) { initModel.decisionFunction(row: $0) } + scores[i] }
        }
        return scores
    }

    /// The served probability of a raw score: through `calibration`, or σ(score) without one; in [0, 1].
    public static func probability(rawScore: Double, calibration: CalibrationMap?) -> Double {
        calibration?.probability(score: rawScore) ?? Logistic.sigmoid(rawScore)
    }
}
