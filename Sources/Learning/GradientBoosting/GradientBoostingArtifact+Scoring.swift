extension GradientBoostingArtifact {
    /// P(y = 1) of each row (calibrated when the artifact holds a calibration, in [0, 1]), the
    /// rows scored as one batch by the flat predictor; equal to `probability(row:)` of each row.
    public func probabilities(rows: [[Double]]) -> [Double] {
        model.rawScores(rows: rows).map { calibration?.probability(score: $0) ?? Logistic.sigmoid($0) }
    }
}
