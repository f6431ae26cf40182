import RunusCore
import Features
import Learning

/// The penalty on the per-kind offsets of schema v15 (record 0666), chosen on people the fit
/// never saw. The offsets (`MissionFeatures.kindOffsetNames`) refine shared terms kind by kind;
/// each is estimated from one kind's rows only, a few hundred in a small simulation and tens of
/// thousands on the imported runners, so how hard to shrink them toward the shared terms (toward
/// 0) depends on the data. Their λ is `factor` × the model's λ; the factor is the grid value whose
/// fit on the fitting runners has the smallest log loss on the validation runners.
public enum OffsetPenalty {
    /// Factors tried, ascending (1: the offsets are penalised like every other term).
    public static let grid: [Double] = [1, 10, 100, 1000, 10_000]
    /// Share of the training runners held out to choose, and the seed offset of that split
    /// (`PeopleSplit.holdOut`), as `PeopleValidation.Options.validationShare` and its `seed + 1`.
    public static let validationShare = 0.3

    /// Artifact metric holding the factor the model was fitted with.
    public static let metricKey = "offset_penalty"
    /// Artifact metric holding the validation log loss of factor `f` when it was chosen.
    public static func lossKey(_ f: Double) -> String { "offset_penalty_validation_log_loss_\(f)" }

    /// The factor `artifact`'s model was fitted with (1 for models older than schema v15).
    public static func factor(of artifact: ModelArtifact) -> Double {
        artifact.metrics[metricKey].flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 1
    }

    /// λ multiples, one per column of `MissionFeatures.schema`: `factor` for the offsets, else 1.
    public static func scale(_ factor: Double) -> [Double] {
        MissionFeatures.schema.names.map { MissionFeatures.kindOffsetNames.contains($0) ? factor : 1 }
    }

    /// What the choice saw and chose.
    public struct Choice: Sendable {
        /// The factor chosen, one of the grid's.
        public let factor: Double
        /// Validation log loss (nats per row) of each factor tried, ascending.
        public let validationLogLoss: [(factor: Double, logLoss: Double)]
        /// The chosen fit's probabilities on the validation rows, in their order.
        public let validationProbabilities: [Double]
    }

    /// Fits `LogisticRegression` with λ = `l2` and each factor of `grid` (non-empty) on `fitting`,
    /// scores `validation` (other runners), and returns the factor with the smallest log loss; on
    /// an exact tie the larger factor (the simpler model).
    public static func choose(fitting: [LabelledExample], validation: [LabelledExample], l2: Double,
                              grid: [Double] = grid) throws -> Choice {
        guard !grid.isEmpty else { throw TrainingError.emptyGrid }
        let cols = MissionFeatures.schema.count
        let x = Matrix(rowArrays: fitting.map(\.features), cols: cols), y = fitting.map(\.label)
        let labels = validation.map(\.label)
        var best = (factor: grid[0], loss: Double.infinity, p: [Double]())
        var losses: [(factor: Double, logLoss: Double)] = []
        for factor in grid.sorted() {
            let model = try LogisticRegression.fit(x: x, y: y, configuration: .init(l2: l2, penaltyScale: scale(factor)))
            let p = validation.map { model.probability(row: $0.features) }
            let loss = try Metrics.logLoss(labels: labels, probabilities: p)
            losses.append((factor, loss))
            if loss <= best.loss { best = (factor, loss, p) }
        }
        return Choice(factor: best.factor, validationLogLoss: losses, validationProbabilities: best.p)
    }

    /// `choose` on a group split of `examples` (the training people): the first 30 % of runners by
    /// `PeopleSplit.hash` with `seed + 1` validate. Nil with fewer than 2 runners (nothing to hold out).
    public static func choose(_ examples: [LabelledExample], l2: Double, seed: Int, grid: [Double] = grid) throws -> Choice? {
        guard Set(examples.map(\.userID)).count >= 2 else { return nil }
        let split = try PeopleSplit.holdOut(examples, share: validationShare, seed: seed &+ 1)
        return try choose(fitting: split.train, validation: split.heldOut, l2: l2, grid: grid)
    }
}
