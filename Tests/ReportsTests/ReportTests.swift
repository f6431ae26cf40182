import Testing
import RunusCore
import Learning
@testable import Reports

@Suite("report measures against Learning's metrics")
struct MetricOracleTests {
    /// Summation order differs between the weighted pass and `Metrics` (a few ulps on ~1 values).
    static let sumTolerance = 1e-12

    @Test("unit weights reproduce Metrics; integer weights equal duplicated rows")
    func weightedMatchesOracle() throws {
        var rng = SeededGenerator(seed: 3)
        let n = 300
        // Scores on a coarse grid so that ties occur (the AUC's half-credit rule is exercised).
        let p = (0..<n).map { _ in (rng.uniform() * 20).rounded() / 20 }
        let y = p.map { rng.bernoulli($0) ? 1.0 : 0.0 }
        let prepared = PreparedScores(labels: y, probabilities: p)
        let unit = prepared.metrics()
        #expect(abs(unit.auc! - (try Metrics.rocAUC(labels: y, scores: p))) < Self.sumTolerance)
        #expect(abs(unit.logLoss - (try Metrics.logLoss(labels: y, probabilities: p))) < Self.sumTolerance)
        #expect(abs(unit.brier - (try Metrics.brierScore(labels: y, probabilities: p))) < Self.sumTolerance)
        #expect(abs(unit.ece - (try Metrics.expectedCalibrationError(labels: y, probabilities: p))) < Self.sumTolerance)
        let weights = (0..<n).map { _ in Double(rng.int(in: 0...3)) }
        var dp: [Double] = [], dy: [Double] = []
        for k in 0..<n { for _ in 0..<Int(weights[k]) { dp.append(p[k]); dy.append(y[k]) } }
        let weighted = weights.withUnsafeBufferPointer { prepared.metrics(weights: $0) }
        #expect(abs(weighted.auc! - (try Metrics.rocAUC(labels: dy, scores: dp))) < Self.sumTolerance)
        #expect(abs(weighted.logLoss - (try Metrics.logLoss(labels: dy, probabilities: dp))) < Self.sumTolerance)
        #expect(abs(weighted.brier - (try Metrics.brierScore(labels: dy, probabilities: dp))) < Self.sumTolerance)
        #expect(abs(weighted.ece - (try Metrics.expectedCalibrationError(labels: dy, probabilities: dp))) < Self.sumTolerance)
    }

    @Test("the unthinned ROC curve's trapezoid area is the AUC; histogram and reliability count every example")
    func curvesAgreeWithAUC() throws {
        let fixture = try ReportFixture(evaluated: 400)
        let y = fixture.examples.map(\.label), p = fixture.examples.map { $0.probabilities[0] }
        var c = ReportConfiguration()
        c.curvePoints = 1_000_000
        let curves = try ModelCurves(prepared: PreparedScores(labels: y, probabilities: p), configuration: c)
        var area = 0.0
        for k in 1..<curves.roc.count {
            area += (curves.roc[k].x - curves.roc[k - 1].x) * (curves.roc[k].y + curves.roc[k - 1].y) / 2
        }
        #expect(abs(area - (try Metrics.rocAUC(labels: y, scores: p))) < Self.sumTolerance)
        #expect(curves.roc.first == CurvePoint(x: 0, y: 0, threshold: 1))
        #expect(curves.roc.last!.x == 1 && curves.roc.last!.y == 1)
        #expect(curves.precisionRecall.last!.x == 1)
        #expect(curves.histogram.reduce(0) { $0 + $1.completed + $1.failed } == y.count)
        #expect(curves.reliability.reduce(0) { $0 + $1.count } == y.count)
        #expect(ModelCurves.thin(curves.roc, to: 50).count == 50)
    }
}

@Suite("bootstrap intervals")
struct BootstrapTests {
    @Test("every interval contains its point estimate, for both resampling units",
          arguments: [ReportConfiguration.ResampleUnit.runner, .example])
    func intervalsContainEstimate(unit: ReportConfiguration.ResampleUnit) throws {
        let report = try ReportFixture(evaluated: 400).report(resamples: 200, unit: unit)
        for model in report.models {
            for name in MetricSet.names {
                let i = try #require(model.metrics[name])
                #expect(i.lower! <= i.estimate && i.estimate <= i.upper!, "\(model.name) \(name): \(i)")
            }
        }
        for (name, i) in report.differences! {
            #expect(i.lower! <= i.estimate && i.estimate <= i.upper!, "difference \(name): \(i)")
        }
    }

