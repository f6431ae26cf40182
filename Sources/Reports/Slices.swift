/// The headline measures on one group of examples (a mission kind, an experience class, a month).
public struct SliceRow: Sendable, Equatable {
    /// "kind", "experience" or "month".
    public let dimension: String
    public let value: String
    public let count: Int, completed: Int
    /// Mean predicted completion of each model, in [0, 1].
    public let meanPredicted: [Double]
    /// Per model, each measure with its bootstrap interval (`ReportConfiguration.sliceResamples`).
    public let metrics: [[String: Interval]]
    /// First model minus second, paired; nil with one model.
    public let difference: [String: Interval]?
    /// Fewer than `ReportConfiguration.minimumSliceSize` examples: shown, not to be read.
    public let tooSmall: Bool

    public var completionRate: Double { Double(completed) / Double(count) }
}

extension SliceRow {
    /// Slice dimensions in report order with each example's value.
    static let dimensions: [(name: String, value: @Sendable (EvaluatedExample) -> String)] = [
        ("kind", { $0.kind }),
        ("experience", { $0.experience.rawValue }),
        ("month", { $0.month }),
    ]

    static func compute(examples: [EvaluatedExample], models: Int, configuration c: ReportConfiguration) -> [SliceRow] {
        var rows: [SliceRow] = []
        var stream: UInt64 = 0x51_1CE
        for (name, value) in dimensions {
            var groups: [String: [Int]] = [:]
            for (i, e) in examples.enumerated() { groups[value(e), default: []].append(i) }
            let keys = name == "experience"
                ? RunnerExperience.allCases.map(\.rawValue).filter { groups[$0] != nil }
                : groups.keys.sorted()
            for key in keys {
                let members = groups[key]!
                let subset = members.map { examples[$0] }
                let labels = subset.map(\.label)
                let prepared = (0..<models).map { m in PreparedScores(labels: labels, probabilities: subset.map { $0.probabilities[m] }) }
                let (clusters, clusterCount) = ReportBuilder.clusters(subset, unit: c.resampleUnit)
                let bootstrap = Bootstrap(prepared: prepared, clusters: clusters, clusterCount: clusterCount,
                                          resamples: c.sliceResamples, confidence: c.confidence)
                stream += 1
                let draws = bootstrap.draws(seed: c.seed, stream: stream)
                let points = prepared.map { $0.metrics() }
                let metrics = (0..<models).map { bootstrap.intervals(point: points[$0], draws: draws[$0]) }
                let difference = models == 2
                    ? bootstrap.differences(pointA: points[0], pointB: points[1], drawsA: draws[0], drawsB: draws[1]) : nil
                rows.append(SliceRow(dimension: name, value: key, count: subset.count, completed: Int(labels.reduce(0, +)),
                                     meanPredicted: (0..<models).map { m in subset.reduce(0) { $0 + $1.probabilities[m] } / Double(subset.count) },
                                     metrics: metrics, difference: difference, tooSmall: subset.count < c.minimumSliceSize))
            }
        }
        return rows
    }
}
