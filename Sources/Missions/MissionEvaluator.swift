import RunusCore
import Tracking

/// Outcome of checking one run against one mission.
public enum MissionStatusResult: String, Sendable {
    case completed, failed
    case notApplicable = "not_applicable"
}

public struct MissionEvaluation: Sendable, Equatable {
    public let status: MissionStatusResult
    /// How far the run got, in [0, 1]: exactly 1 when completed, below 1 otherwise.
    public let progress: Double
    /// Human sentences backing the verdict, e.g. "first half 12:40, second half 12:05".
    public let evidence: [String]

    public init(status: MissionStatusResult, progress: Double, evidence: [String]) {
        self.status = status
        self.progress = progress
        self.evidence = evidence
    }
}

/// Checks a finished run against a mission with the GPS tolerance of record 0201.
/// A run without at least two usable fixes is `notApplicable`.
public enum MissionEvaluator {
    /// Highest progress a failed mission can show, so that progress 1 always means completed.
    static let failedProgressCap = 0.99

    public static func evaluate(_ spec: MissionSpec, metrics: RunMetrics,
                                tolerance: MissionTolerance = .default) -> MissionEvaluation {
        guard metrics.profile.times.count >= 2 else {
            return MissionEvaluation(status: .notApplicable, progress: 0, evidence: ["the run has no usable GPS track"])
        }
        var evidence: [String] = []
        // Each check returns a fraction of its (tolerance-adjusted) target; ≥ 1 passes.
        var fractions: [Double] = []

        func distanceCheck(_ target: Meters) -> Meters {
            let accepted = target * tolerance.distanceFraction
            fractions.append(metrics.distance / accepted)
            evidence.append("ran \(km(metrics.distance)) of \(km(target)) (\(km(accepted)) accepted for GPS error)")
            return accepted
        }
        func slack(_ distance: Meters) -> Seconds { tolerance.paceSlack * distance / 1000 }

        switch spec {
        case .distance(let target):
            _ = distanceCheck(target)

        case .duration(let target):
            let accepted = target * tolerance.durationFraction
            fractions.append(metrics.moving / accepted)
            evidence.append("moved for \(DistanceFormat.duration(metrics.moving)) of \(DistanceFormat.duration(target))")

        case .pace(let maxPace, let minDistance):
            let accepted = distanceCheck(minDistance)
            let limit = maxPace + tolerance.paceSlack
            // The better of the whole run's moving pace and the fastest stretch of the distance.
            var best = metrics.movingPace
            var how = "moving pace over the whole run"
            if let window = metrics.profile.fastestDuration(covering: accepted) {
                let pace = window / (accepted / 1000)
                if best == nil || pace < best! { best = pace; how = "fastest \(km(accepted))" }
            }
            if let best {
                fractions.append(limit / best)
                evidence.append("\(how) at \(Pace.format(best))/km (target \(Pace.format(maxPace))/km)")
            } else {
                fractions.append(0)
            }

        case .negativeSplit(let minDistance):
            _ = distanceCheck(minDistance)
            let total = metrics.distance
            let first = metrics.profile.movingDuration(from: 0, to: total / 2)
            let second = metrics.profile.movingDuration(from: total / 2, to: total)
            // Strictly faster (record 0201): equal halves are not a negative split.
            fractions.append(second < first ? 1 : (second > 0 ? first / second * failedProgressCap : 0))
            evidence.append("first half \(DistanceFormat.duration(first)), second half \(DistanceFormat.duration(second))")

        case .distanceInTime(let distance, let maxDuration):
            let accepted = distance * tolerance.distanceFraction
            let limit = maxDuration + slack(distance)
            if let window = metrics.profile.fastestDuration(covering: accepted) {
                fractions.append(limit / window)
                evidence.append("fastest \(km(accepted)) in \(DistanceFormat.duration(window)) (limit \(DistanceFormat.duration(maxDuration)))")
            } else {
                // Too short to cover it at all: progress is the distance share.
                fractions.append(metrics.distance / accepted * failedProgressCap)
                evidence.append("ran \(km(metrics.distance)), short of \(km(accepted))")
            }
        }

        let worst = fractions.min() ?? 0
        if worst >= 1 {
            return MissionEvaluation(status: .completed, progress: 1, evidence: evidence)
        }
        return MissionEvaluation(status: .failed, progress: min(failedProgressCap, max(0, worst)), evidence: evidence)
    }

    /// Kilometres with two decimals ("4.97 km"), so near misses are visible.
    static func km(_ meters: Meters) -> String {
        let hundredths = Int((meters / 10).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac) km"
    }
}
