import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// A calibration that can differ by mission kind, applied after the model's shared map
/// (docs/decisions/0631). For a row of kind k with shared probability q:
///
///     p = σ(a_k · logit(q) + b_k)
///
/// where (a_k, b_k) minimise the kind's log loss plus the ridge penalty
/// (λ/2)·((a_k − 1)² + b_k²): λ counts as that many pseudo-examples pulling the kind's map
/// toward the identity, i.e. toward the shared map. A kind with few examples keeps (almost)
/// the shared map; a kind with none has no entry and keeps it exactly. JSON shape:
///
///     "kind_calibration": { "shrinkage": λ, "kinds": { "hills": { "slope": a, "intercept": b, "rows": n }, ... } }
///
/// Kinds are named by their wire name; the scorer finds a row's kind by its one-hot column
/// `kind_<name>` in the artifact's feature names, so any set of kinds works.
public struct KindCalibration: Sendable, Equatable {
    /// One kind's map on top of the shared one.
    public struct KindMap: Sendable, Equatable {
        /// a_k (per logit unit) and b_k (log-odds); (1, 0) is the shared map.
        public let slope: Double, intercept: Double
        /// Examples the map was fitted on, >= 1.
        public let rows: Int

        public init(slope: Double, intercept: Double, rows: Int) {
            self.slope = slope; self.intercept = intercept; self.rows = rows
        }

        /// The kind's probability for a shared probability `q` in [0, 1].
        public func probability(shared q: Double) -> Double {
            Logistic.sigmoid(slope * KindCalibration.logit(q) + intercept)
        }
    }

    /// λ, the pseudo-examples of the pull toward the shared map, > 0 and finite.
    public let shrinkage: Double
    /// Wire name of the kind → its map; kinds absent keep the shared map.
    public let maps: [String: KindMap]

    public init(shrinkage: Double, maps: [String: KindMap]) {
        self.shrinkage = shrinkage; self.maps = maps
    }

    /// Shared probabilities are clipped to [ε, 1 − ε] before the logit (an isotonic map gives
    /// exact 0 and 1), ε = 1e-6: at most 13.8 log-odds either way.
    public static let clip = 1e-6

    static func logit(_ q: Double) -> Double {
        let c = min(max(q.isFinite ? q : 0.5, clip), 1 - clip)
        return log(c / (1 - c))
    }

    /// The probability of a row of kind `kind` (wire name) whose shared probability is `q`.
    public func probability(shared q: Double, kind: String) -> Double {
        maps[kind]?.probability(shared: q) ?? q
    }

    // MARK: Fitting

    /// Newton steps at most; the 2-parameter penalised problem converges in a handful.
    static let maxIterations = 50
    /// Stop when both gradient components are below this, per pseudo-example (dimensionless).
    static let tolerance = 1e-10

    /// Fits every kind present in `kinds` (one wire name per row) on the shared probabilities
    /// `shared` (in [0, 1]) and `labels` (0 or 1) with shrinkage `lambda` (> 0, finite).
    public static func fit(shared: [Double], labels: [Double], kinds: [String], shrinkage lambda: Double) throws -> KindCalibration {
        try check(shared: shared, labels: labels, kinds: kinds)
        guard lambda > 0, lambda.isFinite else {
            throw LearningError.invalidMetricInput(metric: "kind calibration shrinkage", row: 0, value: lambda, expected: "a finite λ > 0")
        }
        var rowsByKind: [String: [Int]] = [:]
        for (i, k) in kinds.enumerated() { rowsByKind[k, default: []].append(i) }
        var maps: [String: KindMap] = [:]
        for (kind, rows) in rowsByKind {
            let (a, b) = fitOne(x: rows.map { logit(shared[$0]) }, y: rows.map { labels[$0] }, lambda: lambda)
            maps[kind] = KindMap(slope: a == 0 ? 0 : a, intercept: b == 0 ? 0 : b, rows: rows.count)
        }
        return KindCalibration(shrinkage: lambda, maps: maps)
    }

