import CBLAS
import Dispatch

extension LogisticRegression {
    /// How a large table is fitted (docs/decisions/0308): in one pass over row blocks per trial β,
    /// standardizing each block on the fly, on both cores. Below `minRows` rows the fit keeps the
    /// whole-table path (a standardized copy, whole-table `dgemv`s, the exact Hessian), so small
    /// fits — every model the engine trains — are unchanged bit for bit.
    struct LargeTable: Sendable {
        /// Rows from which the block path is taken, >= 0 (2^18 = 262,144).
        var minRows = 1 << 18
        /// One block of `Matrix.gramBlockRows` rows in `hessianStride` (blocks 0, k, 2k, … of the
        /// whole table) is summed into the Hessian, which is then scaled by rows ÷ sampled rows
        /// (sub-sampled Newton, docs/decisions/0307). >= 1; 1 = the exact Hessian.
        var hessianStride = 4
        /// Blocks per chunk, >= 1. A chunk is one unit of parallel work with its own partial sums,
        /// which are added in chunk order: the result does not depend on the number of threads.
        var chunkBlocks = 8
        /// Whether chunks run on all cores (Dispatch) or in order on the calling thread.
        var parallel = true
        static let standard = LargeTable()
    }

    /// Newton with step halving, as the whole-table path (same start, line search and stopping
    /// rule, docs/decisions/0301), where each trial β costs one `BlockPass` giving the objective
    /// and the gradient and Hessian the next step needs (docs/decisions/0308).
    static func fitBlocks(_ pass: BlockPass, standardizer: Standardizer, configuration: Configuration, start: [Double]?,
                          labelMean: Double, totalWeight: Double) throws -> LogisticRegressionModel {
        let p = pass.x.cols, dim = pass.dim, lambda = configuration.penalties(columns: pass.x.cols)
        var beta = [Double](repeating: 0, count: dim)
        if configuration.fitIntercept { beta[p] = Logistic.logit(labelMean) }
        if let start { beta = start }
        var sums = pass.run(beta: beta)
        var objective = sums.loss + penalty(beta: beta, lambda: lambda)
        var gradient = beta, step = beta, trial = beta
        var iterations = 0, halvings = 0
        var converged = false
        var gradientMaxAbs = 0.0
        while true {
            for j in 0..<dim { gradient[j] = sums.gradient[j] + (j < p ? lambda[j] * beta[j] : 0) }
            gradientMaxAbs = gradient.reduce(0) { max($0, abs($1)) }
            if gradientMaxAbs <= configuration.tolerance * totalWeight { converged = true; break }
            if iterations >= configuration.maxIterations { break }
            try sums.hessian.withUnsafeMutableBufferPointer { hp in
                try newtonStep(hessianUpper: hp, lambda: lambda, gradient: gradient, into: &step, iteration: iterations)
            }
            let slope = -BLAS.dot(gradient, step)
            var candidateSums = sums
            let accepted = halvingStep(from: beta, step: step, objective: objective, slope: slope,
                                       trial: &trial, halvings: &halvings) { trial in
                candidateSums = pass.run(beta: trial)
                return candidateSums.loss + penalty(beta: trial, lambda: lambda)
            }
            guard let candidate = accepted else { break }
            swap(&beta, &trial)
            sums = candidateSums
            objective = candidate
            iterations += 1
        }
        let report = FitReport(iterations: iterations, converged: converged, objective: objective, gradientMaxAbs: gradientMaxAbs,
                               halvings: halvings, rows: pass.x.rows, totalWeight: totalWeight)
        return LogisticRegressionModel(standardizer: standardizer, coefficients: Array(beta[0..<p]),
                                       intercept: configuration.fitIntercept ? beta[p] : 0, fitReport: report)
    }

    /// One pass over the table at parameters β: the loss Σ wᵢ·loglossᵢ (no penalty), the gradient
    /// Zᵀr (no penalty) and the upper triangle of the (sampled, scaled) Hessian ZᵀHZ, where z is
    /// the standardized row with a trailing 1 when there is an intercept.
    struct BlockPass {
        let x: Matrix
        let y: [Double]
        let w: [Double]
        let means: [Double]
        /// 1 / scale per column: z = (x − mean) · (1 / scale), within 1 ulp of the division the
        /// whole-table path and `Standardizer.transform` use.
        let inverseScales: [Double]
        let withIntercept: Bool
        let layout: LargeTable

        var dim: Int { x.cols + (withIntercept ? 1 : 0) }

