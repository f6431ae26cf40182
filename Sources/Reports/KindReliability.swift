import Learning

/// The reliability diagram of one mission kind: every model's bins on the kind's examples
/// (record 0703's bins and Wilson bars, one diagram per kind; issue 25 item 3).
public struct KindReliability: Sendable, Equatable {
    /// Wire name of the kind, e.g. "hills".
    public let kind: String
    public let count: Int, completed: Int
    /// Per model (report order): its bins on this kind.
    public let reliability: [[ReliabilityPoint]]
    /// Per model: 10-bin ECE on this kind (`Metrics.expectedCalibrationError`).
    public let ece: [Double]

    /// One entry per kind present in `examples`, by name.
    static func compute(examples: [EvaluatedExample], models: Int, configuration c: ReportConfiguration) throws -> [KindReliability] {
        var groups: [String: [Int]] = [:]
        for (i, e) in examples.enumerated() { groups[e.kind, default: []].append(i) }
        return try groups.keys.sorted().map { kind in
            let members = groups[kind] ?? []
            let labels = members.map { examples[$0].label }
            var bins: [[ReliabilityPoint]] = [], eces: [Double] = []
            for m in 0..<models {
                let p = members.map { examples[$0].probabilities[m] }
                bins.append(try ModelCurves.reliabilityPoints(labels: labels, probabilities: p, bins: c.reliabilityBins))
                eces.append(try Metrics.expectedCalibrationError(labels: labels, probabilities: p))
            }
            return KindReliability(kind: kind, count: members.count, completed: Int(saturating: labels.reduce(0, +)),
                                   reliability: bins, ece: eces)
        }
    }
}
