import CLAPACKE
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// L2-penalised logistic regression on standardized features, fitted by Newton's method (IRLS)
/// with a Cholesky solve and step halving.
///
/// Objective, over the standardized features z (see `Standardizer`) and parameters (β, b):
///
///     f(β, b) = Σᵢ wᵢ · logloss(yᵢ, b + β·zᵢ) + (λ/2)·‖β‖²
///
/// with the intercept b not penalised. This is scikit-learn's `LogisticRegression(C = 1/λ)`
/// after a `StandardScaler` (its objective is ours divided by λ, same minimiser).
/// See docs/decisions/0301-logistic-regression-objective-and-stopping.md.
public enum LogisticRegression {
    /// Hyperparameters; plain values, validated by `fit`.
    public struct Configuration: Sendable, Equatable {
        /// λ, the L2 penalty on the standardized coefficients, >= 0 (dimensionless; 0 = none).
        public var l2: Double
        /// Maximum number of Newton steps, >= 0. Newton usually needs 5–10.
        public var maxIterations: Int
        /// Stop when max|∇f| <= tolerance · Σwᵢ, i.e. the gradient of the per-unit-weight mean
        /// objective is below `tolerance` in every coordinate. >= 0; 0 runs `maxIterations` steps.
        public var tolerance: Double
        /// Whether to fit the (unpenalised) intercept b; when false b = 0 on the standardized scale.
        public var fitIntercept: Bool
        /// Per-feature multiples of λ, one per column, each finite and >= 0 (nil: 1 for every
        /// column): coefficient j is penalised by λ·penaltyScale[j]. Terms that only refine
        /// others (per-kind offsets) can be shrunk harder than the rest (record 0666).
        public var penaltyScale: [Double]?

        public init(l2: Double = 1.0, maxIterations: Int = 50, tolerance: Double = 1e-8, fitIntercept: Bool = true,
                    penaltyScale: [Double]? = nil) {
            self.l2 = l2
            self.maxIterations = maxIterations
            self.tolerance = tolerance
            self.fitIntercept = fitIntercept
            self.penaltyScale = penaltyScale
        }

        /// λⱼ of each of `columns` coefficients: λ·penaltyScale[j], or λ without scales.
        func penalties(columns: Int) -> [Double] {
            penaltyScale.map { $0.map { l2 * $0 } } ?? [Double](repeating: l2, count: columns)
        }
    }

    /// How the solver ended.
    public struct FitReport: Sendable, Equatable {
        /// Newton steps taken, in 0...maxIterations.
        public let iterations: Int
        /// True when the gradient test passed (see `Configuration.tolerance`).
        public let converged: Bool
        /// Final objective f (nats × weight units, >= 0).
        public let objective: Double
        /// Final max-abs gradient of f (same units as f per standardized unit), >= 0.
        public let gradientMaxAbs: Double
        /// Step halvings taken by the line search over all iterations, >= 0 (0 = pure Newton).
        public let halvings: Int
        /// Number of training rows, > 0 (including rows of weight 0).
        public let rows: Int
        /// Σ wᵢ over the training rows (the number of rows when unweighted), > 0.
        public let totalWeight: Double
    }

    /// Armijo sufficient-decrease constant for the step-halving line search (Nocedal & Wright's 1e-4).
    static let armijo = 1e-4
    /// Maximum halvings of one Newton step before the solver declares a stall (2^-40 ≈ 1e-12).
    static let maxHalvings = 40
    /// Relative slack on the objective comparison: near the optimum the true decrease is below
    /// the rounding error of a sum over n rows, and a full Newton step must not be refused for it.
    static let roundingSlack = 1e-13

    /// Fits the model on rows of `x` (features, finite), labels `y` (0 or 1, one per row) and
    /// optional observation `weights` (finite, >= 0, one per row; a weight k equals k copies).
    /// Throws `LearningError` for bad data or configuration, or when the Hessian is singular
    /// (only possible with l2 = 0). Not converging is reported, not thrown.
    public static func fit(x: Matrix, y: [Double], weights: [Double]? = nil,
                           configuration: Configuration = Configuration()) throws -> LogisticRegressionModel {
        try fit(x: x, y: y, weights: weights, configuration: configuration, start: nil, largeTable: .standard)
    }

