import Testing
@testable import Learning

/// BLAS sums in a different order than the naive loops (blocked, FMA); for the O(1)-sized
/// inputs here and sums of at most ~200 terms, the difference stays within a few hundred ulps.
private let reorderingTolerance = 1e-12

private func close(_ a: Double, _ b: Double) -> Bool {
    abs(a - b) <= reorderingTolerance * max(1, abs(a), abs(b))
}

@Suite("Matrix and BLAS helpers")
struct MatrixBLASTests {
    @Test("storage is row-major and withRow reads the row in place")
    func rowMajor() {
        var m = Matrix(rows: 2, cols: 3)
        m[1, 2] = 7
        m[0, 1] = 3
        #expect(m.elements == [0, 3, 0, 0, 0, 7])
        #expect(m.withRow(1) { Array($0) } == [0, 0, 7])
        m.withMutableRow(0) { $0[2] = 5 }
        #expect(m.row(0) == [0, 3, 5])
        #expect(Matrix(rowArrays: [[1, 2], [3, 4]]).elements == [1, 2, 3, 4])
        #expect(m.selectingRows([1, 0, 1]).elements == [0, 0, 7, 0, 3, 5, 0, 0, 7])
    }

    @Test("gemv and its transpose match naive loops", arguments: [(1, 1), (7, 3), (50, 13), (200, 1), (3, 40)])
    func gemv(shape: (Int, Int)) {
        let (n, p) = shape
        let a = randomMatrix(rows: n, cols: p, seed: UInt64(n * 100 + p))
        let x = randomVector(p, seed: 1), u = randomVector(n, seed: 2)
        var y = randomVector(n, seed: 3)
        let y0 = y
        a.gemv(alpha: 2, x: x, beta: 0.5, y: &y)
        for i in 0..<n {
            var s = 0.0
            for j in 0..<p { s += a[i, j] * x[j] }
            #expect(close(y[i], 2 * s + 0.5 * y0[i]), "row \(i)")
        }
        let t = a.transposedMultiplied(by: u)
        for j in 0..<p {
            var s = 0.0
            for i in 0..<n { s += a[i, j] * u[i] }
            #expect(close(t[j], s), "column \(j)")
        }
    }

    @Test("weighted Gram XᵀWX is symmetric and matches the naive triple loop", arguments: [(1, 1), (30, 4), (120, 9), (9000, 2)])
    func weightedGram(shape: (Int, Int)) {
        let (n, p) = shape
        let a = randomMatrix(rows: n, cols: p, seed: 42)
        let w = randomVector(n, seed: 43).map { abs($0) }
        let g = a.weightedGram(weights: w)
        for j in 0..<p {
            for k in 0..<p {
                var s = 0.0
                for i in 0..<n { s += a[i, j] * w[i] * a[i, k] }
                #expect(close(g[j, k], s), "(\(j), \(k))")
                #expect(g[j, k] == g[k, j])
            }
        }
    }

    @Test("dot and axpy match naive loops; empty vectors are fine")
    func levelOne() {
        let x = randomVector(101, seed: 5), y = randomVector(101, seed: 6)
        var naive = 0.0
        for i in x.indices { naive += x[i] * y[i] }
        #expect(close(BLAS.dot(x, y), naive))
        var z = y
        BLAS.axpy(-1.5, x, &z)
        for i in x.indices { #expect(close(z[i], y[i] - 1.5 * x[i])) }
        #expect(BLAS.dot([], []) == 0)
        var empty: [Double] = []
        BLAS.axpy(2, [], &empty)
        #expect(empty.isEmpty)
    }

    @Test("a matrix with no columns multiplies to zeros")
    func emptyColumns() {
        let a = Matrix(rows: 3, cols: 0)
        var y = [1.0, 2, 3]
        a.gemv(x: [], y: &y)
        #expect(y == [0, 0, 0])
    }
}
