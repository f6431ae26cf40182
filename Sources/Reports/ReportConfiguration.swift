/// Choices of an evaluation report, all with defaults (docs/decisions/0700–0706).
public struct ReportConfiguration: Sendable, Equatable {
    /// What one bootstrap draw resamples (docs/decisions/0702-bootstrap.md).
    public enum ResampleUnit: String, Sendable {
        /// Whole runners with replacement (cluster bootstrap): honest when a runner's examples
        /// are correlated, which they are.
        case runner
        /// Single examples with replacement (the textbook bootstrap; narrower intervals).
        case example
    }

    /// Seed of every random draw in the report (bootstrap, permutations); written into it.
    public var seed: UInt64 = 700
    /// Bootstrap resamples of the headline metrics, >= 100; 1,000 keeps the Monte-Carlo error
    /// of a 95% percentile bound below ~0.1 of the interval's half-width (record 0702).
    public var resamples: Int = 1_000
    /// Bootstrap resamples per slice, >= 100 (slices are many and each only indicative).
    public var sliceResamples: Int = 200
    public var resampleUnit: ResampleUnit = .runner
    /// Two-sided coverage of the intervals, in (0, 1).
    public var confidence: Double = 0.95
    /// Equal-width bins of the reliability diagram (the ECE always uses `Metrics.calibrationBins`, 10).
    public var reliabilityBins: Int = 10
    /// Equal-width bins over [0, 1] of the histogram of predicted probabilities.
    public var histogramBins: Int = 20
    /// Most points drawn per ROC or PR curve (the curve is thinned, its end points kept).
    public var curvePoints: Int = 200
    /// The policy's target band of predicted completion (docs/decisions/0003-target-band.md).
    public var targetBand: ClosedRange<Double> = 0.65...0.85
    /// Rows used for permutation importance (a seeded sample when the period has more), >= 100.
    public var permutationRows: Int = 20_000
    /// Permutations per feature, averaged, >= 1.
    public var permutationRepeats: Int = 3
    /// Slices with fewer examples are listed but flagged as too small to read, >= 1.
    public var minimumSliceSize: Int = 30

    public init() {}

    func validate() {
        precondition(resamples >= 100 && sliceResamples >= 100, "resamples \(resamples)/\(sliceResamples) < 100")
        precondition(confidence > 0 && confidence < 1, "confidence \(confidence) outside (0, 1)")
        precondition(reliabilityBins >= 2 && histogramBins >= 2 && curvePoints >= 10, "too few bins or curve points")
        precondition(permutationRows >= 100 && permutationRepeats >= 1, "permutation rows/repeats too small")
        precondition(targetBand.lowerBound >= 0 && targetBand.upperBound <= 1, "target band \(targetBand) outside [0, 1]")
    }
}
