import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// Judges race-time predictions on real histories: every new personal best at a standard
/// distance (a run within ±3 % of 5 km, 10 km, half or full marathon, scaled to the exact
/// distance with Riegel's exponent, faster than every earlier one of that runner) is predicted
/// from the runner's earlier runs only, by our predictor and by the Riegel baseline.
public struct RaceTimeEvaluation: Sendable {
    public struct Case: Sendable {
        public let runner: String
        public let distance: Meters
        public let actual: Seconds
        public let predicted: Seconds
        public let riegel: Seconds
    }

    /// Relative distance tolerance for a run to count at a standard distance.
    public static let distanceTolerance = 0.03

    public let cases: [Case]

    /// `runs` per runner, any order.
    public init(runs: [String: [Effort]], predictor: RaceTimePredictor = RaceTimePredictor()) {
        var cases: [Case] = []
        for runner in runs.keys.sorted() {
            let sorted = runs[runner]!.sorted { $0.time < $1.time }
            var best: [Meters: Seconds] = [:]
            for (i, run) in sorted.enumerated() {
                for (_, d) in RaceTimePredictor.raceDistances where abs(run.distance - d) / d < Self.distanceTolerance {
                    let scaled = run.duration * pow(d / run.distance, 1.06)
                    if let previous = best[d], scaled < previous,
                       let ours = predictor.predict(distance: d, at: run.time, from: Array(sorted[..<i])),
                       let baseline = predictor.riegel(distance: d, at: run.time, from: Array(sorted[..<i])) {
                        cases.append(Case(runner: runner, distance: d, actual: scaled, predicted: ours, riegel: baseline))
                    }
                    best[d] = min(best[d] ?? .infinity, scaled)
                }
            }
        }
        self.cases = cases
    }

    /// Mean absolute percentage error (a fraction) of ours and of the baseline, over `cases`
    /// at `distance` (all distances when nil).
    public func meanAbsolutePercentageError(distance: Meters? = nil) -> (ours: Double, riegel: Double, count: Int) {
        let selected = cases.filter { distance == nil || $0.distance == distance }
        guard !selected.isEmpty else { return (0, 0, 0) }
        let n = Double(selected.count)
        return (selected.reduce(0) { $0 + abs($1.predicted - $1.actual) / $1.actual } / n,
                selected.reduce(0) { $0 + abs($1.riegel - $1.actual) / $1.actual } / n,
                selected.count)
    }
}