    /// Intervals shrink like 1/√n: 9× the data should give about a third of the width; 0.6 leaves
    /// room for bootstrap noise at 300 resamples.
    static let maximumWidthRatio = 0.6

    @Test("intervals shrink with more data (9× the examples: well under 0.6× the width)")
    func intervalsShrink() throws {
        let small = try ReportFixture(evaluated: 200, runners: 20).report(resamples: 300, unit: .example)
        let large = try ReportFixture(evaluated: 1_800, runners: 180).report(resamples: 300, unit: .example)
        for name in MetricSet.names {
            let a = small.models[1].metrics[name]!, b = large.models[1].metrics[name]!
            let ratio = (b.upper! - b.lower!) / (a.upper! - a.lower!)
            #expect(ratio < Self.maximumWidthRatio, "\(name): width ratio \(ratio)")
        }
    }

    @Test("the same model twice gives zero differences, zero-width intervals and an 'identical' verdict")
    func sameModelTwice() throws {
        let f = try ReportFixture(evaluated: 300)
        let examples = f.examples.map { e in
            EvaluatedExample(label: e.label, probabilities: [e.probabilities[1], e.probabilities[1]], kind: e.kind, runner: e.runner,
                             experience: e.experience, month: e.month, day: e.day)
        }
        var c = ReportConfiguration()
        c.resamples = 200
        let report = try ReportBuilder.build(examples: examples, models: [f.lr, f.lr], features: f.features,
                                             data: ReportFixture.data(examples), configuration: c)
        for (name, i) in report.differences! {
            #expect(i.estimate == 0 && i.lower == 0 && i.upper == 0, "\(name): \(i)")
        }
        for s in report.slices { for (_, i) in s.difference! { #expect(i.estimate == 0 && i.lower == 0 && i.upper == 0) } }
        #expect(report.verdict!.contains("identical"))
    }

    @Test("the same seed gives the same report bytes; another seed moves the intervals, not the estimates")
    func seeded() throws {
        let f = try ReportFixture(evaluated: 300)
        let a = ReportJSON.bytes(try f.report(resamples: 150)), b = ReportJSON.bytes(try f.report(resamples: 150))
        #expect(a == b)
        var c = ReportConfiguration()
        c.resamples = 150
        c.seed = 1
        let other = try ReportBuilder.build(examples: f.examples, models: [f.gbdt, f.lr], features: nil,
                                            data: ReportFixture.data(f.examples), configuration: c)
        let first = try f.report(resamples: 150)
        #expect(other.models[0].metrics["auc"]!.estimate == first.models[0].metrics["auc"]!.estimate)
        #expect(other.models[0].metrics["auc"]!.lower != first.models[0].metrics["auc"]!.lower)
    }

    @Test("percentile bounds interpolate order statistics (numpy's default)")
    func quantiles() {
        let v = [1.0, 2, 3, 4, 5]
        #expect(Bootstrap.quantile(v, 0) == 1 && Bootstrap.quantile(v, 1) == 5)
        #expect(Bootstrap.quantile(v, 0.5) == 3 && Bootstrap.quantile(v, 0.125) == 1.5)
    }
}

@Suite("report content")
struct ReportContentTests {
    @Test("runner experience classes follow the run-count thresholds")
    func experience() {
        #expect(RunnerExperience(earlierRuns: 0) == .new && RunnerExperience(earlierRuns: 9) == .new)
        #expect(RunnerExperience(earlierRuns: 10) == .regular && RunnerExperience(earlierRuns: 49) == .regular)
        #expect(RunnerExperience(earlierRuns: 50) == .veteran)
    }

    @Test("policy: bands partition the scored offers, realised rates count tried ones only; variety counts kinds")
    func policy() throws {
        let f = try ReportFixture(evaluated: 300)
        let p = try f.report(resamples: 100).policy
        #expect(p.offers == f.recommended.count && p.tried == 300)
        #expect(p.scored == f.recommended.filter { $0.probabilities != nil }.count)
        for v in p.models {
            #expect(v.bands.reduce(0) { $0 + $1.offers } == p.scored)
            #expect(v.bands.reduce(0) { $0 + $1.tried } == 300)
            #expect(abs(v.bands.reduce(0) { $0 + $1.share } - 1) < 1e-12)
        }
        let inBand = f.recommended.filter { r in r.probabilities.map { (0.65...0.85).contains($0[0]) } ?? false }
        #expect(p.models[0].bands[1].offers == inBand.count)
        #expect(p.variety.distinctKinds == 6)   // five modelled kinds and "hills"
        #expect(p.variety.meanKindsPerRunnerDay > 1 && p.variety.normalisedEntropy > 0.8)
    }

    @Test("importance: GBDT gain shares sum to 1, LR gives standardised coefficients; the informative feature ranks first")
    func importance() throws {
        let report = try ReportFixture(evaluated: 400).report(resamples: 100)
        let gbdt = try #require(report.models[0].importance), lr = try #require(report.models[1].importance)
        #expect(abs(gbdt.rows.compactMap(\.gainShare).reduce(0, +) - 1) < 1e-12)
        #expect(lr.rows.allSatisfy { $0.gainShare == nil && $0.standardisedCoefficient != nil })
        #expect(ReportText.importanceOrder(gbdt).first?.feature == "difficulty")
        #expect(ReportText.importanceOrder(lr).first?.feature == "difficulty")
    }

    @Test("bad inputs throw and name the row")
    func badInput() throws {
        let f = try ReportFixture(evaluated: 100)
        var examples = f.examples
        examples[7].probabilities = [0.5]
        #expect(throws: ReportError.badExample(row: 7, problem: "1 probabilities for 2 models")) {
            try ReportBuilder.build(examples: examples, models: [f.gbdt, f.lr], features: nil, data: ReportFixture.data(examples))
        }
        #expect(throws: ReportError.self) {
            try ReportBuilder.build(examples: [], models: [f.lr], features: nil, data: ReportFixture.data(f.examples))
        }
    }

