import RunusCore
import Tracking

extension MissionEvaluator {
    /// The verdict on a run known by its totals (record 0232), or nil for the kinds its totals
    /// decide as a tracked run's would (distance, duration, long run, early bird, night owl,
    /// streak, weekly volume, recovery, which the common code checks).
    /// - Kinds that need splits or a distance profile (negative split, even pace, progression,
    ///   intervals, fartlek, personal best) or positions and heights (hills, loop, explorer)
    ///   cannot be checked: `cannotCheck` says why.
    /// - Pace and distance in time complete when the whole run meets them (the whole run is one
    ///   stretch that covers the distance, so this is sufficient); they fail when the run is too
    ///   short; otherwise a faster stretch inside it cannot be ruled out, and they cannot be
    ///   checked.
    static func summaryVerdict(_ spec: MissionSpec, metrics: RunMetrics, tolerance: MissionTolerance) -> MissionEvaluation? {
        let noSplits = "the run is a summary without splits"
        switch spec {
        case .pace(let maxPace, let minDistance):
            var v = Verdict()
            let accepted = distanceCheck(minDistance, metrics, tolerance, &v)
            guard metrics.distance >= accepted else { return v.evaluation }
            let limit = maxPace + tolerance.paceSlack
            guard let pace = metrics.movingPace, pace <= limit else {
                let average = metrics.movingPace.map { "its average moving pace \(Pace.format($0))/km" } ?? "it has no moving time"
                return cannotCheck("\(noSplits): \(average) misses \(Pace.format(maxPace))/km, and a faster stretch cannot be found without splits")
            }
            v.add(limit / pace, "moving pace over the whole run at \(Pace.format(pace))/km (target \(Pace.format(maxPace))/km)",
                  MissionEvidence(.effort, value: pace, unit: "s/km", passed: true))
            return v.evaluation
        case .distanceInTime(let distance, let maxDuration):
            var v = Verdict()
            let accepted = distance * tolerance.distanceFraction
            let limit = maxDuration + tolerance.paceSlack * distance / 1000
            guard metrics.distance >= accepted else {
                v.add(metrics.distance / accepted * failedProgressCap, "ran \(km(metrics.distance)), short of \(km(accepted))")
                return v.evaluation
            }
            guard metrics.elapsed <= limit else {
                return cannotCheck("\(noSplits): the whole run took \(DistanceFormat.duration(metrics.elapsed)) for \(km(metrics.distance)), "
                                   + "and its fastest \(km(accepted)) cannot be found without splits")
            }
            v.add(limit / max(metrics.elapsed, 1e-9),
                  "the whole run: \(km(metrics.distance)) in \(DistanceFormat.duration(metrics.elapsed)) (limit \(DistanceFormat.duration(maxDuration)))",
                  MissionEvidence(.effort, value: metrics.elapsed, unit: "s", passed: true))
            return v.evaluation
        case .negativeSplit, .evenPace, .progression, .intervals, .fartlek:
            return cannotCheck("\(noSplits): \(spec.kind.rawValue) compares parts of the run")
        case .personalBest:
            return cannotCheck("\(noSplits): its fastest stretch over the record's distance is unknown")
        case .hills, .loop, .explorer:
            return cannotCheck("the run is a summary without positions or heights: \(spec.kind.rawValue) needs them")
        default:
            return nil
        }
    }
}
