/// A trained (or imported) gradient-boosted tree ensemble for binary classification:
/// P(y = 1 | x) = σ(Σ_trees value), the initial score folded into the first tree as LightGBM
/// does. Immutable; scoring goes through the flat `TreePredictor`.
public struct GradientBoostingModel: Sendable {
    /// The trees in boosting order.
    public let trees: [DecisionTree]
    /// Number of features a row has (the training table's width), >= 0.
    public let featureCount: Int
    /// Bin boundaries used in training (empty for imported models).
    public let binMappers: [BinMapper]
    /// How training went (nil for imported models).
    public let report: GradientBoosting.FitReport?
    /// The flat scoring structure.
    public let predictor: TreePredictor

    public init(trees: [DecisionTree], featureCount: Int, binMappers: [BinMapper] = [], report: GradientBoosting.FitReport? = nil) {
        precondition(featureCount >= 0, "featureCount \(featureCount) < 0")
        self.trees = trees
        self.featureCount = featureCount
        self.binMappers = binMappers
        self.report = report
        self.predictor = TreePredictor(trees: trees)
        precondition(predictor.requiredFeatures <= featureCount,
                     "trees use feature \(predictor.requiredFeatures - 1), the model has \(featureCount)")
    }

    /// Raw score (log-odds) of one row of `featureCount` values.
    public func rawScore(row: [Double]) -> Double {
        precondition(row.count == featureCount, "row has \(row.count) values, the model expects \(featureCount)")
        return row.withUnsafeBufferPointer { r in Self.withBase(r) { predictor.rawScore(row: $0) } }
    }

    /// P(y = 1) of one row, in [0, 1].
    public func probability(row: [Double]) -> Double { Logistic.sigmoid(rawScore(row: row)) }

    /// Raw scores (log-odds) of rows of `featureCount` values each, scored as one batch (tree by
    /// tree through all rows, the daemon's ~50 candidates per request); bitwise equal to
    /// `rawScore(row:)` of each row.
    public func rawScores(rows: [[Double]]) -> [Double] {
        let n = rows.count, p = featureCount
        var out = [Double](repeating: 0, count: n)
        if n == 0 { return out }
        var block = [Double]()
        block.reserveCapacity(n * p)
        for row in rows {
            precondition(row.count == p, "row has \(row.count) values, the model expects \(p)")
            block.append(contentsOf: row)
        }
        block.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in
                Self.withBase(b) { predictor.rawScores(rows: $0, count: n, stride: p, into: o.baseAddress!) }
            }
        }
        return out
    }

    /// `body` with the buffer's start, or with a dummy pointer for an empty buffer (a model of
    /// zero features has only one-leaf trees, which read no value).
    static func withBase<R>(_ buffer: UnsafeBufferPointer<Double>, _ body: (UnsafePointer<Double>) -> R) -> R {
        if let base = buffer.baseAddress { return body(base) }
        return withUnsafePointer(to: 0.0) { body($0) }
    }

    /// Raw scores of every row of `x` (`x.cols == featureCount`).
    public func rawScores(x: Matrix) -> [Double] {
        precondition(x.cols == featureCount, "matrix has \(x.cols) columns, the model expects \(featureCount)")
        var out = [Double](repeating: 0, count: x.rows)
        if x.rows == 0 { return out }
        x.withUnsafeBufferPointer { xs in
            out.withUnsafeMutableBufferPointer { o in
                Self.withBase(xs) { predictor.rawScores(rows: $0, count: x.rows, stride: x.cols, into: o.baseAddress!) }
            }
        }
        return out
    }

    /// P(y = 1) of every row of `x`, in [0, 1].
    public func probabilities(x: Matrix) -> [Double] { rawScores(x: x).map(Logistic.sigmoid) }

    /// P(y = 1) of every row of `table`, scored in blocks of `blockRows` rows copied to Double.
    public func probabilities<T: FeatureTable>(_ table: T) -> [Double] {
        precondition(table.featureCount == featureCount, "table has \(table.featureCount) features, the model expects \(featureCount)")
        let n = table.rowCount, p = featureCount
        var out = [Double](repeating: 0, count: n)
        var block = [Double](repeating: 0, count: Self.blockRows * max(p, 1))
        var start = 0
        while start < n {
            let m = min(Self.blockRows, n - start)
            for i in 0..<m { for j in 0..<p { block[i * p + j] = table.value(row: start + i, feature: j) } }
            block.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { o in
                    predictor.rawScores(rows: b.baseAddress!, count: m, stride: max(p, 1), into: o.baseAddress! + start)
                }
            }
            start += m
        }
        return out.map(Logistic.sigmoid)
    }

    static let blockRows = 1_024
}
