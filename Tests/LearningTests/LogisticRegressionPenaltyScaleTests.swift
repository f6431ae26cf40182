import Testing
import RunusCore
@testable import Learning

/// Per-feature penalties (record 0666): coefficient j is penalised by λ·penaltyScale[j].
@Suite("Logistic regression: per-feature penalties")
struct LogisticRegressionPenaltyScaleTests {
    /// Converged to 1e-8 per unit weight; the naive gradient adds 1e-12 of summation-order rounding.
    static let stationarityTolerance = 1e-8 + 1e-12
    /// Whole-table and block solutions of one strictly convex problem agree to ~1e-9.
    static let pathAgreement = 1e-7

    static func data() -> SyntheticLogistic {
        SyntheticLogistic.make(rows: 2000, means: [0, 3, -1], sds: [1, 2, 0.5], beta: [0.9, -0.4, 1.2], intercept: 0.2, seed: 41)
    }

    @Test("the fit zeroes the gradient of Σ logloss + ½Σ λⱼβⱼ², on the whole-table and the block path")
    func stationary() throws {
        let d = Self.data()
        let scale = [1.0, 1000, 0]
        let c = LogisticRegression.Configuration(l2: 2, penaltyScale: scale)
        let whole = try LogisticRegression.fit(x: d.x, y: d.y, weights: nil, configuration: c, start: nil,
                                               largeTable: .init(minRows: Int.max))
        let blocks = try LogisticRegression.fit(x: d.x, y: d.y, weights: nil, configuration: c, start: nil,
                                                largeTable: .init(minRows: 0, hessianStride: 1, chunkBlocks: 1, parallel: false))
        let (means, scales) = Naive.standardize(d.x, weights: nil)
        for model in [whole, blocks] {
            #expect(try #require(model.fitReport).converged)
            var g = Naive.gradient(x: d.x, y: d.y, weights: nil, means: means, scales: scales, beta: model.coefficients,
                                   intercept: model.intercept, lambda: 0, withIntercept: true)
            for j in 0..<3 { g[j] += 2 * scale[j] * model.coefficients[j] }
            for (j, gj) in g.enumerated() { #expect(abs(gj) / 2000 <= Self.stationarityTolerance, "coordinate \(j): \(gj)") }
        }
        for j in 0..<3 { #expect(abs(whole.coefficients[j] - blocks.coefficients[j]) <= Self.pathAgreement, "β\(j)") }
    }

    @Test("a large scale shrinks its coefficient alone toward 0; all ones is the plain fit, bit for bit")
    func shrinksOnlyItsColumn() throws {
        let d = Self.data()
        let plain = try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(l2: 1))
        let ones = try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(l2: 1, penaltyScale: [1, 1, 1]))
        #expect(ones.coefficients == plain.coefficients && ones.intercept == plain.intercept)
        #expect(ones.fitReport?.objective == plain.fitReport?.objective)
        let shrunk = try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(l2: 1, penaltyScale: [1, 1e6, 1]))
        #expect(abs(shrunk.coefficients[1]) < 0.01 * abs(plain.coefficients[1]))
        #expect(abs(shrunk.coefficients[0]) > 0.5 * abs(plain.coefficients[0]))
        #expect(abs(shrunk.coefficients[2]) > 0.5 * abs(plain.coefficients[2]))
    }

    @Test("a scale of the wrong length, negative or not finite is refused with its position")
    func badScales() {
        let d = Self.data()
        #expect(throws: LearningError.dimensionMismatch(what: "penaltyScale (one per column of x)", expected: 3, actual: 2)) {
            try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(penaltyScale: [1, 1]))
        }
        for bad in [-1.0, .nan, .infinity] {
            #expect(throws: LearningError.invalidConfiguration(parameter: "penaltyScale[1]", value: "\(bad)", expected: "a finite number >= 0")) {
                try LogisticRegression.fit(x: d.x, y: d.y, configuration: .init(penaltyScale: [1, bad, 1]))
            }
        }
    }
}
