import RunusCore
import Tracking

/// "3 of 5 reps": how many of the counted parts a mission asks for are done.
public struct MissionCount: Sendable, Equatable {
    public let done: Int
    public let target: Int
    /// "reps", "surges", "km", "days".
    public let unit: String
}

/// Collects the checks of one mission: each adds a fraction of its (tolerance-adjusted) target
/// (≥ 1 passes), an evidence sentence and evidence values.
struct Verdict {
    var fractions: [Double] = []
    var evidence: [String] = []
    var details: [MissionEvidence] = []
    var count: MissionCount?

    mutating func add(_ fraction: Double, _ sentence: String, _ detail: MissionEvidence? = nil) {
        fractions.append(fraction)
        evidence.append(sentence)
        if let detail { details.append(detail) }
    }

    var evaluation: MissionEvaluation {
        // A NaN fraction (a degenerate measurement) counts as no progress, never as a pass.
        let worst = fractions.map { $0.isNaN ? 0 : $0 }.min() ?? 0
        if worst >= 1 {
            return MissionEvaluation(status: .completed, progress: 1, evidence: evidence, details: details, count: count)
        }
        return MissionEvaluation(status: .failed, progress: min(MissionEvaluator.failedProgressCap, max(0, worst)),
                                 evidence: evidence, details: details, count: count)
    }
}

/// Checks a run against a mission with the GPS tolerance of records 0201 and 0211.
/// A run without at least two usable fixes is `notApplicable` (race kinds excepted: they are
/// decided by the race result), and so is a kind whose context is missing.
public enum MissionEvaluator {
    /// Highest progress a failed mission can show, so that progress 1 always means completed.
    static let failedProgressCap = 0.99

    /// Checks a run known by its metrics alone (loop and explorer are then not applicable).
    public static func evaluate(_ spec: MissionSpec, metrics: RunMetrics,
                                tolerance: MissionTolerance = .default) -> MissionEvaluation {
        evaluate(spec, run: MissionRun(metrics: metrics), tolerance: tolerance)
    }

    /// Checks a raw track: metrics, positions, then the mission. O(n) plus the metrics' splits.
    public static func evaluate(_ spec: MissionSpec, track: Track, context: MissionContext = .empty,
                                tolerance: MissionTolerance = .default,
                                configuration: MetricsConfiguration = .default) -> MissionEvaluation {
        evaluate(spec, run: MissionRun(track: track, configuration: configuration), context: context, tolerance: tolerance)
    }

