import RunusCore
@testable import Learning

#if canImport(Glibc)
import Glibc
#endif

/// Synthetic logistic data with known parameters on the original feature scale.
struct SyntheticLogistic {
    var x: Matrix
    var y: [Double]
    /// True P(y = 1) per row.
    var truth: [Double]

    /// Features j ~ Normal(means[j], sds[j]); y ~ Bernoulli(σ(intercept + Σ βⱼ xⱼ)).
    static func make(rows n: Int, means: [Double], sds: [Double], beta: [Double], intercept: Double, seed: UInt64) -> SyntheticLogistic {
        var rng = SeededGenerator(seed: seed)
        let p = beta.count
        var x = Matrix(rows: n, cols: p)
        var y = [Double](repeating: 0, count: n)
        var truth = y
        for i in 0..<n {
            var margin = intercept
            for j in 0..<p {
                let v = rng.gaussian(mean: means[j], sd: sds[j])
                x[i, j] = v
                margin += beta[j] * v
            }
            truth[i] = 1 / (1 + exp(-margin))
            y[i] = rng.bernoulli(truth[i]) ? 1 : 0
        }
        return SyntheticLogistic(x: x, y: y, truth: truth)
    }
}

/// Slow, obviously-correct reference implementations used as oracles.
enum Naive {
    /// Weighted mean and population sd per column, scale 1 for constant columns.
    static func standardize(_ x: Matrix, weights: [Double]?) -> (means: [Double], scales: [Double]) {
        var means: [Double] = [], scales: [Double] = []
        for j in 0..<x.cols {
            var sw = 0.0, s = 0.0
            for i in 0..<x.rows { let w = weights?[i] ?? 1; sw += w; s += w * x[i, j] }
            let mean = s / sw
            var ss = 0.0
            var constant = true
            var first: Double? = nil
            for i in 0..<x.rows {
                let w = weights?[i] ?? 1
                if w == 0 { continue }
                ss += w * (x[i, j] - mean) * (x[i, j] - mean)
                if let f = first { if f != x[i, j] { constant = false } } else { first = x[i, j] }
            }
            means.append(constant ? first! : mean)
            scales.append(constant ? 1 : (ss / sw).squareRoot())
        }
        return (means, scales)
    }

    static func sigmoid(_ z: Double) -> Double { 1 / (1 + exp(-z)) }

    /// Gradient of Σ wᵢ logloss + (λ/2)‖β‖² w.r.t. (β, b) on standardized features, by plain loops.
    static func gradient(x: Matrix, y: [Double], weights: [Double]?, means: [Double], scales: [Double],
                         beta: [Double], intercept: Double, lambda: Double, withIntercept: Bool) -> [Double] {
        let p = x.cols
        var g = [Double](repeating: 0, count: p + (withIntercept ? 1 : 0))
        for i in 0..<x.rows {
            let w = weights?[i] ?? 1
            var margin = intercept
            for j in 0..<p { margin += beta[j] * (x[i, j] - means[j]) / scales[j] }
            let r = w * (sigmoid(margin) - y[i])
            for j in 0..<p { g[j] += r * (x[i, j] - means[j]) / scales[j] }
            if withIntercept { g[p] += r }
        }
        for j in 0..<p { g[j] += lambda * beta[j] }
        return g
    }

    /// Solves A x = b by Gaussian elimination with partial pivoting.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double] {
        var a = a, b = b
        let n = b.count
        for k in 0..<n {
            let pivot = (k..<n).max { abs(a[$0][k]) < abs(a[$1][k]) }!
            a.swapAt(k, pivot); b.swapAt(k, pivot)
            for i in (k + 1)..<max(n, k + 1) {
                let f = a[i][k] / a[k][k]
                for j in k..<n { a[i][j] -= f * a[k][j] }
                b[i] -= f * b[k]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = b[i]
            for j in (i + 1)..<n { s -= a[i][j] * x[j] }
            x[i] = s / a[i][i]
        }
        return x
    }

    /// Undamped Newton on the same objective, everything in plain loops, from zero, for a fixed
    /// number of steps; returns (β..., b) on the standardized scale.
    static func newtonFit(x: Matrix, y: [Double], lambda: Double, steps: Int) -> [Double] {
        let (means, scales) = standardize(x, weights: nil)
        let p = x.cols, d = p + 1
        var theta = [Double](repeating: 0, count: d)
        for _ in 0..<steps {
            let g = gradient(x: x, y: y, weights: nil, means: means, scales: scales, beta: Array(theta[0..<p]),
                             intercept: theta[p], lambda: lambda, withIntercept: true)
            var h = [[Double]](repeating: [Double](repeating: 0, count: d), count: d)
            for i in 0..<x.rows {
                var z = (0..<p).map { (x[i, $0] - means[$0]) / scales[$0] }
                z.append(1)
                var margin = 0.0
                for j in 0..<d { margin += theta[j] * z[j] }
                let s = sigmoid(margin)
                for j in 0..<d { for k in 0..<d { h[j][k] += s * (1 - s) * z[j] * z[k] } }
            }
            for j in 0..<p { h[j][j] += lambda }
            let step = solve(h, g)
            for j in 0..<d { theta[j] -= step[j] }
        }
        return theta
    }
}

/// A matrix of standard normal draws.
func randomMatrix(rows: Int, cols: Int, seed: UInt64) -> Matrix {
    var rng = SeededGenerator(seed: seed)
    var m = Matrix(rows: rows, cols: cols)
    for i in 0..<rows { for j in 0..<cols { m[i, j] = rng.gaussian() } }
    return m
}

func randomVector(_ n: Int, seed: UInt64) -> [Double] {
    var rng = SeededGenerator(seed: seed)
    return (0..<n).map { _ in rng.gaussian() }
}
