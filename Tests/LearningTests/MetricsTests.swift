import Testing
import RunusCore
@testable import Learning

#if canImport(Glibc)
import Glibc
#endif

/// Rank sums and pair counts are exact small integers/halves here, and the final division
/// rounds once; both sides agree to 1e-12.
private let exactArithmetic = 1e-12

/// AUC by definition: over all positive × negative pairs, 1 when the positive scores higher,
/// 1/2 on a tie. O(n²).
private func pairwiseAUC(_ y: [Double], _ s: [Double]) -> Double {
    var wins = 0.0, pairs = 0.0
    for i in y.indices where y[i] == 1 {
        for j in y.indices where y[j] == 0 {
            pairs += 1
            if s[i] > s[j] { wins += 1 } else if s[i] == s[j] { wins += 0.5 }
        }
    }
    return wins / pairs
}

@Suite("Metrics")
struct MetricsTests {
    @Test("ROC AUC equals the O(n²) pair count, with many ties", arguments: [2, 5, 37, 300])
    func aucMatchesPairs(n: Int) throws {
        var rng = SeededGenerator(seed: UInt64(n))
        var y = (0..<n).map { _ in rng.bernoulli(0.4) ? 1.0 : 0.0 }
        y[0] = 1; y[n - 1] = 0
        // Scores rounded to one decimal: lots of ties, within and across classes.
        let s = y.map { label in ((rng.uniform() + 0.3 * label) * 10).rounded() / 10 }
        #expect(abs(try Metrics.rocAUC(labels: y, scores: s) - pairwiseAUC(y, s)) <= exactArithmetic)
    }

    @Test("ROC AUC of a perfect, a reversed and a constant score")
    func aucExtremes() throws {
        let y: [Double] = [0, 0, 1, 1]
        #expect(try Metrics.rocAUC(labels: y, scores: [0.1, 0.2, 0.8, 0.9]) == 1)
        #expect(try Metrics.rocAUC(labels: y, scores: [0.9, 0.8, 0.2, 0.1]) == 0)
        #expect(try Metrics.rocAUC(labels: y, scores: [3, 3, 3, 3]) == 0.5)
        #expect(throws: LearningError.self) { try Metrics.rocAUC(labels: [1, 1], scores: [0.1, 0.2]) }
    }

    @Test("log loss matches the formula and clips 0 and 1 at 1e-15")
    func logLoss() throws {
        let y: [Double] = [1, 0, 1, 0]
        let p = [0.9, 0.2, 0.6, 0.5]
        let direct = -(log(0.9) + log(0.8) + log(0.6) + log(0.5)) / 4
        #expect(abs(try Metrics.logLoss(labels: y, probabilities: p) - direct) <= exactArithmetic)
        // A confident mistake costs -ln(1e-15) ≈ 34.54 nats, not infinity.
        let worst = try Metrics.logLoss(labels: [1], probabilities: [0])
        #expect(abs(worst + log(1e-15)) <= exactArithmetic)
        #expect(try Metrics.logLoss(labels: [0, 1], probabilities: [0, 1]) < 1e-14)
    }

    @Test("Brier score and mean absolute error match naive sums")
    func brierAndMAE() throws {
        #expect(abs(try Metrics.brierScore(labels: [1, 0, 1], probabilities: [0.5, 0.5, 1]) - (0.25 + 0.25 + 0) / 3) <= exactArithmetic)
        #expect(abs(try Metrics.meanAbsoluteError([0.1, 0.5, 1], [0.2, 0.5, 0.5]) - 0.2) <= exactArithmetic)
    }

    @Test("ECE bins by tenths, puts p = 1 in the last bin and weighs bins by count")
    func ece() throws {
        // Bin 0: p 0.05, 0.05, labels 0, 1 → |0.5 - 0.05| · 2/5.
        // Bin 9: p 0.95, 1.0, 1.0, labels 1, 1, 0 → |2/3 - 0.9833…| · 3/5.
        let y: [Double] = [0, 1, 1, 1, 0]
        let p = [0.05, 0.05, 0.95, 1.0, 1.0]
        let expected = abs(0.5 - 0.05) * 2 / 5 + abs(2.0 / 3 - 2.95 / 3) * 3 / 5
        #expect(abs(try Metrics.expectedCalibrationError(labels: y, probabilities: p) - expected) <= exactArithmetic)
        // Perfect calibration within bins gives 0.
        #expect(try Metrics.expectedCalibrationError(labels: [0, 1, 0, 1], probabilities: [0.5, 0.5, 0.5, 0.5]) == 0)
    }

    @Test("ECE agrees with a naive per-bin loop on random data")
    func eceOracle() throws {
        var rng = SeededGenerator(seed: 99)
        let p = (0..<500).map { _ in rng.uniform() }
        let y = p.map { rng.bernoulli($0 * 0.8) ? 1.0 : 0.0 }
        var naive = 0.0
        for k in 0..<10 {
            let members = p.indices.filter { min(Int(p[$0] * 10), 9) == k }
            if members.isEmpty { continue }
            let meanY = members.map { y[$0] }.reduce(0, +) / Double(members.count)
            let meanP = members.map { p[$0] }.reduce(0, +) / Double(members.count)
            naive += Double(members.count) / 500 * abs(meanY - meanP)
        }
        #expect(abs(try Metrics.expectedCalibrationError(labels: y, probabilities: p) - naive) <= exactArithmetic)
    }

    @Test("bad inputs name the metric, the row and the value")
    func errors() {
        #expect(throws: LearningError.invalidMetricInput(metric: "log_loss", row: 1, value: 1.5, expected: "a probability in [0, 1]")) {
            try Metrics.logLoss(labels: [0, 1], probabilities: [0.5, 1.5])
        }
        #expect(throws: LearningError.invalidLabel(row: 0, value: 2)) { try Metrics.brierScore(labels: [2], probabilities: [0.5]) }
        #expect(throws: LearningError.dimensionMismatch(what: "roc_auc: score count (one per label)", expected: 2, actual: 1)) {
            try Metrics.rocAUC(labels: [0, 1], scores: [0.5])
        }
        #expect(throws: LearningError.emptyData("ece: no examples")) { try Metrics.expectedCalibrationError(labels: [], probabilities: []) }
        do {
            _ = try Metrics.rocAUC(labels: [0, 1], scores: [.nan, 1])
            Issue.record("NaN score accepted")
        } catch {
            #expect("\(error)" == "roc_auc, row 0: value nan, expected a finite score")
        }
    }
}
