#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Testing
@testable import Learning

/// `GradientBoosting.fit(initScore:validationInitScore:)`, LightGBM `init_score` semantics
/// (record 0617): boosting starts from the given raw scores, the first tree carries no bias.
@Suite("Gradient boosting from initial scores")
struct GradientBoostingInitScoreTests {
    static func configuration() -> GradientBoosting.Configuration {
        var c = GradientBoosting.Configuration()
        c.numIterations = 30
        c.numLeaves = 7
        c.minDataInLeaf = 20
        c.lambdaL2 = 1
        c.earlyStoppingRounds = 10
        c.seed = 3
        return c
    }

    /// Rows 0..<1500 train, 1500..<2000 validate.
    static func halves(_ d: SyntheticTrees) -> (x: Matrix, y: [Double], vx: Matrix, vy: [Double]) {
        (d.x.selectingRows(0..<1_500), Array(d.y[0..<1_500]), d.x.selectingRows(1_500..<2_000), Array(d.y[1_500..<2_000]))
    }

    @Test("an initial score of 0 on balanced labels (logit(p̄) = 0) is the fit without one, bit for bit")
    func zeroInitIsToday() throws {
        let d = SyntheticTrees.make(rows: 4_000, seed: 17)
        // As many negatives as positives, in row order, so the average's log-odds is exactly 0.
        let positives = d.y.indices.filter { d.y[$0] == 1 }, negatives = d.y.indices.filter { d.y[$0] == 0 }
        let k = min(positives.count, negatives.count, 1_000)
        let rows = (Array(positives.prefix(k)) + Array(negatives.prefix(k))).sorted()
        let x = d.x.selectingRows(rows), y = rows.map { d.y[$0] }
        let vx = d.x.selectingRows(0..<300), vy = Array(d.y[0..<300])
        let plain = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), configuration: Self.configuration())
        let zero = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), initScore: [Double](repeating: 0, count: y.count),
                                            validationInitScore: [Double](repeating: 0, count: vy.count), configuration: Self.configuration())
        #expect(plain.report?.initialScore == 0)
        #expect(zero.trees == plain.trees)
        #expect(zero.report?.validationLogLoss == plain.report?.validationLogLoss)
        #expect(zero.rawScores(x: vx) == plain.rawScores(x: vx))
    }

    @Test("a constant initial score logit(p̄) gives the same trees, the first shifted by it, and the same validation losses, bit for bit")
    func constantInitIsShiftedBase() throws {
        let d = SyntheticTrees.make(rows: 2_000, seed: 23)
        let (x, y, vx, vy) = Self.halves(d)
        let plain = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), configuration: Self.configuration())
        let base = try #require(plain.report?.initialScore)
        #expect(base != 0)
        let shifted = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), initScore: [Double](repeating: base, count: y.count),
                                               validationInitScore: [Double](repeating: base, count: vy.count),
                                               configuration: Self.configuration())
        #expect(shifted.report?.initialScore == 0)
        #expect(shifted.trees.count == plain.trees.count && shifted.trees.count > 1)
        var first = shifted.trees[0]
        first.addBias(base)
        #expect(first == plain.trees[0])
        #expect(Array(shifted.trees.dropFirst()) == Array(plain.trees.dropFirst()))
        #expect(shifted.report?.validationLogLoss == plain.report?.validationLogLoss)
    }

    @Test("boosting from a good initial score (the true log-odds) beats boosting from the average on held-out log loss")
    func goodInitImproves() throws {
        let d = SyntheticTrees.make(rows: 6_000, seed: 41)
        let logit = d.truth.map { log($0 / (1 - $0)) }
        let x = d.x.selectingRows(0..<3_000), y = Array(d.y[0..<3_000])
        let vx = d.x.selectingRows(3_000..<4_000), vy = Array(d.y[3_000..<4_000])
        let tx = d.x.selectingRows(4_000..<6_000), ty = Array(d.y[4_000..<6_000])
        let plain = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), configuration: Self.configuration())
        let boosted = try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), initScore: Array(logit[0..<3_000]),
                                               validationInitScore: Array(logit[3_000..<4_000]), configuration: Self.configuration())
        let plainLoss = try Metrics.logLoss(labels: ty, probabilities: plain.probabilities(x: tx))
        let testInit = Array(logit[4_000..<6_000])
        let boostedLoss = try Metrics.logLoss(labels: ty, probabilities: zip(testInit, boosted.rawScores(x: tx)).map { Logistic.sigmoid($0 + $1) })
        let truthLoss = try Metrics.logLoss(labels: ty, probabilities: Array(d.truth[4_000..<6_000]))
        // The truth's own loss is the floor; boosting from it must stay much nearer to it than to
        // the plain fit (margin: a tenth of the plain fit's excess, far above seed noise here).
        #expect(boostedLoss < plainLoss - 0.1 * (plainLoss - truthLoss), "boosted \(boostedLoss), plain \(plainLoss), truth \(truthLoss)")
    }

    @Test("initial scores of the wrong length, non-finite, or for validation only are refused")
    func refusals() throws {
        let d = SyntheticTrees.make(rows: 2_000, seed: 5)
        let (x, y, vx, vy) = Self.halves(d)
        let c = Self.configuration()
        #expect(throws: LearningError.self) { try GradientBoosting.fit(x: x, y: y, initScore: [0, 1], configuration: { var c = c; c.earlyStoppingRounds = 0; return c }()) }
        var bad = [Double](repeating: 0, count: y.count)
        bad[7] = .nan
        #expect(throws: LearningError.self) { try GradientBoosting.fit(x: x, y: y, validation: (vx, vy), initScore: bad,
                                                                       validationInitScore: [Double](repeating: 0, count: vy.count), configuration: c) }
        #expect(throws: LearningError.self) { try GradientBoosting.fit(x: x, y: y, validation: (vx, vy),
                                                                       initScore: [Double](repeating: 0, count: y.count), configuration: c) }
        #expect(throws: LearningError.self) { try GradientBoosting.fit(x: x, y: y, validation: (vx, vy),
                                                                       validationInitScore: [Double](repeating: 0, count: vy.count), configuration: c) }
    }
}
