import Testing
@testable import Learning

/// Two-pass sums over ≤ 200 rows of O(10²) values: agreement with the naive loop to 1e-12 relative.
private let summationTolerance = 1e-12

@Suite("Standardizer")
struct StandardizerTests {
    @Test("fits population mean and sd on the listed rows only")
    func fitsOnTrainingRows() {
        var x = randomMatrix(rows: 200, cols: 3, seed: 9)
        for i in 0..<200 { x[i, 1] = 100 + 20 * x[i, 1] }
        let training = Array(stride(from: 0, to: 200, by: 3))
        let s = Standardizer.fit(x, rows: training)
        let oracle = Naive.standardize(x.selectingRows(training), weights: nil)
        for j in 0..<3 {
            #expect(abs(s.means[j] - oracle.means[j]) <= summationTolerance * max(1, abs(oracle.means[j])))
            #expect(abs(s.scales[j] - oracle.scales[j]) <= summationTolerance * oracle.scales[j])
        }
        // Population sd: divide by n, not n - 1 (one row = 0 spread only on constant columns).
        let tiny = Standardizer.fit(Matrix(rowArrays: [[1], [3]]))
        #expect(tiny.means == [2] && tiny.scales == [1])
    }

    @Test("a constant column gets scale 1 and maps to exactly 0")
    func constantColumn() {
        var x = Matrix(rowArrays: [[0.1, 1], [0.1, 2], [0.1, 4]])
        let s = Standardizer.fit(x)
        #expect(s.scales[0] == 1)
        s.apply(to: &x)
        #expect(x.withRow(0) { $0[0] } == 0 && x[1, 0] == 0 && x[2, 0] == 0)
    }

    @Test("a weight of k is the same as k copies of the row")
    func weightsAreCopies() {
        let x = randomMatrix(rows: 40, cols: 2, seed: 11)
        let weights = (0..<40).map { Double($0 % 4) }
        var copies: [Int] = []
        for i in 0..<40 { copies += Array(repeating: i, count: copyCount(weights[i])) }
        let weighted = Standardizer.fit(x, weights: weights)
        let duplicated = Standardizer.fit(x.selectingRows(copies))
        for j in 0..<2 {
            #expect(abs(weighted.means[j] - duplicated.means[j]) <= summationTolerance)
            #expect(abs(weighted.scales[j] - duplicated.scales[j]) <= summationTolerance)
        }
    }

    @Test("apply to a matrix and to a row agree with (x - mean) / scale")
    func apply() {
        let s = Standardizer(means: [1, -2], scales: [2, 0.5])
        var m = Matrix(rowArrays: [[3, -2], [1, 0]])
        s.apply(to: &m)
        #expect(m.elements == [1, 0, 0, 4])
        var row = [3.0, -2]
        s.apply(to: &row)
        #expect(row == [1, 0])
    }
}

private func copyCount(_ w: Double) -> Int { Int(w) }
