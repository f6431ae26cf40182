#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Learning
@testable import Reports

/// A small fixed simulated evaluation set with known truth: runners with a skill, missions of
/// five kinds with a relative difficulty, P(completed) = σ(2.2 − 3·difficulty + skill + a kink
/// the linear model cannot bend), labels drawn from it. An LR and a GBDT are fitted with the
/// Learning API on the first 70% of examples by time and both score the rest. Everything is
/// seeded, so the report built from it is fixed (the golden test).
struct ReportFixture {
    static let kinds = ["distance", "duration", "pace", "negative_split", "distance_in_time"]
    static let featureNames = ["difficulty", "skill", "days_since_last_run", "kind_pace"]

    let examples: [EvaluatedExample]
    let features: Matrix
    let lr: EvaluatedModel, gbdt: EvaluatedModel
    let recommended: [RecommendedMission]

    /// `examples` evaluated rows (about 30% of all generated), `runners` runners, seed `seed`;
    /// `noiseFeatures` extra uninformative columns (the benchmark matches the schema's width).
    init(evaluated: Int = 600, runners: Int = 40, seed: UInt64 = 9, noiseFeatures: Int = 0) throws {
        var rng = SeededGenerator(seed: seed)
        let total = Int((Double(evaluated) / 0.3).rounded())
        var rows: [[Double]] = [], labels: [Double] = []
        var meta: [(runner: Int, kind: Int, day: Int, earlierRuns: Int)] = []
        let skills = (0..<runners).map { _ in rng.gaussian(mean: 0, sd: 0.6) }
        for i in 0..<total {
            let runner = rng.int(in: 0...(runners - 1)), kind = rng.int(in: 0...4)
            let difficulty = rng.uniform(-0.5, 1.5), days = rng.uniform(0, 3)
            let kink = difficulty > 1 ? -1.2 * (difficulty - 1) : 0
            let z = 2.2 - 3 * difficulty + skills[runner] - 0.3 * days + kink + (kind == 2 ? -0.4 : 0)
            let p = 1 / (1 + exp(-z))
            rows.append([difficulty, skills[runner] + rng.gaussian(mean: 0, sd: 0.2), days, kind == 2 ? 1 : 0]
                        + (0..<noiseFeatures).map { _ in rng.gaussian() })
            labels.append(rng.bernoulli(p) ? 1 : 0)
            // Days 0..<120 in time order; earlier runs grow with time and vary by runner.
            let day = i * 120 / total
            meta.append((runner, kind, day, day / 2 + (runner % 5) * 12))
        }
        let cut = total - evaluated
        let width = 4 + noiseFeatures
        let names = Self.featureNames + (0..<noiseFeatures).map { "noise_\($0)" }
        let trainX = Matrix(rowArrays: Array(rows[..<cut]), cols: width), trainY = Array(labels[..<cut])
        let lrModel = try LogisticRegression.fit(x: trainX, y: trainY, configuration: .init(l2: 1))
        var c = GradientBoosting.Configuration()
        c.numIterations = 60; c.learningRate = 0.1; c.numLeaves = 7; c.minDataInLeaf = 20; c.seed = seed; c.parallel = false
        let gbdtModel = try GradientBoosting.fit(x: trainX, y: trainY, configuration: c)
        lr = EvaluatedModel(name: "LR", version: "lr-fixture", featureNames: names, parameters: .logisticRegression(lrModel))
        gbdt = EvaluatedModel(name: "GBDT", version: "gbdt-fixture", featureNames: names, parameters: .gradientBoosting(gbdtModel))
        features = Matrix(rowArrays: Array(rows[cut...]), cols: width)
        let pLR = lr.probabilities(features), pGBDT = gbdt.probabilities(features)
        var examples: [EvaluatedExample] = []
        for k in 0..<evaluated {
            let m = meta[cut + k]
            let date = CivilDate(daysSinceEpoch: CivilDate(year: 2026, month: 5, day: 1)!.daysSinceEpoch + m.day).description
            examples.append(EvaluatedExample(label: labels[cut + k], probabilities: [pGBDT[k], pLR[k]], kind: Self.kinds[m.kind],
                                             runner: "runner-\(m.runner)", experience: RunnerExperience(earlierRuns: m.earlierRuns),
                                             month: String(date.prefix(7)), day: date))
        }
        self.examples = examples
        // The policy offered two more missions per tried one, untried (no outcome), one unscored.
        var recommended = examples.map(RecommendedMission.init)
        for (k, e) in examples.enumerated() where k % 2 == 0 {
            recommended.append(RecommendedMission(runner: e.runner, day: e.day, kind: Self.kinds[(k / 2) % 5],
                                                  probabilities: e.probabilities.map { min(1, $0 * 1.1) }, outcome: nil))
            recommended.append(RecommendedMission(runner: e.runner, day: e.day, kind: "hills", probabilities: nil, outcome: nil))
        }
        self.recommended = recommended
    }

    /// The two-model report (GBDT candidate, LR reference) with `resamples` bootstrap draws.
    func report(resamples: Int = 300, unit: ReportConfiguration.ResampleUnit = .runner) throws -> EvaluationReport {
        var c = ReportConfiguration()
        c.resamples = resamples
        c.sliceResamples = 100
        c.resampleUnit = unit
        c.permutationRepeats = 2
        return try ReportBuilder.build(examples: examples, recommended: recommended, models: [gbdt, lr], features: features,
                                       data: Self.data(examples), configuration: c)
    }

    static func data(_ examples: [EvaluatedExample]) -> EvaluationReport.DataSummary {
        EvaluationReport.DataSummary(examples: examples.count, completed: Int(examples.reduce(0) { $0 + $1.label }),
                                     runners: Set(examples.map(\.runner)).count, firstDay: examples.map(\.day).min()!,
                                     lastDay: examples.map(\.day).max()!, period: "fixture: last 30% by time", source: "ReportFixture")
    }
}