    /// Penalised Newton on (a, b) from (1, 0): minimises Σ logloss(σ(a·x + b), y) + λ/2·((a−1)² + b²).
    static func fitOne(x: [Double], y: [Double], lambda: Double) -> (Double, Double) {
        var a = 1.0, b = 0.0
        for _ in 0..<maxIterations {
            var ga = lambda * (a - 1), gb = lambda * b, haa = lambda, hab = 0.0, hbb = lambda
            for i in x.indices {
                let p = Logistic.sigmoid(a * x[i] + b), r = p - y[i], w = p * (1 - p)
                ga += r * x[i]; gb += r
                haa += w * x[i] * x[i]; hab += w * x[i]; hbb += w
            }
            let scale = Double(x.count) + lambda
            if abs(ga) / scale < tolerance && abs(gb) / scale < tolerance { break }
            let det = haa * hbb - hab * hab
            guard det > 0, det.isFinite else { break }
            a -= (hbb * ga - hab * gb) / det
            b -= (haa * gb - hab * ga) / det
        }
        return (a, b)
    }

    /// The shrinkages tried, most shrunk first; `.infinity` means no per-kind map (the shared
    /// map alone). Record 0631.
    public static let shrinkageGrid: [Double] = [.infinity, 1000, 300, 100, 30, 10]

    /// What `choose` found: the chosen λ (∞ = shared map only) and each candidate's mean
    /// held-out log loss (nats).
    public struct Choice: Sendable {
        public let shrinkage: Double
        public let losses: [(shrinkage: Double, logLoss: Double)]
        /// nil when the shared map won.
        public let calibration: KindCalibration?
    }

    /// Chooses λ by cross-fitting over groups of people: for each group g (`groups[i]` is row i's
    /// group, e.g. its runner's index), every candidate is fitted on the other groups' rows and
    /// scored on g's; the lowest summed log loss wins (ties: the more shrunk). Then the winner is
    /// fitted on all rows. With fewer than 2 groups nothing is held out: the shared map is kept.
    public static func choose(shared: [Double], labels: [Double], kinds: [String], groups: [Int],
                              grid: [Double] = shrinkageGrid) throws -> Choice {
        try check(shared: shared, labels: labels, kinds: kinds)
        guard groups.count == labels.count else {
            throw LearningError.dimensionMismatch(what: "kind calibration: group count (one per label)", expected: labels.count, actual: groups.count)
        }
        let distinct = Set(groups).sorted()
        guard distinct.count >= 2, !grid.isEmpty else { return Choice(shrinkage: .infinity, losses: [], calibration: nil) }
        var losses: [(shrinkage: Double, logLoss: Double)] = []
        for lambda in grid {
            var total = 0.0
            for g in distinct {
                let fitRows = groups.indices.filter { groups[$0] != g }, scoreRows = groups.indices.filter { groups[$0] == g }
                var p = scoreRows.map { shared[$0] }
                if lambda.isFinite {
                    let c = try fit(shared: fitRows.map { shared[$0] }, labels: fitRows.map { labels[$0] },
                                    kinds: fitRows.map { kinds[$0] }, shrinkage: lambda)
                    p = scoreRows.map { c.probability(shared: shared[$0], kind: kinds[$0]) }
                }
                total += try Metrics.logLoss(labels: scoreRows.map { labels[$0] }, probabilities: p) * Double(scoreRows.count)
            }
            losses.append((lambda, total / Double(labels.count)))
        }
        var best = losses[0]
        for candidate in losses.dropFirst() where candidate.logLoss < best.logLoss { best = candidate }
        let calibration = best.shrinkage.isFinite ? try fit(shared: shared, labels: labels, kinds: kinds, shrinkage: best.shrinkage) : nil
        return Choice(shrinkage: best.shrinkage, losses: losses, calibration: calibration)
    }

    static func check(shared: [Double], labels: [Double], kinds: [String]) throws {
        if shared.count != labels.count {
            throw LearningError.dimensionMismatch(what: "kind calibration: probability count (one per label)", expected: labels.count, actual: shared.count)
        }
        if kinds.count != labels.count {
            throw LearningError.dimensionMismatch(what: "kind calibration: kind count (one per label)", expected: labels.count, actual: kinds.count)
        }
        if labels.isEmpty { throw LearningError.emptyData("kind calibration: no examples") }
        for (i, y) in labels.enumerated() where y != 0 && y != 1 { throw LearningError.invalidLabel(row: i, value: y) }
        for (i, q) in shared.enumerated() where !(q >= 0 && q <= 1) {
            throw LearningError.invalidMetricInput(metric: "kind calibration", row: i, value: q, expected: "a probability in [0, 1]")
        }
    }
}
