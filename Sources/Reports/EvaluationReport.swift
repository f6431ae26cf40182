import Learning

/// Everything an offline evaluation report shows, computed once; the renderers (HTML, Markdown,
/// JSON) only format it. Build it with `ReportBuilder.build`.
public struct EvaluationReport: Sendable {
    /// One model's results.
    public struct ModelSection: Sendable {
        public let name: String, version: String, kind: String
        /// "auc", "log_loss", "brier", "ece" with percentile bootstrap intervals.
        public let metrics: [String: Interval]
        /// Mean predicted completion over the period, in [0, 1].
        public let meanPredicted: Double
        public let curves: ModelCurves
        /// Nil when the report was built without feature rows.
        public let importance: FeatureImportance?
    }

    /// What was evaluated.
    public struct DataSummary: Sendable, Equatable {
        public let examples: Int, completed: Int, runners: Int
        /// First and last local day of the period, "YYYY-MM-DD".
        public let firstDay: String, lastDay: String
        /// How the period was chosen, one sentence (e.g. "last 20% of examples by time").
        public let period: String
        /// Where the examples came from, e.g. the database path's file name.
        public let source: String

        public var baseRate: Double { Double(completed) / Double(examples) }

        public init(examples: Int, completed: Int, runners: Int, firstDay: String, lastDay: String, period: String, source: String) {
            self.examples = examples; self.completed = completed; self.runners = runners
            self.firstDay = firstDay; self.lastDay = lastDay; self.period = period; self.source = source
        }
    }

    public let data: DataSummary
    public let configuration: ReportConfiguration
    public let models: [ModelSection]
    /// First model minus second (paired bootstrap); nil with one model.
    public let differences: [String: Interval]?
    /// One plain sentence comparing the two models; nil with one model.
    public let verdict: String?
    public let slices: [SliceRow]
    /// One reliability diagram per mission kind present, by name.
    public let kindReliability: [KindReliability]
    public let policy: PolicySummary

    /// Measures where lower is better (the others, AUC, are higher-better).
    public static let lowerIsBetter: Set<String> = ["log_loss", "brier", "ece"]
    /// Display names of the measures, with units.
    public static let metricTitles: [String: String] = [
        "auc": "ROC AUC", "log_loss": "Log loss (nats)", "brier": "Brier score", "ece": "ECE (10 bins)",
    ]
}

