import Testing
import RunusCore
#if canImport(Glibc)
import Glibc
#endif
@testable import Learning

/// The solver stops when max|∇f| <= tolerance·Σw (default 1e-8 per unit weight); the naive
/// gradient must then be below the same bound, plus 1e-12 for its own summation-order rounding.
private let stationarityTolerance = 1e-8 + 1e-12
/// Two Newton solutions of the same strictly convex problem, both converged far below 1e-8
/// per unit weight, agree to ~1e-9 in the parameters (condition number of H is O(10)).
private let oracleAgreement = 1e-7
/// n = 20000, unit-variance features: the standard error of each coefficient is about
/// 1/√(n·0.2) ≈ 0.016, so 0.08 is five standard errors.
private let recoveryTolerance = 0.08
/// Weighted and duplicated fits solve the same problem; both converge to 1e-8 per unit weight.
private let duplicationAgreement = 1e-7
/// One block pass against naive loops over ~8,000 rows: the sums run in another order (blocks,
/// BLAS kernels) and z = (x − mean)·(1/scale) is within 1 ulp of the division. The loss (all
/// terms positive) agrees to 1e-12 relative; gradient and Hessian entries, sums of terms of both
/// signs, to 1e-9 and 1e-10 relative to (1 + |value|).
private let passLossAgreement = 1e-12
private let passGradientAgreement = 1e-9
private let passHessianAgreement = 1e-10

private let threeFeatures = (means: [5.0, -200.0, 0.0], sds: [2.0, 50.0, 1.0], beta: [0.8, -0.02, 1.5], intercept: -0.3)

private func data(rows: Int, seed: UInt64) -> SyntheticLogistic {
    SyntheticLogistic.make(rows: rows, means: threeFeatures.means, sds: threeFeatures.sds, beta: threeFeatures.beta,
                           intercept: threeFeatures.intercept + 0.8 * -5 + 0.02 * -200, seed: seed)
}