    public static func evaluate(_ spec: MissionSpec, run: MissionRun, context: MissionContext = .empty,
                                tolerance: MissionTolerance = .default) -> MissionEvaluation {
        let metrics = run.metrics
        switch spec {
        case .raceFinish, .podium:
            return evaluateRace(spec, metrics: metrics, race: context.race, tolerance: tolerance)
        default:
            break
        }
        // A summary (record 0232) is checked on its totals where they decide the kind.
        if metrics.distanceSource == .summary, let verdict = summaryVerdict(spec, metrics: metrics, tolerance: tolerance) {
            return verdict
        }
        guard metrics.profile.times.count >= 2 || metrics.distanceSource == .summary else {
            return notApplicable("the run has no usable GPS track")
        }
        var v = Verdict()
        switch spec {
        case .distance(let target):
            _ = distanceCheck(target, metrics, tolerance, &v)

        case .duration(let target):
            let accepted = target * tolerance.durationFraction
            v.add(metrics.moving / accepted,
                  "moved for \(DistanceFormat.duration(metrics.moving)) of \(DistanceFormat.duration(target))",
                  MissionEvidence(.total, value: metrics.moving, unit: "s", passed: metrics.moving >= accepted))

        case .pace(let maxPace, let minDistance):
            let accepted = distanceCheck(minDistance, metrics, tolerance, &v)
            let limit = maxPace + tolerance.paceSlack
            // The better of the whole run's moving pace and the fastest stretch of the distance.
            var best = metrics.movingPace
            var how = "moving pace over the whole run"
            if let window = metrics.profile.fastestDuration(covering: accepted) {
                let pace = window / (accepted / 1000)
                if best == nil || pace < best! { best = pace; how = "fastest \(km(accepted))" }
            }
            if let best {
                v.add(limit / best, "\(how) at \(Pace.format(best))/km (target \(Pace.format(maxPace))/km)",
                      MissionEvidence(.effort, value: best, unit: "s/km", passed: best <= limit))
            } else {
                v.fractions.append(0)
            }

        case .negativeSplit(let minDistance):
            _ = distanceCheck(minDistance, metrics, tolerance, &v)
            let total = metrics.distance
            let first = metrics.profile.movingDuration(from: 0, to: total / 2)
            let second = metrics.profile.movingDuration(from: total / 2, to: total)
            // Strictly faster (record 0201): equal halves are not a negative split.
            v.add(second < first ? 1 : (second > 0 ? first / second * failedProgressCap : 0),
                  "first half \(DistanceFormat.duration(first)), second half \(DistanceFormat.duration(second))")
            v.details.append(MissionEvidence(.split, index: 1, from: 0, to: total / 2, value: first, unit: "s", passed: true))
            v.details.append(MissionEvidence(.split, index: 2, from: total / 2, to: total, value: second, unit: "s",
                                             passed: second < first))

        case .distanceInTime(let distance, let maxDuration):
            let accepted = distance * tolerance.distanceFraction
            let limit = maxDuration + tolerance.paceSlack * distance / 1000
            if let window = metrics.profile.fastestDuration(covering: accepted) {
                v.add(limit / window,
                      "fastest \(km(accepted)) in \(DistanceFormat.duration(window)) (limit \(DistanceFormat.duration(maxDuration)))",
                      MissionEvidence(.effort, value: window, unit: "s", passed: window <= limit))
            } else {
                // Too short to cover it at all: progress is the distance share.
                v.add(metrics.distance / accepted * failedProgressCap, "ran \(km(metrics.distance)), short of \(km(accepted))")
            }

        case .evenPace, .progression:
            checkSplits(spec, run: run, tolerance: tolerance, &v)
        case .intervals(let reps, let repDistance, let maxPace, let maxRecovery):
            checkIntervals(reps: reps, repDistance: repDistance, maxPace: maxPace, maxRecovery: maxRecovery,
                           metrics: metrics, tolerance: tolerance, &v)
        case .fartlek(let surges, let minSurge):
            checkFartlek(surges: surges, minSurge: minSurge, metrics: metrics, tolerance: tolerance, &v)
        case .hills(let minAscent):
            guard run.hasPositions || metrics.hasPositions else {
                return cannotCheck("the run has no positions or heights (an indoor run or a summary): its climb is unknown")
            }
            checkHills(minAscent: minAscent, run: run, tolerance: tolerance, &v)
        case .loop(let maxGap, let minDistance):
            guard run.hasPositions else { return cannotCheck("the run has no positions to compare start and finish") }
            _ = distanceCheck(minDistance, metrics, tolerance, &v)
            checkLoop(maxGap: maxGap, run: run, &v)
        case .explorer(let minNewFraction, let minDistance):
            guard run.hasPositions else { return cannotCheck("the run has no positions to place on the grid") }
            guard let visited = context.visitedCells else {
                return notApplicable("the ground covered before this run is unknown")
            }
            _ = distanceCheck(minDistance, metrics, tolerance, &v)
            checkExplorer(minNewFraction: minNewFraction, run: run, visited: visited, &v)
        case .longRun, .earlyBird, .nightOwl, .streak, .weeklyVolume, .personalBest:
            if let reason = checkHistory(spec, metrics: metrics, context: context, tolerance: tolerance, &v) {
                return notApplicable(reason)
            }
        case .recovery(let minPace, let minDuration, let maxHeartRate):
            if let reason = checkRecovery(minPace: minPace, minDuration: minDuration, maxHeartRate: maxHeartRate,
                                          metrics: metrics, tolerance: tolerance, &v) {
                return notApplicable(reason)
            }
        case .raceFinish, .podium:
            preconditionFailure("race kinds are decided above")
        }
        return v.evaluation
    }

    static func notApplicable(_ reason: String) -> MissionEvaluation {
        MissionEvaluation(status: .notApplicable, progress: 0, evidence: [reason])
    }

    /// `notApplicable` because the run lacks what the kind measures (`cannotCheck` set).
    static func cannotCheck(_ reason: String) -> MissionEvaluation {
        MissionEvaluation(status: .notApplicable, progress: 0, evidence: [reason], cannotCheck: reason)
    }

    /// Adds "ran X of Y" with the distance tolerance; returns the accepted distance, metres.
    static func distanceCheck(_ target: Meters, _ metrics: RunMetrics, _ tolerance: MissionTolerance,
                              _ v: inout Verdict) -> Meters {
        let accepted = target * tolerance.distanceFraction
        v.add(metrics.distance / accepted,
              "ran \(km(metrics.distance)) of \(km(target)) (\(km(accepted)) accepted for GPS error)",
              MissionEvidence(.total, from: 0, to: metrics.distance, value: metrics.distance, unit: "m",
                              passed: metrics.distance >= accepted))
        return accepted
    }

    /// Kilometres with two decimals ("4.97 km"), so near misses are visible.
    static func km(_ meters: Meters) -> String {
        let hundredths = Int(saturating: (meters / 10).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac) km"
    }
}
