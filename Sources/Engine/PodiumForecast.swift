#if canImport(Glibc)
import Glibc
#endif

/// The chance of each runner of a race to finish in the first k places (record 0652), from
/// each runner's forecast time and finish probability, the runners independent of each other.
///
/// Runner i's log finish time is normal with mean `logTime` and standard deviation `sigma`, and
/// they finish at all with probability `finish` (independent of their time). Runner i is in the
/// first k places when they finish and fewer than k of the others finish ahead of them:
///
///     P_i(k) = finish_i · ∫ φ_i(u) · P(fewer than k others finish before e^u) du,
///
/// where each other runner j finishes before e^u with probability finish_j · Φ((u − μ_j) / σ_j),
/// so the number ahead is a sum of independent Bernoulli variables (Poisson-binomial). The
/// integral is a sum over cells of a grid in log time that spans every runner's ±8σ with a step
/// of a twelfth of the smallest σ: each cell carries runner i's exact probability mass, and the
/// others are taken at its midpoint. For each cell the count among the others comes from a
/// prefix and a suffix convolution over the field, truncated at k − 1, so a field of n runners
/// costs O(cells · n · k²), not O(cells · n²): a 1,000-runner field is a few million steps.
public enum PodiumForecast {
    /// One runner's forecast: log finish time (of seconds, any fixed unit), its standard
    /// deviation (> 0), and the probability of finishing at all (0 … 1).
    public struct Runner: Sendable, Equatable {
        public let logTime: Double
        public let sigma: Double
        public let finish: Double

        public init(logTime: Double, sigma: Double, finish: Double) {
            self.logTime = logTime; self.sigma = sigma; self.finish = finish
        }

        /// Whether the figures can be a forecast: finite, σ > 0, finish within 0 … 1.
        var isValid: Bool {
            logTime.isFinite && sigma.isFinite && sigma > 0 && finish.isFinite && (0...1).contains(finish)
        }
    }

    /// Most places forecast (the podium's three).
    public static let maxPlaces = 3
    /// Half-width of the grid around each runner's mean, in their σ.
    static let gridHalfWidth = 8.0
    /// Cells per smallest σ.
    static let cellsPerSigma = 12.0
    /// Most cells (a field whose σ spread would need more gets a coarser step).
    static let maxCells = 4000

    /// `result[i][k − 1]` = probability that runner i finishes in the first k places, for k in
    /// 1 … `places` (at most `maxPlaces`). Nil for an empty field, `places` outside 1 …
    /// `maxPlaces`, a runner whose figures are not valid, or log times too far apart to span.
    public static func placeProbabilities(_ field: [Runner], places: Int) -> [[Double]]? {
        guard !field.isEmpty, (1...maxPlaces).contains(places), field.allSatisfy(\.isValid) else { return nil }
        let n = field.count
        let lo = field.map { $0.logTime - gridHalfWidth * $0.sigma }.min() ?? 0
        let hi = field.map { $0.logTime + gridHalfWidth * $0.sigma }.max() ?? 0
        let smallest = field.map(\.sigma).min() ?? 1
        // Clamped while a Double: a span of the finite figures may still overflow.
        let wanted = ((hi - lo) / (smallest / cellsPerSigma)).rounded(.up)
        guard (hi - lo).isFinite, !wanted.isNaN else { return nil }
        let cells = Int(min(Double(maxCells), max(1, wanted)))
        let step = (hi - lo) / Double(cells)
        var result = Array(repeating: Array(repeating: 0.0, count: places), count: n)
        // Φ of each runner at the cell's lower edge, carried from one cell to the next.
        var lowerCDF = field.map { normalCDF((lo - $0.logTime) / $0.sigma) }
        var ahead = [Double](repeating: 0, count: n)
        // prefix[j · places + c]: probability that exactly c of runners 0 ..< j are ahead
        // (c < places); suffix[j · places + c]: the same for runners j ..< n.
        var prefix = [Double](repeating: 0, count: (n + 1) * places)
        var suffix = prefix
        prefix[0] = 1
        suffix[n * places] = 1
        for cell in 0..<cells {
            let lower = lo + Double(cell) * step
            let mid = lower + step / 2, upper = lower + step
            for j in 0..<n { ahead[j] = field[j].finish * normalCDF((mid - field[j].logTime) / field[j].sigma) }
            for j in 0..<n { add(ahead[j], from: j * places, to: (j + 1) * places, places: places, in: &prefix) }
            for j in stride(from: n - 1, through: 0, by: -1) { add(ahead[j], from: (j + 1) * places, to: j * places, places: places, in: &suffix) }
            for i in 0..<n {
                let upperCDF = normalCDF((upper - field[i].logTime) / field[i].sigma)
                let mass = upperCDF - lowerCDF[i]
                lowerCDF[i] = upperCDF
                guard mass > 0 else { continue }
                // Fewer than k of the others ahead, for each k: the convolution's running sum.
                let before = i * places, after = (i + 1) * places
                var below = 0.0
                for c in 0..<places {
                    for a in 0...c { below += prefix[before + a] * suffix[after + c - a] }
                    result[i][c] += mass * below
                }
            }
        }
        // The grid's ±8σ leaves out under 1e-15 of each runner's mass: scale by what it held.
        for i in 0..<n {
            let held = normalCDF((hi - field[i].logTime) / field[i].sigma) - normalCDF((lo - field[i].logTime) / field[i].sigma)
            for c in 0..<places { result[i][c] = min(1, max(0, field[i].finish * result[i][c] / max(held, .leastNormalMagnitude))) }
        }
        return result
    }

    /// One more runner, ahead with probability `q`: the truncated count distribution at
    /// `counts[source ..< source + places]` with that runner added, written at `target`.
    private static func add(_ q: Double, from source: Int, to target: Int, places: Int, in counts: inout [Double]) {
        for c in stride(from: places - 1, through: 1, by: -1) {
            counts[target + c] = counts[source + c] * (1 - q) + counts[source + c - 1] * q
        }
        counts[target] = counts[source] * (1 - q)
    }

    /// Φ, the standard normal distribution function.
    static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }
}