        struct Sums {
            var loss = 0.0
            var gradient: [Double]
            /// Row-major dim × dim, upper triangle filled.
            var hessian: [Double]
            var hessianRows = 0
            init(dim: Int) {
                gradient = [Double](repeating: 0, count: dim)
                hessian = [Double](repeating: 0, count: dim * dim)
            }
        }

        func run(beta: [Double]) -> Sums {
            let blockRows = Matrix.gramBlockRows, chunkRows = blockRows * layout.chunkBlocks
            let chunkCount = (x.rows + chunkRows - 1) / chunkRows
            var partials = [Sums](repeating: Sums(dim: dim), count: chunkCount)
            partials.withUnsafeMutableBufferPointer { out in
                let slots = UncheckedSendable(value: out)
                BinnedDataset.forEachChunk(chunkCount, parallel: layout.parallel) { c in
                    slots.value[c] = chunk(c, rows: (c * chunkRows)..<min(x.rows, (c + 1) * chunkRows), beta: beta)
                }
            }
            var total = Sums(dim: dim)
            for part in partials {
                total.loss += part.loss
                for j in 0..<dim { total.gradient[j] += part.gradient[j] }
                for k in 0..<(dim * dim) { total.hessian[k] += part.hessian[k] }
                total.hessianRows += part.hessianRows
            }
            if total.hessianRows < x.rows && total.hessianRows > 0 {
                let scale = Double(x.rows) / Double(total.hessianRows)
                for k in 0..<(dim * dim) { total.hessian[k] *= scale }
            }
            return total
        }

        /// The sums over `rows` (whole blocks of the table, but the last), block by block: the
        /// standardized block is written once and read by the margin product, the gradient
        /// product and, for sampled blocks, scaled in place by √curvature for `dsyrk`.
        private func chunk(_ c: Int, rows: Range<Int>, beta: [Double]) -> Sums {
            let p = x.cols, dim = self.dim, blockRows = Matrix.gramBlockRows
            var sums = Sums(dim: dim)
            var block = [Double](repeating: 0, count: blockRows * dim)
            var margin = [Double](repeating: 0, count: blockRows)
            var residual = margin, curvature = margin
            let means = self.means, inverseScales = self.inverseScales
            x.withUnsafeBufferPointer { all in
              means.withUnsafeBufferPointer { mean in
                inverseScales.withUnsafeBufferPointer { inverse in
                  block.withUnsafeMutableBufferPointer { zb in
                    let z = zb.baseAddress!
                    var first = rows.lowerBound
                    while first < rows.upperBound {
                        let count = min(blockRows, rows.upperBound - first)
                        for r in 0..<count {
                            let src = all.baseAddress! + (first + r) * p, out = z + r * dim
                            for j in 0..<p { out[j] = (src[j] - mean[j]) * inverse[j] }
                            if withIntercept { out[p] = 1 }
                        }
                        let m = blasSize(count), d = blasSize(dim)
                        beta.withUnsafeBufferPointer { b in
                            margin.withUnsafeMutableBufferPointer { mp in
                                cblas_dgemv(CblasRowMajor, CblasNoTrans, m, d, 1, z, d, b.baseAddress, 1, 0, mp.baseAddress, 1)
                            }
                        }
                        sums.loss += y.withUnsafeBufferPointer { yp in
                            w.withUnsafeBufferPointer { wp in
                                margin.withUnsafeBufferPointer { mp in
                                    residual.withUnsafeMutableBufferPointer { rp in
                                        curvature.withUnsafeMutableBufferPointer { hp in
                                            LogisticRegression.evaluateRows(margin: mp.baseAddress!, y: yp.baseAddress! + first,
                                                                            w: wp.baseAddress! + first, count: count,
                                                                            residual: rp.baseAddress!, curvature: hp.baseAddress!)
                                        }
                                    }
                                }
                            }
                        }
                        residual.withUnsafeBufferPointer { rp in
                            sums.gradient.withUnsafeMutableBufferPointer { g in
                                cblas_dgemv(CblasRowMajor, CblasTrans, m, d, 1, z, d, rp.baseAddress, 1, 1, g.baseAddress, 1)
                            }
                        }
                        if (first / blockRows) % layout.hessianStride == 0 {
                            curvature.withUnsafeBufferPointer { h in
                                for r in 0..<count {
                                    let root = h[r].squareRoot(), out = z + r * dim
                                    for j in 0..<dim { out[j] *= root }
                                }
                            }
                            sums.hessian.withUnsafeMutableBufferPointer { h in
                                cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, d, m, 1, z, d, 1, h.baseAddress, d)
                            }
                            sums.hessianRows += count
                        }
                        first += count
                    }
                  }
                }
              }
            }
            return sums
        }
    }
}