/// Builds reports from evaluated examples.
public enum ReportBuilder {
    /// The report of `models` (one or two; with two, the first is the candidate and the second
    /// the reference it is compared with) on `examples`. `features`, when given, has one row per
    /// example in the models' feature order and enables permutation importance. `recommended`
    /// lists every mission the policy offered in the period (tried or not); nil: the examples.
    public static func build(examples: [EvaluatedExample], recommended: [RecommendedMission]? = nil,
                             models: [EvaluatedModel], features: Matrix?,
                             data: EvaluationReport.DataSummary,
                             configuration c: ReportConfiguration = ReportConfiguration()) throws -> EvaluationReport {
        c.validate()
        precondition(models.count == 1 || models.count == 2, "a report compares 1 or 2 models, not \(models.count)")
        guard !examples.isEmpty else { throw ReportError.noExamples(data.period) }
        for (i, e) in examples.enumerated() {
            if e.label != 0 && e.label != 1 { throw ReportError.badExample(row: i, problem: "label \(e.label) is not 0 or 1") }
            if e.probabilities.count != models.count {
                throw ReportError.badExample(row: i, problem: "\(e.probabilities.count) probabilities for \(models.count) models")
            }
            for p in e.probabilities where !(0...1).contains(p) {
                throw ReportError.badExample(row: i, problem: "probability \(p) outside [0, 1]")
            }
        }
        for (i, r) in (recommended ?? []).enumerated() {
            if let p = r.probabilities, p.count != models.count || !p.allSatisfy({ (0...1).contains($0) }) {
                throw ReportError.badExample(row: i, problem: "recommended mission: probabilities \(p) are not \(models.count) values in [0, 1]")
            }
            if let y = r.outcome, y != 0 && y != 1 { throw ReportError.badExample(row: i, problem: "recommended mission: outcome \(y) is not 0 or 1") }
        }
        if let features, features.rows != examples.count {
            throw ReportError.badExample(row: features.rows, problem: "\(features.rows) feature rows for \(examples.count) examples")
        }
        let labels = examples.map(\.label)
        let prepared = models.indices.map { m in
            PreparedScores(labels: labels, probabilities: examples.map { $0.probabilities[m] })   // ECE's 10 bins (0303)
        }
        let (clusters, clusterCount) = clusters(examples, unit: c.resampleUnit)
        let bootstrap = Bootstrap(prepared: prepared, clusters: clusters, clusterCount: clusterCount,
                                  resamples: c.resamples, confidence: c.confidence)
        let draws = bootstrap.draws(seed: c.seed, stream: 0xB007)
        // Point estimates from Learning's own definitions (record 0303), intervals from the draws.
        let points = try models.indices.map { m -> MetricSet in
            let p = prepared[m].probability
            return MetricSet(auc: try? Metrics.rocAUC(labels: labels, scores: p),
                             logLoss: try Metrics.logLoss(labels: labels, probabilities: p),
                             brier: try Metrics.brierScore(labels: labels, probabilities: p),
                             ece: try Metrics.expectedCalibrationError(labels: labels, probabilities: p))
        }
        var sections: [EvaluationReport.ModelSection] = []
        for m in models.indices {
            let importance = try features.map { x in
                try FeatureImportance.compute(model: models[m], x: x, labels: labels, configuration: c, stream: 0x1A0 + UInt64(m))
            }
            sections.append(.init(name: models[m].name, version: models[m].version, kind: models[m].kind,
                                  metrics: bootstrap.intervals(point: points[m], draws: draws[m]),
                                  meanPredicted: prepared[m].probability.reduce(0, +) / Double(examples.count),
                                  curves: try ModelCurves(prepared: prepared[m], configuration: c), importance: importance))
        }
        var differences: [String: Interval]?
        var verdict: String?
        if models.count == 2 {
            let d = bootstrap.differences(pointA: points[0], pointB: points[1], drawsA: draws[0], drawsB: draws[1])
            differences = d
            verdict = Verdict.sentence(candidate: models[0].name, reference: models[1].name, differences: d,
                                       confidence: c.confidence)
        }
        return EvaluationReport(data: data, configuration: c, models: sections, differences: differences, verdict: verdict,
                                slices: SliceRow.compute(examples: examples, models: models.count, configuration: c),
                                kindReliability: try KindReliability.compute(examples: examples, models: models.count, configuration: c),
                                policy: PolicySummary.compute(recommended: recommended ?? examples.map(RecommendedMission.init),
                                                              modelNames: models.map(\.name), band: c.targetBand))
    }

    /// Each example's runner index (runner unit) or nil (example unit), and the cluster count.
    static func clusters(_ examples: [EvaluatedExample], unit: ReportConfiguration.ResampleUnit) -> ([Int32]?, Int) {
        guard unit == .runner else { return (nil, examples.count) }
        var index: [String: Int32] = [:]
        let ids = examples.map { e -> Int32 in
            if let i = index[e.runner] { return i }
            let i = Int32(index.count)
            index[e.runner] = i
            return i
        }
        return (ids, index.count)
    }
}

/// Errors of report building: they name the place, the bad value and what was expected.
public enum ReportError: Error, CustomStringConvertible, Equatable {
    case noExamples(String)
    case badExample(row: Int, problem: String)

    public var description: String {
        switch self {
        case .noExamples(let period): return "no evaluated examples in the period (\(period)); widen --from/--to"
        case .badExample(let row, let problem): return "evaluated example \(row): \(problem)"
        }
    }
}
