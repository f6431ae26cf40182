import Foundation
import Testing
import RunusCore
import Learning
@testable import Reports

/// `make bench-report` (not a test; release build): time to build and render a two-model report
/// for 100,000 evaluated examples, median of BENCH_RUNS after one warm-up, next to the naive
/// bootstrap (resample arrays, then `Learning.Metrics`, which sorts for every AUC) measured in
/// the same run on the same data.
@Suite("report benchmark (make bench-report only)")
struct ReportBenchmark {
    static let enabled = ProcessInfo.processInfo.environment["RUNUS_BENCH_REPORT"] == "1"
    static let rows = Int(ProcessInfo.processInfo.environment["BENCH_REPORT_ROWS"] ?? "") ?? 100_000
    static let runs = Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? "") ?? 3

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

    // Enabled only by make bench-report: minutes in a debug build, and timing is not a test.
    @Test("build and render a two-model report for 100,000 examples", .enabled(if: enabled))
    func benchmark() throws {
        let fixture = try ReportFixture(evaluated: Self.rows, runners: Self.rows / 30, seed: 11, noiseFeatures: 12)
        let c = ReportConfiguration()
        var build: [Double] = [], render: [Double] = []
        var report: EvaluationReport?
        for run in 0...Self.runs {
            let b = try Self.seconds {
                report = try ReportBuilder.build(examples: fixture.examples, recommended: fixture.recommended,
                                                 models: [fixture.gbdt, fixture.lr], features: fixture.features,
                                                 data: ReportFixture.data(fixture.examples), configuration: c)
            }
            let r = Self.seconds {
                _ = ReportHTML.render(report!); _ = ReportMarkdown.render(report!); _ = ReportJSON.bytes(report!)
            }
            if run > 0 { build.append(b); render.append(r) }   // run 0 warms up
        }
        // The naive bootstrap for comparison: 20 resamples of one model, per-resample cost scaled to
        // the report's resamples × 2 models (headline only; the report also does slices).
        let y = fixture.examples.map(\.label), p = fixture.examples.map { $0.probabilities[0] }
        var rng = SeededGenerator(seed: 1)
        let naiveResamples = 20
        let naive = try Self.seconds {
            for _ in 0..<naiveResamples {
                let idx = (0..<y.count).map { _ in Bootstrap.index(below: y.count, &rng) }
                let ry = idx.map { y[$0] }, rp = idx.map { p[$0] }
                _ = try Metrics.rocAUC(labels: ry, scores: rp); _ = try Metrics.logLoss(labels: ry, probabilities: rp)
                _ = try Metrics.brierScore(labels: ry, probabilities: rp); _ = try Metrics.expectedCalibrationError(labels: ry, probabilities: rp)
            }
        }
        let prepared = PreparedScores(labels: y, probabilities: p)
        let bootstrap = Bootstrap(prepared: [prepared], clusters: nil, clusterCount: y.count, resamples: naiveResamples, confidence: 0.95)
        let ours = Self.seconds { _ = bootstrap.draws(seed: 1, stream: 1) }
        print("""
        report benchmark: \(Self.rows) evaluated examples, \(fixture.features.cols) features, 2 models (GBDT, LR), \(c.resamples) resamples (runner unit), \
        \(c.sliceResamples) per slice, permutation on \(c.permutationRows) rows × \(c.permutationRepeats)
          build  median \(String(format: "%.2f", Self.median(build))) s  (runs: \(build.map { String(format: "%.2f", $0) }.joined(separator: ", ")))
          render median \(String(format: "%.3f", Self.median(render))) s  (HTML + Markdown + JSON)
          bootstrap per resample per model: ours \(String(format: "%.2f", ours / Double(naiveResamples) * 1000)) ms, \
        naive (resample + sort) \(String(format: "%.2f", naive / Double(naiveResamples) * 1000)) ms: \
        \(String(format: "%.1f", naive / ours))× faster
        """)
        #expect(Self.median(build) + Self.median(render) > 0)
    }
}
