import CBLAS

// The few BLAS level-1/2/3 operations the learners need, over row-major storage. BLAS takes
// 32-bit sizes (`blasint` is `int` in Debian's OpenBLAS), so every size is checked to fit.

@inline(__always)
func blasSize(_ n: Int) -> Int32 {
    precondition(n >= 0 && n <= Int(Int32.max), "size \(n) does not fit a 32-bit BLAS index")
    return Int32(n)
}

extension Matrix {
    /// `y ← alpha·A·x + beta·y` (or with `Aᵀ` when `transposed`), by `cblas_dgemv`.
    /// `x` has `cols` values (`rows` when transposed) and `y` has `rows` values (`cols` when transposed).
    public func gemv(transposed: Bool = false, alpha: Double = 1, x: [Double], beta: Double = 0, y: inout [Double]) {
        let (inCount, outCount) = transposed ? (rows, cols) : (cols, rows)
        precondition(x.count == inCount, "gemv: x has \(x.count) values, expected \(inCount)")
        precondition(y.count == outCount, "gemv: y has \(y.count) values, expected \(outCount)")
        if outCount == 0 { return }
        if inCount == 0 {
            // BLAS leaves y untouched for an empty product only when beta == 1; be explicit.
            for i in 0..<outCount { y[i] = beta == 0 ? 0 : beta * y[i] }
            return
        }
        let m = blasSize(rows), n = blasSize(cols)
        elements.withUnsafeBufferPointer { a in
            x.withUnsafeBufferPointer { xp in
                y.withUnsafeMutableBufferPointer { yp in
                    cblas_dgemv(CblasRowMajor, transposed ? CblasTrans : CblasNoTrans, m, n, alpha,
                                a.baseAddress, max(n, 1), xp.baseAddress, 1, beta, yp.baseAddress, 1)
                }
            }
        }
    }

    /// `A·x`, a new vector of `rows` values.
    public func multiplied(by x: [Double]) -> [Double] {
        var y = [Double](repeating: 0, count: rows)
        gemv(x: x, y: &y)
        return y
    }

    /// `Aᵀ·x`, a new vector of `cols` values.
    public func transposedMultiplied(by x: [Double]) -> [Double] {
        var y = [Double](repeating: 0, count: cols)
        gemv(transposed: true, x: x, y: &y)
        return y
    }

    /// Rows per block in `weightedGram`: the scaled block (4096 × cols doubles, 1.3 MB at 40
    /// columns) stays in L2/L3 cache and bounds the scratch memory independently of n.
    static let gramBlockRows = 4096

    /// The weighted Gram matrix `Aᵀ·diag(w)·A` (`cols × cols`, symmetric, both triangles filled).
    /// Weights must be >= 0: it is accumulated as `SᵀS` over row blocks, `S = diag(√w)·A_block`,
    /// by `cblas_dsyrk`.
    public func weightedGram(weights: [Double]) -> Matrix {
        var scratch = [Double](repeating: 0, count: Self.gramBlockRows * cols)
        var gram = Matrix(rows: cols, cols: cols)
        weightedGramUpper(weights: weights, scratch: &scratch, into: &gram)
        gram.mirrorUpperToLower()
        return gram
    }

    /// Fills the upper triangle (row-major) of `gram` with `Aᵀ·diag(w)·A`, using `scratch`
    /// (`gramBlockRows * cols` values) for the scaled row block; allocates nothing. The lower
    /// triangle is left unspecified, which is what `LAPACKE_dposv(..., "U", ...)` reads.
    /// (Large logistic-regression fits sample row blocks in their own pass, docs/decisions/0308.)
    func weightedGramUpper(weights: [Double], scratch: inout [Double], into gram: inout Matrix) {
        precondition(weights.count == rows, "weightedGram: \(weights.count) weights for \(rows) rows")
        precondition(scratch.count >= Self.gramBlockRows * cols, "weightedGram: scratch is too small")
        precondition(gram.rows == cols && gram.cols == cols, "weightedGram: output must be \(cols)×\(cols)")
        gram.withUnsafeMutableBufferPointer { g in for k in g.indices { g[k] = 0 } }
        if rows == 0 || cols == 0 { return }
        let width = cols, n = blasSize(cols)
        elements.withUnsafeBufferPointer { a in
            weights.withUnsafeBufferPointer { w in
                scratch.withUnsafeMutableBufferPointer { s in
                    gram.withUnsafeMutableBufferPointer { g in
                        var first = 0
                        while first < rows {
                            let count = min(Self.gramBlockRows, rows - first)
                            for r in 0..<count {
                                let i = first + r
                                precondition(w[i] >= 0, "weightedGram: weight \(w[i]) at row \(i) is negative")
                                let root = w[i].squareRoot()
                                let src = i * width, dst = r * width
                                for j in 0..<width { s[dst + j] = root * a[src + j] }
                            }
                            // G += S_blockᵀ S_block (upper triangle).
                            cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, n, blasSize(count), 1.0,
                                        s.baseAddress, n, 1.0, g.baseAddress, n)
                            first += count
                        }
                    }
                }
            }
        }
    }

    /// Copies the upper triangle onto the lower one (square matrices only).
    mutating func mirrorUpperToLower() {
        precondition(rows == cols, "mirrorUpperToLower needs a square matrix")
        let n = cols
        withUnsafeMutableBufferPointer { g in
            for i in 0..<n { for j in 0..<i { g[i * n + j] = g[j * n + i] } }
        }
    }
}

/// Level-1 BLAS on plain vectors.
public enum BLAS {
    /// `Σ xᵢ·yᵢ` by `cblas_ddot`; the vectors must have the same length.
    public static func dot(_ x: [Double], _ y: [Double]) -> Double {
        precondition(x.count == y.count, "dot: lengths \(x.count) and \(y.count) differ")
        if x.isEmpty { return 0 }
        return x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp in
                cblas_ddot(blasSize(x.count), xp.baseAddress, 1, yp.baseAddress, 1)
            }
        }
    }

    /// `y ← alpha·x + y` by `cblas_daxpy`; the vectors must have the same length.
    public static func axpy(_ alpha: Double, _ x: [Double], _ y: inout [Double]) {
        precondition(x.count == y.count, "axpy: lengths \(x.count) and \(y.count) differ")
        if x.isEmpty { return }
        let n = blasSize(x.count)
        x.withUnsafeBufferPointer { xp in
            y.withUnsafeMutableBufferPointer { yp in
                cblas_daxpy(n, alpha, xp.baseAddress, 1, yp.baseAddress, 1)
            }
        }
    }
}