    /// `fit` from given standardized parameters (β..., b) instead of (0, logit(ȳ)); tests use it
    /// to start where the full Newton step overshoots, and to take the block path on small tables.
    static func fit(x: Matrix, y: [Double], weights: [Double]?, configuration: Configuration,
                    start: [Double]?, largeTable: LargeTable = .standard) throws -> LogisticRegressionModel {
        let (totalWeight, labelMean) = try validate(x: x, y: y, weights: weights, configuration: configuration)
        let n = x.rows, p = x.cols
        let dim = p + (configuration.fitIntercept ? 1 : 0)
        let lambda = configuration.penalties(columns: p)
        let w = weights ?? [Double](repeating: 1, count: n)
        let standardizer = Standardizer.fit(x, weights: weights)
        if let start { precondition(start.count == dim, "start has \(start.count) values, expected \(dim)") }
        if n >= largeTable.minRows {
            let pass = BlockPass(x: x, y: y, w: w, means: standardizer.means, inverseScales: standardizer.scales.map { 1 / $0 },
                                 withIntercept: configuration.fitIntercept, layout: largeTable)
            return try fitBlocks(pass, standardizer: standardizer, configuration: configuration, start: start,
                                 labelMean: labelMean, totalWeight: totalWeight)
        }
        let design = designMatrix(x, standardizer: standardizer, withIntercept: configuration.fitIntercept)

        // Work arrays, allocated once.
        var beta = [Double](repeating: 0, count: dim)
        if configuration.fitIntercept { beta[p] = Logistic.logit(labelMean) }
        if let start { beta = start }
        var trial = beta
        var margin = [Double](repeating: 0, count: n)
        var trialMargin = margin
        var residual = margin        // wᵢ(σᵢ - yᵢ) at the current β
        var curvature = margin       // wᵢσᵢ(1 - σᵢ) at the current β
        var trialResidual = margin, trialCurvature = margin
        var gradient = beta
        var step = beta
        var scratch = [Double](repeating: 0, count: Matrix.gramBlockRows * dim)
        var hessian = Matrix(rows: dim, cols: dim)

        // One pass per β gives the objective and, from the same exponentials, the residuals and
        // curvatures the next gradient and Hessian need (docs/decisions/0301).
        design.gemv(x: beta, y: &margin)
        var objective = Self.evaluate(margin: margin, beta: beta, y: y, w: w, lambda: lambda,
                                      residual: &residual, curvature: &curvature)
        var iterations = 0
        var halvings = 0
        var converged = false
        var gradientMaxAbs = 0.0

        while true {
            // Gradient: Zᵀ r + λβ (intercept not penalised).
            design.gemv(transposed: true, x: residual, y: &gradient)
            for j in 0..<p { gradient[j] += lambda[j] * beta[j] }
            gradientMaxAbs = gradient.reduce(0) { max($0, abs($1)) }
            if gradientMaxAbs <= configuration.tolerance * totalWeight { converged = true; break }
            if iterations >= configuration.maxIterations { break }

            // Newton system (ZᵀHZ + λI) d = g, upper triangle, solved in place by Cholesky.
            design.weightedGramUpper(weights: curvature, scratch: &scratch, into: &hessian)
            try hessian.withUnsafeMutableBufferPointer { hp in
                try newtonStep(hessianUpper: hp, lambda: lambda, gradient: gradient, into: &step, iteration: iterations)
            }
            // The move is -t·step; its directional derivative is -g·step < 0.
            let slope = -BLAS.dot(gradient, step)

            let accepted = halvingStep(from: beta, step: step, objective: objective, slope: slope,
                                       trial: &trial, halvings: &halvings) { trial in
                design.gemv(x: trial, y: &trialMargin)
                return Self.evaluate(margin: trialMargin, beta: trial, y: y, w: w, lambda: lambda,
                                     residual: &trialResidual, curvature: &trialCurvature)
            }
            guard let candidate = accepted else { break }   // stalled: no decrease along the Newton direction
            swap(&beta, &trial)
            swap(&margin, &trialMargin)
            swap(&residual, &trialResidual)
            swap(&curvature, &trialCurvature)
            objective = candidate
            iterations += 1
        }

        let report = FitReport(iterations: iterations, converged: converged, objective: objective,
                               gradientMaxAbs: gradientMaxAbs, halvings: halvings, rows: n, totalWeight: totalWeight)
        return LogisticRegressionModel(standardizer: standardizer, coefficients: Array(beta[0..<p]),
                                       intercept: configuration.fitIntercept ? beta[p] : 0, fitReport: report)
    }

    /// Step halving along −`step` from β (Armijo, docs/decisions/0301): tries β − t·step for
    /// t = 1, ½, ¼, … (at most `maxHalvings` halvings, each counted in `halvings`); `evaluate`
    /// returns the objective of the trial it is given and keeps what the caller needs from it.
    /// Returns the accepted trial's objective, with that trial left in `trial`, or nil when no
    /// step decreased the objective enough (a stall).
    static func halvingStep(from beta: [Double], step: [Double], objective: Double, slope: Double,
                            trial: inout [Double], halvings: inout Int, evaluate: ([Double]) -> Double) -> Double? {
        var t = 1.0
        for _ in 0...maxHalvings {
            for j in beta.indices { trial[j] = beta[j] - t * step[j] }
            let candidate = evaluate(trial)
            if candidate <= objective + armijo * t * slope + roundingSlack * abs(objective) { return candidate }
            t *= 0.5
            halvings += 1
        }
        return nil
    }

