/// Per-feature centring and scaling: `z = (x - mean) / scale`.
///
/// `scale` is the (weighted) population standard deviation of the column over the rows it was
/// fitted on, or exactly 1 for a column that is constant there (so a constant column maps to 0
/// instead of dividing by zero). Fit it on training rows only, then apply the same values to
/// validation, test and serving rows. See docs/decisions/0302-standardizer.md.
public struct Standardizer: Sendable, Equatable {
    /// Per-column mean, in the feature's own unit.
    public let means: [Double]
    /// Per-column scale, in the feature's own unit, finite and > 0.
    public let scales: [Double]

    public var featureCount: Int { means.count }

    /// A standardizer from known values (e.g. read from a model artifact).
    public init(means: [Double], scales: [Double]) {
        precondition(means.count == scales.count, "Standardizer: \(means.count) means but \(scales.count) scales")
        for (j, s) in scales.enumerated() {
            precondition(s.isFinite && s > 0, "Standardizer: scale \(s) of column \(j) must be finite and > 0")
        }
        for (j, m) in means.enumerated() { precondition(m.isFinite, "Standardizer: mean \(m) of column \(j) is not finite") }
        self.means = means
        self.scales = scales
    }

    /// The identity transform on `count` features (means 0, scales 1).
    public static func identity(featureCount count: Int) -> Standardizer {
        Standardizer(means: [Double](repeating: 0, count: count), scales: [Double](repeating: 1, count: count))
    }

    /// Fits means and population standard deviations on the rows of `x` listed in `rows` (all
    /// rows when nil), with optional observation `weights` (one per row of `x`, >= 0), so that a
    /// weight of k is the same as k copies of the row. Two passes (mean, then squared deviations)
    /// for accuracy. Values must be finite (a precondition: `fit` callers validate first).
    public static func fit(_ x: Matrix, rows: [Int]? = nil, weights: [Double]? = nil) -> Standardizer {
        if let weights { precondition(weights.count == x.rows, "Standardizer.fit: \(weights.count) weights for \(x.rows) rows") }
        let p = x.cols
        var sumW = 0.0
        var means = [Double](repeating: 0, count: p)
        var lows = [Double](repeating: .infinity, count: p)
        var highs = [Double](repeating: -.infinity, count: p)
        func forEachRow(_ body: (Int, Double, UnsafeBufferPointer<Double>) -> Void) {
            x.withUnsafeBufferPointer { all in
                func visit(_ i: Int) {
                    let w = weights?[i] ?? 1
                    if w == 0 { return }
                    body(i, w, UnsafeBufferPointer(rebasing: all[(i * p)..<((i + 1) * p)]))
                }
                if let rows { for i in rows { visit(i) } } else { for i in 0..<x.rows { visit(i) } }
            }
        }
        forEachRow { _, w, row in
            sumW += w
            for j in 0..<p {
                means[j] += w * row[j]
                lows[j] = min(lows[j], row[j])
                highs[j] = max(highs[j], row[j])
            }
        }
        precondition(sumW > 0, "Standardizer.fit: no rows with positive weight")
        for j in 0..<p { means[j] /= sumW }
        var squares = [Double](repeating: 0, count: p)
        forEachRow { _, w, row in
            for j in 0..<p {
                let d = row[j] - means[j]
                squares[j] += w * d * d
            }
        }
        var scales = [Double](repeating: 1, count: p)
        for j in 0..<p {
            // Constant column (exactly, on the rows with positive weight): scale 1, not a tiny
            // rounding residue of the two-pass variance.
            if highs[j] == lows[j] { means[j] = lows[j]; continue }
            let sd = (squares[j] / sumW).squareRoot()
            scales[j] = sd > 0 && sd.isFinite ? sd : 1
        }
        return Standardizer(means: means, scales: scales)
    }

    /// Standardizes every row of `x` in place.
    public func apply(to x: inout Matrix) {
        precondition(x.cols == featureCount, "Standardizer expects \(featureCount) columns, matrix has \(x.cols)")
        let p = featureCount, n = x.rows
        means.withUnsafeBufferPointer { m in
            scales.withUnsafeBufferPointer { s in
                x.withUnsafeMutableBufferPointer { all in
                    for i in 0..<n {
                        let base = i * p
                        for j in 0..<p { all[base + j] = (all[base + j] - m[j]) / s[j] }
                    }
                }
            }
        }
    }

    /// Standardizes one row in place.
    public func apply(to row: inout [Double]) {
        precondition(row.count == featureCount, "Standardizer expects \(featureCount) values, row has \(row.count)")
        for j in 0..<featureCount { row[j] = (row[j] - means[j]) / scales[j] }
    }
}
