import RunusCore
import Testing
@testable import Learning

#if canImport(Glibc)
import Glibc
#endif

@Suite("Calibration and ranking metrics")
struct CalibrationTests {
    @Test("Platt recovers the slope and intercept that generated the labels")
    func plattRecovers() throws {
        var rng = SeededGenerator(seed: 4)
        let scores = (0..<20_000).map { _ in rng.gaussian(mean: 0, sd: 1.5) }
        let labels = scores.map { rng.bernoulli(1 / (1 + exp(-(2 * $0 - 1)))) ? 1.0 : 0.0 }
        let platt = try Calibration.Platt.fit(scores: scores, labels: labels)
        // Tolerance: sampling error of a and b at n = 20,000 is ~0.03; 0.1 leaves room, while a
        // wrong sign or a missing intercept is off by >= 1.
        #expect(abs(platt.slope - 2) < 0.1)
        #expect(abs(platt.intercept + 1) < 0.1)
        #expect(platt.iterations < 20)
        #expect(platt.probability(score: 0.5) > 0.45 && platt.probability(score: 0.5) < 0.55)
    }

    @Test("isotonic pools adjacent violators: a hand-checked case and monotone output")
    func isotonicPools() throws {
        let iso = try Calibration.Isotonic.fit(scores: [1, 2, 3, 4, 5], labels: [1, 0, 1, 0, 1])
        // Blocks: {1,2} → 0.5, {3,4} → 0.5 (equal to the previous block, no violation), {5} → 1.
        #expect(iso.probability(score: 1) == 0.5)
        #expect(iso.probability(score: 4) == 0.5)
        #expect(iso.probability(score: 5) == 1)
        #expect(iso.probability(score: 4.5) == 0.75)   // linear between breakpoints
        #expect(iso.probability(score: -10) == 0.5 && iso.probability(score: 10) == 1)   // clipped
        var rng = SeededGenerator(seed: 9)
        let scores = (0..<2_000).map { _ in rng.uniform() }
        let labels = scores.map { rng.bernoulli($0 * $0) ? 1.0 : 0.0 }
        let fit = try Calibration.Isotonic.fit(scores: scores, labels: labels)
        #expect(zip(fit.values, fit.values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(zip(fit.thresholds, fit.thresholds.dropFirst()).allSatisfy { $0 < $1 })
        // Isotonic fits preserve the mean label (each pooled block keeps its sum).
        let mean = scores.map(fit.probability).reduce(0, +) / Double(scores.count)
        #expect(abs(mean - labels.reduce(0, +) / Double(labels.count)) < 1e-12)
    }

    @Test("precision and recall at k against a hand count, ties by row order")
    func precisionRecall() throws {
        let labels: [Double] = [1, 0, 1, 0, 1, 0]
        let scores: [Double] = [0.9, 0.8, 0.8, 0.1, 0.5, 0.7]
        let top2 = try Metrics.precisionRecallAtK(labels: labels, scores: scores, k: 2)   // rows 0, 1 (tie 1 before 2)
        #expect(top2.precision == 0.5 && top2.recall == 1.0 / 3)
        let top3 = try Metrics.precisionRecallAtK(labels: labels, scores: scores, k: 3)   // rows 0, 1, 2
        #expect(top3.precision == 2.0 / 3 && top3.recall == 2.0 / 3)
        let all = try Metrics.precisionRecallAtK(labels: labels, scores: scores, k: 100)
        #expect(all.precision == 0.5 && all.recall == 1)
    }

    @Test("the reliability table adds up to the expected calibration error")
    func reliabilityMatchesECE() throws {
        var rng = SeededGenerator(seed: 2)
        let p = (0..<5_000).map { _ in rng.uniform() }
        let y = p.map { rng.bernoulli(min(1, $0 * 1.2)) ? 1.0 : 0.0 }
        let table = try Metrics.reliabilityTable(labels: y, probabilities: p)
        #expect(table.count == 10 && table.map(\.count).reduce(0, +) == 5_000)
        var ece = 0.0
        for bin in table where bin.count > 0 { ece += Double(bin.count) / 5_000 * abs(bin.observedRate - bin.meanPredicted) }
        // Tolerance: the two sums associate differently; 1e-12 is rounding only.
        #expect(abs(ece - (try Metrics.expectedCalibrationError(labels: y, probabilities: p))) < 1e-12)
    }
}