@Suite("Logistic regression")
struct LogisticRegressionTests {
    @Test("the fit zeroes the gradient of the documented objective (naive loop)", arguments: [0.0, 1.0, 30.0])
    func stationary(lambda: Double) throws {
        let d = data(rows: 500, seed: 7)
        let weights = (0..<500).map { Double(($0 * 7) % 3) + 0.5 }
        let model = try LogisticRegression.fit(x: d.x, y: d.y, weights: weights, configuration: .init(l2: lambda))
        let report = try #require(model.fitReport)
        #expect(report.converged && report.iterations <= 10)
        let (means, scales) = Naive.standardize(d.x, weights: weights)
        let g = Naive.gradient(x: d.x, y: d.y, weights: weights, means: means, scales: scales, beta: model.coefficients,
                               intercept: model.intercept, lambda: lambda, withIntercept: true)
        let totalWeight = weights.reduce(0, +)
        for (j, gj) in g.enumerated() { #expect(abs(gj) / totalWeight <= stationarityTolerance, "coordinate \(j): \(gj)") }
        // The reported objective is the documented one, recomputed naively (sum of 500 terms:
        // rounding-order differences stay below 1e-12 relative).
        var naive = 0.0
        for i in 0..<500 {
            var z = model.intercept
            for j in 0..<3 { z += model.coefficients[j] * (d.x[i, j] - means[j]) / scales[j] }
            let p = Naive.sigmoid(z)
            naive -= weights[i] * (d.y[i] == 1 ? log(p) : log(1 - p))
        }
        naive += 0.5 * lambda * model.coefficients.reduce(0) { $0 + $1 * $1 }
        #expect(abs(report.objective - naive) <= 1e-12 * naive)
        #expect(report.rows == 500 && report.totalWeight == totalWeight)
    }

    @Test("the defaults are scikit-learn's C = 1 with an unpenalised intercept")
    func defaults() {
        let c = LogisticRegression.Configuration()
        #expect(c.l2 == 1 && c.maxIterations == 50 && c.tolerance == 1e-8 && c.fitIntercept)
    }

    @Test("step halving rescues a start where the full Newton step overshoots")
    func lineSearch() throws {
        let d = data(rows: 300, seed: 21)
        let reference = try LogisticRegression.fit(x: d.x, y: d.y)
        // At β = (25, -25, 25) almost every example is predicted with certainty, the curvature
        // σ(1 - σ) is tiny and the undamped Newton step lands far beyond the optimum.
        let model = try LogisticRegression.fit(x: d.x, y: d.y, weights: nil, configuration: .init(),
                                               start: [25, -25, 25, 0])
        let report = try #require(model.fitReport)
        #expect(report.halvings > 0)
        #expect(report.converged)
        for j in 0..<3 { #expect(abs(model.coefficients[j] - reference.coefficients[j]) <= oracleAgreement) }
        #expect(abs(model.intercept - reference.intercept) <= oracleAgreement)
        #expect(reference.fitReport?.halvings == 0)
    }

    @Test("agrees with an independent naive Newton solver with Gaussian elimination")
    func matchesOracle() throws {
        let d = data(rows: 300, seed: 21)
        let model = try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(l2: 2))
        let theta = Naive.newtonFit(x: d.x, y: d.y, lambda: 2, steps: 25)
        for j in 0..<3 { #expect(abs(model.coefficients[j] - theta[j]) <= oracleAgreement, "β\(j)") }
        #expect(abs(model.intercept - theta[3]) <= oracleAgreement)
    }

    /// The block path (docs/decisions/0308) forced onto a small table: 20,000 rows are 5 blocks of
    /// 4096; stride 2 sums blocks 0, 2 and 4 into the Hessian; one block per chunk gives 5 chunks.
    private static let smallBlocks = LogisticRegression.LargeTable(minRows: 0, hessianStride: 2, chunkBlocks: 1, parallel: true)

    @Test("the block path with a sampled Hessian reaches the whole-table path's solution",
          arguments: [(1.0, true), (1.0, false), (0.0, true)])
    func blockPathMatchesWholeTable(lambda: Double, weighted: Bool) throws {
        let d = data(rows: 20_000, seed: 307)
        // Weights 0, 0.5, 1.5 and 2.5, so zero-weight rows and the weighted sums are exercised.
        let weights: [Double]? = weighted ? (0..<20_000).map { [0, 0.5, 1.5, 2.5][($0 * 7) % 4] } : nil
        let c = LogisticRegression.Configuration(l2: lambda)
        let whole = try LogisticRegression.fit(x: d.x, y: d.y, weights: weights, configuration: c, start: nil,
                                               largeTable: .init(minRows: Int.max))
        let blocks = try LogisticRegression.fit(x: d.x, y: d.y, weights: weights, configuration: c, start: nil,
                                                largeTable: Self.smallBlocks)
        let a = try #require(whole.fitReport), b = try #require(blocks.fitReport)
        #expect(a.converged && b.converged)
        // Both meet the 1e-8 gradient test, so the objectives agree to rounding (~1e-14 relative).
        #expect(abs(a.objective - b.objective) <= 1e-12 * a.objective)
        for j in 0..<3 { #expect(abs(whole.coefficients[j] - blocks.coefficients[j]) <= oracleAgreement, "β\(j)") }
        #expect(abs(whole.intercept - blocks.intercept) <= oracleAgreement)
        #expect(b.rows == a.rows && b.totalWeight == a.totalWeight)
        // The sampled Hessian costs steps, not accuracy: a few more than exact Newton at most.
        #expect(b.iterations >= a.iterations && b.iterations <= a.iterations + 4)
        // Below minRows (the default 2^18) the default fit is the whole-table one, bit for bit.
        let standard = try LogisticRegression.fit(x: d.x, y: d.y, weights: weights, configuration: c)
        #expect(standard.coefficients == whole.coefficients && standard.intercept == whole.intercept)
    }

    @Test("one block pass equals naive loops: loss, gradient, and the Hessian of blocks 0, k, 2k, … scaled by rows ÷ sampled rows",
          arguments: [1, 2, 3])
    func blockPassAgainstNaiveLoops(stride: Int) {
        let block = Matrix.gramBlockRows
        let n = 2 * block + 100, p = 3   // blocks of 4096, 4096 and 100 rows
        let d = data(rows: n, seed: 44)
        let w = randomVector(n, seed: 45).map { abs($0) }
        let (means, scales) = Naive.standardize(d.x, weights: w)
        let layout = LogisticRegression.LargeTable(minRows: 0, hessianStride: stride, chunkBlocks: 2, parallel: true)
        let pass = LogisticRegression.BlockPass(x: d.x, y: d.y, w: w, means: means, inverseScales: scales.map { 1 / $0 },
                                                withIntercept: true, layout: layout)
        let beta = [0.3, -0.7, 0.2, -0.1]
        let sums = pass.run(beta: beta)
        var loss = 0.0
        var gradient = [Double](repeating: 0, count: p + 1)
        var hessian = [Double](repeating: 0, count: (p + 1) * (p + 1))
        var sampledRows = 0
        for i in 0..<n {
            var z = (0..<p).map { (d.x[i, $0] - means[$0]) / scales[$0] }
            z.append(1)
            let m = zip(z, beta).reduce(0) { $0 + $1.0 * $1.1 }
            let s = Naive.sigmoid(m)
            loss -= w[i] * (d.y[i] == 1 ? log(s) : log(1 - s))
            for j in 0...p { gradient[j] += w[i] * (s - d.y[i]) * z[j] }
            guard (i / block) % stride == 0 else { continue }
            sampledRows += 1
            for j in 0...p { for k in j...p { hessian[j * (p + 1) + k] += w[i] * s * (1 - s) * z[j] * z[k] } }
        }
        let scale = Double(n) / Double(sampledRows)
        #expect(sums.hessianRows == sampledRows)
        #expect(abs(sums.loss - loss) <= passLossAgreement * loss)
        for j in 0...p { #expect(abs(sums.gradient[j] - gradient[j]) <= passGradientAgreement * (1 + abs(gradient[j])), "gradient \(j)") }
        for j in 0...p {
            for k in j...p {
                let expected = hessian[j * (p + 1) + k] * scale
                #expect(abs(sums.hessian[j * (p + 1) + k] - expected) <= passHessianAgreement * (1 + abs(expected)), "Hessian (\(j), \(k))")
            }
        }
    }

    @Test("the block path's objective and gradient equal a naive loop at the fitted parameters")
    func blockPathIsStationary() throws {
        let d = data(rows: 9_000, seed: 11)   // 3 blocks, the last partial
        let model = try LogisticRegression.fit(x: d.x, y: d.y, weights: nil, configuration: .init(l2: 3), start: nil,
                                               largeTable: Self.smallBlocks)
        let report = try #require(model.fitReport)
        #expect(report.converged)
        let (means, scales) = Naive.standardize(d.x, weights: nil)
        let g = Naive.gradient(x: d.x, y: d.y, weights: nil, means: means, scales: scales, beta: model.coefficients,
                               intercept: model.intercept, lambda: 3, withIntercept: true)
        for (j, gj) in g.enumerated() { #expect(abs(gj) / 9_000 <= stationarityTolerance, "coordinate \(j): \(gj)") }
    }

    @Test("the block path gives the same bits on one thread and on all cores, without an intercept too",
          arguments: [true, false])
    func blockPathIsDeterministic(intercept: Bool) throws {
        // One BLAS thread, as `train` and `serve` run (record 0006; `make test` exports
        // OPENBLAS_NUM_THREADS=1): with OpenBLAS's own threads, concurrent chunks' `dgemv`s may
        // split their sums differently from run to run (seen under load with a plain `swift test`).
        BLASThreads.useOne()
        let d = data(rows: 20_000, seed: 308)
        var serial = Self.smallBlocks
        serial.parallel = false
        let c = LogisticRegression.Configuration(fitIntercept: intercept)
        let one = try LogisticRegression.fit(x: d.x, y: d.y, weights: nil, configuration: c, start: nil, largeTable: serial)
        for _ in 0..<3 {
            let all = try LogisticRegression.fit(x: d.x, y: d.y, weights: nil, configuration: c, start: nil, largeTable: Self.smallBlocks)
            #expect(all.coefficients == one.coefficients && all.intercept == one.intercept)
            #expect(all.fitReport == one.fitReport)
        }
        #expect(one.fitReport?.converged == true)
        if !intercept { #expect(one.intercept == 0) }
    }

    @Test("recovers known coefficients on 20000 synthetic rows")
    func recoversTruth() throws {
        let d = data(rows: 20_000, seed: 2026)
        let model = try LogisticRegression.fit(x: d.x, y: d.y)
        // Compare per standard deviation of each feature, where the truth is β·sd.
        for j in 0..<3 {
            let truth = threeFeatures.beta[j] * threeFeatures.sds[j]
            let learnt = model.originalCoefficients[j] * threeFeatures.sds[j]
            #expect(abs(learnt - truth) <= recoveryTolerance, "feature \(j): learnt \(learnt), truth \(truth)")
        }
        let mae = try Metrics.meanAbsoluteError(model.probabilities(x: d.x), d.truth)
        #expect(mae < 0.01)
    }

    @Test("an integer weight equals duplicating the row")
    func weightsAreCopies() throws {
        let d = data(rows: 200, seed: 5)
        let weights = (0..<200).map { Double(($0 * 5) % 4) }   // 0, 1, 2 or 3 copies
        var copies: [Int] = []
        for i in 0..<200 { copies += Array(repeating: i, count: Int(weights[i])) }
        let weighted = try LogisticRegression.fit(x: d.x, y: d.y, weights: weights)
        let duplicated = try LogisticRegression.fit(x: d.x.selectingRows(copies), y: copies.map { d.y[$0] })
        for j in 0..<3 { #expect(abs(weighted.coefficients[j] - duplicated.coefficients[j]) <= duplicationAgreement) }
        #expect(abs(weighted.intercept - duplicated.intercept) <= duplicationAgreement)
        #expect(weighted.standardizer.means.indices.allSatisfy {
            abs(weighted.standardizer.means[$0] - duplicated.standardizer.means[$0]) <= 1e-12 * 200
        })
    }

    @Test("perfectly separable data stays finite and converges thanks to the L2 penalty")
    func separable() throws {
        var x = Matrix(rows: 100, cols: 2)
        var y = [Double](repeating: 0, count: 100)
        for i in 0..<100 {
            x[i, 0] = Double(i)
            x[i, 1] = Double(i % 7)
            y[i] = i >= 50 ? 1 : 0
        }
        for lambda in [1.0, 1e-3] {
            let model = try LogisticRegression.fit(x: x, y: y, configuration: .init(l2: lambda))
            let report = try #require(model.fitReport)
            #expect(report.converged, "λ = \(lambda)")
            #expect(model.coefficients.allSatisfy(\.isFinite) && model.intercept.isFinite)
            #expect(model.probability(row: [99, 1]) > 0.9 && model.probability(row: [0, 1]) < 0.1)
        }
    }

    @Test("single-row and batch predictions agree and match the standardized formula")
    func predictions() throws {
        let d = data(rows: 400, seed: 3)
        let model = try LogisticRegression.fit(x: d.x, y: d.y)
        let batch = model.probabilities(x: d.x)
        let margins = model.decisionFunction(x: d.x)
        for i in 0..<d.x.rows {
            let row = d.x.row(i)
            var z = model.intercept
            for j in 0..<3 { z += model.coefficients[j] * (row[j] - model.standardizer.means[j]) / model.standardizer.scales[j] }
            // Folded versus standardized arithmetic and BLAS summation order: a few ulps of |z| terms.
            #expect(abs(model.decisionFunction(row: row) - z) <= 1e-12 * max(1, abs(z)))
            #expect(abs(margins[i] - model.decisionFunction(row: row)) <= 1e-12 * max(1, abs(z)))
            #expect(abs(batch[i] - model.probability(row: row)) <= 1e-12)
            #expect(d.x.withRow(i) { model.probability(row: $0) } == model.probability(row: row))
        }
    }

    @Test("without an intercept the standardized intercept is 0")
    func noIntercept() throws {
        let d = data(rows: 300, seed: 8)
        let model = try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(fitIntercept: false))
        #expect(model.intercept == 0)
        #expect(model.fitReport?.converged == true)
    }

    @Test("maxIterations 0 reports the starting point as not converged")
    func zeroIterations() throws {
        let d = data(rows: 100, seed: 4)
        let model = try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(maxIterations: 0))
        #expect(model.fitReport?.iterations == 0 && model.fitReport?.converged == false)
        #expect(model.coefficients == [0, 0, 0])
    }

    @Test("bad data and configuration throw errors that name the place")
    func validation() {
        let x = Matrix(rowArrays: [[1, 2], [3, 4], [5, 6]])
        let y: [Double] = [0, 1, 0]
        func fails(_ expected: LearningError, x: Matrix = x, y: [Double] = y, weights: [Double]? = nil,
                   configuration: LogisticRegression.Configuration = .init()) {
            #expect(throws: expected) { try LogisticRegression.fit(x: x, y: y, weights: weights, configuration: configuration) }
        }
        fails(.dimensionMismatch(what: "labels y (one per row of x)", expected: 3, actual: 2), y: [0, 1])
        fails(.dimensionMismatch(what: "weights (one per row of x)", expected: 3, actual: 1), weights: [1])
        fails(.invalidLabel(row: 2, value: 0.5), y: [0, 1, 0.5])
        fails(.invalidWeight(row: 1, value: -1), weights: [1, -1, 1])
        var bad = x
        bad[2, 1] = .infinity
        fails(.nonFiniteFeature(row: 2, column: 1, value: .infinity), x: bad)
        fails(.invalidConfiguration(parameter: "l2", value: "-1.0", expected: "a finite number >= 0"), configuration: .init(l2: -1))
        fails(.emptyData("logistic regression: x has no rows"), x: Matrix(rows: 0, cols: 2), y: [])
        fails(.emptyData("logistic regression: every row with positive weight has label 0; both classes are needed"), y: [0, 0, 0])
        fails(.emptyData("logistic regression: all 3 weights are 0"), weights: [0, 0, 0])
        // NaN is reported with its position too (NaN != NaN, so compare the message).
        var nan = x
        nan[1, 0] = .nan
        do {
            _ = try LogisticRegression.fit(x: nan, y: y)
            Issue.record("NaN feature accepted")
        } catch {
            #expect("\(error)" == "row 1, column 0: feature value nan is not a finite number")
        }
    }

    @Test("the stable sigmoid and log loss stay finite and accurate at extreme margins")
    func stableScalars() {
        #expect(Logistic.sigmoid(-800) == 0 && Logistic.sigmoid(800) == 1)
        #expect(Logistic.logLoss(margin: 800, label: 0) == 800)
        #expect(Logistic.logLoss(margin: -800, label: 1) == 800)
        #expect(abs(Logistic.logLoss(margin: 40, label: 1) - 4.248354255291589e-18) < 1e-30)
        #expect(Logistic.sigmoid(-40) > 0)
    }
}
