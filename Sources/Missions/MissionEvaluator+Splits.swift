import RunusCore
import Tracking

extension MissionEvaluator {
    /// Even pace and progression, on the full splits of `MetricsConfiguration.splitLength`
    /// (1 km by default); the partial last split is left out (record 0211).
    static func checkSplits(_ spec: MissionSpec, run: MissionRun, tolerance: MissionTolerance, _ v: inout Verdict) {
        let metrics = run.metrics
        let length = run.configuration.splitLength
        let full = metrics.splits.filter { $0.distance >= length - 1e-6 && $0.duration > 0 }
        switch spec {
        case .evenPace(let minDistance, let maxSpread):
            _ = distanceCheck(minDistance, metrics, tolerance, &v)
            guard full.count >= 2 else {
                v.add(Double(full.count) / 2 * failedProgressCap, "\(full.count) full split(s); even pace needs at least 2")
                return
            }
            let fastest = full.min { $0.pace < $1.pace }!, slowest = full.max { $0.pace < $1.pace }!
            let spread = slowest.pace - fastest.pace
            // Each split's pace carries the pace slack, so their difference carries two (record 0211).
            let limit = maxSpread + 2 * tolerance.paceSlack
            v.add(spread <= limit ? 1 : limit / spread,
                  "splits from \(Pace.format(fastest.pace))/km (km \(fastest.index)) to \(Pace.format(slowest.pace))/km "
                    + "(km \(slowest.index)): spread \(Int(saturating: spread.rounded())) s/km (limit \(Int(saturating: maxSpread.rounded())), \(Int(saturating: limit.rounded())) accepted)")
            for s in full {
                let extreme = s.index == fastest.index || s.index == slowest.index
                v.details.append(MissionEvidence(.split, index: s.index, from: Double(s.index - 1) * length,
                                                 to: Double(s.index) * length, value: s.pace, unit: "s/km",
                                                 passed: spread <= limit || !extreme))
            }

        case .progression(let n):
            // Longest chain of consecutive full splits, each strictly faster than the one before.
            var bestStart = 0, bestLength = full.isEmpty ? 0 : 1
            var start = 0
            for i in full.indices.dropFirst() {
                if full[i].pace < full[i - 1].pace && full[i].index == full[i - 1].index + 1 {
                    if i - start + 1 > bestLength { bestLength = i - start + 1; bestStart = start }
                } else {
                    start = i
                }
            }
            let chain = full.isEmpty ? [] : Array(full[bestStart..<bestStart + bestLength])
            v.count = MissionCount(done: min(bestLength, n), target: n, unit: "km")
            let paces = chain.map { Pace.format($0.pace) }.joined(separator: ", ")
            v.add(Double(bestLength) / Double(n),
                  bestLength == 0 ? "no full km split yet"
                    : "\(bestLength) km getting faster (km \(chain.first!.index)–\(chain.last!.index): \(paces)), \(n) asked")
            for s in chain {
                v.details.append(MissionEvidence(.split, index: s.index, from: Double(s.index - 1) * length,
                                                 to: Double(s.index) * length, value: s.pace, unit: "s/km",
                                                 passed: bestLength >= n))
            }
        default:
            preconditionFailure("checkSplits: \(spec.kind.rawValue) is not a split kind")
        }
    }
}