    /// Solves (H + diag(λ))·step = gradient by Cholesky (`LAPACKE_dposv`) on the upper
    /// triangle of the dim × dim row-major `hessianUpper`, which it overwrites. λⱼ is added to
    /// the first `lambda.count` diagonal entries (not the intercept's).
    static func newtonStep(hessianUpper h: UnsafeMutableBufferPointer<Double>, lambda: [Double],
                           gradient: [Double], into step: inout [Double], iteration: Int) throws {
        let dim = gradient.count
        precondition(h.count == dim * dim && step.count == dim && lambda.count <= dim,
                     "newtonStep: sizes do not match dimension \(dim)")
        for j in lambda.indices { h[j * dim + j] += lambda[j] }
        for j in 0..<dim { step[j] = gradient[j] }
        let info = step.withUnsafeMutableBufferPointer { sp in
            LAPACKE_dposv(LAPACK_ROW_MAJOR, CChar(UInt8(ascii: "U")), blasSize(dim), 1,
                          h.baseAddress, blasSize(dim), sp.baseAddress, 1)
        }
        if info != 0 { throw LearningError.singularHessian(iteration: iteration, info: Int(info)) }
    }

    /// The standardized features with a trailing column of ones when there is an intercept.
    static func designMatrix(_ x: Matrix, standardizer: Standardizer, withIntercept: Bool) -> Matrix {
        let n = x.rows, p = x.cols, dim = p + (withIntercept ? 1 : 0)
        // Written once, without first filling n·dim values (the copy is the fit's largest buffer).
        let elements = [Double](unsafeUninitializedCapacity: n * dim) { dst, initialized in
            x.withUnsafeBufferPointer { src in
                standardizer.means.withUnsafeBufferPointer { m in
                    standardizer.scales.withUnsafeBufferPointer { s in
                        for i in 0..<n {
                            for j in 0..<p { dst[i * dim + j] = (src[i * p + j] - m[j]) / s[j] }
                            if withIntercept { dst[i * dim + p] = 1 }
                        }
                    }
                }
            }
            initialized = n * dim
        }
        return Matrix(rows: n, cols: dim, elements: elements)
    }

    /// The objective f = Σ wᵢ·logloss(yᵢ, marginᵢ) + ½·Σ_j λⱼβⱼ², and per row the
    /// residual wᵢ(σᵢ − yᵢ) and curvature wᵢσᵢ(1 − σᵢ) (see `evaluateRows`).
    static func evaluate(margin: [Double], beta: [Double], y: [Double], w: [Double], lambda: [Double],
                         residual: inout [Double], curvature: inout [Double]) -> Double {
        let loss = margin.withUnsafeBufferPointer { m in
            y.withUnsafeBufferPointer { yp in
                w.withUnsafeBufferPointer { wp in
                    residual.withUnsafeMutableBufferPointer { r in
                        curvature.withUnsafeMutableBufferPointer { h in
                            evaluateRows(margin: m.baseAddress!, y: yp.baseAddress!, w: wp.baseAddress!, count: m.count,
                                         residual: r.baseAddress!, curvature: h.baseAddress!)
                        }
                    }
                }
            }
        }
        return loss + penalty(beta: beta, lambda: lambda)
    }

    /// ½·Σ_{j < lambda.count} λⱼβⱼ² (the intercept, last, is not penalised). With every λⱼ equal
    /// this is ½·λ·Σβⱼ², summed as such so that models fitted before per-feature penalties are
    /// reproduced bit for bit.
    static func penalty(beta: [Double], lambda: [Double]) -> Double {
        guard let first = lambda.first else { return 0 }
        if lambda.allSatisfy({ $0 == first }) {
            var squares = 0.0
            for j in lambda.indices { squares += beta[j] * beta[j] }
            return 0.5 * first * squares
        }
        var sum = 0.0
        for j in lambda.indices { sum += lambda[j] * beta[j] * beta[j] }
        return 0.5 * sum
    }

    /// Σ wᵢ·logloss(yᵢ, mᵢ) over `count` rows, writing each row's residual wᵢ(σᵢ − yᵢ) and
    /// curvature wᵢσᵢ(1 − σᵢ), all from one exponential per row: with e = exp(−|m|),
    /// σ = 1/(1+e) or e/(1+e), and logloss = log1p(e) + max(0, ∓m) (exactly `Logistic.logLoss`'s
    /// two branches). Rows are summed in order. `count` must be >= 1 (pointers are non-nil).
    @inline(__always)
    static func evaluateRows(margin m: UnsafePointer<Double>, y: UnsafePointer<Double>, w: UnsafePointer<Double>, count: Int,
                             residual r: UnsafeMutablePointer<Double>, curvature h: UnsafeMutablePointer<Double>) -> Double {
        var loss = 0.0
        for i in 0..<count {
            let z = m[i], e = exp(-abs(z)), wi = w[i]
            let s = z >= 0 ? 1 / (1 + e) : e / (1 + e)
            r[i] = wi * (s - y[i])
            h[i] = wi * s * (1 - s)
            if wi != 0 {
                // −log σ(z) = log1p(e) + max(0, −z); −log(1 − σ(z)) = log1p(e) + max(0, z).
                let signed = y[i] == 1 ? -z : z
                loss += wi * (log1p(e) + max(0, signed))
            }
        }
        return loss
    }
}