    @Test("numbers print with fixed decimals, a real minus sign and thousands separators")
    func formatting() {
        #expect(ReportFormat.number(0.12345, digits: 3) == "0.123")
        #expect(ReportFormat.number(-0.0004, digits: 3) == "0.000")
        #expect(ReportFormat.number(-1.5, digits: 1) == "−1.5")
        #expect(ReportFormat.integer(1_234_567) == "1,234,567")
        #expect(ReportFormat.percent(0.715) == "71.5%")
        let ticks = ReportCharts.niceTicks(-0.05...0.06), expected = [-0.04, -0.02, 0, 0.02, 0.04, 0.06]
        #expect(ticks.count == expected.count && zip(ticks, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "\(ticks)")
    }
}

@Suite("evaluated models")
struct EvaluatedModelTests {
    @Test("a GBDT with a stored calibration is evaluated on the calibrated probabilities the daemon serves")
    func calibratedTrees() throws {
        let fixture = try ReportFixture()
        guard case .gradientBoosting(let trees, _, _) = fixture.gbdt.parameters else {
            Issue.record("the fixture's GBDT is not a gradient-boosting model"); return
        }
        let raw = trees.rawScores(x: fixture.features)
        let labels = fixture.examples.map(\.label)
        // A Platt map fitted on a shifted score, so that it differs from the plain sigmoid.
        let platt = try Calibration.Platt.fit(scores: raw.map { 0.5 * $0 - 1 }, labels: labels)
        let calibrated = EvaluatedModel(name: "GBDT", version: "c", featureNames: fixture.gbdt.featureNames,
                                        parameters: .gradientBoosting(trees, calibration: .platt(platt)))
        let p = calibrated.probabilities(fixture.features)
        let plain = fixture.gbdt.probabilities(fixture.features)
        #expect(p.count == raw.count)
        #expect(zip(p, raw).allSatisfy { $0 == platt.probability(score: $1) })
        #expect(zip(p, plain).contains { $0 != $1 }, "calibration changed nothing")
    }
}
