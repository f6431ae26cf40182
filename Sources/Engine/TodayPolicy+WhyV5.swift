import RunusCore
import Features
import Missions

extension TodayPolicy {
    /// The sentence of the kinds of schema v5: what the mission asks, against what the runner does.
    static func whyV5(_ spec: MissionSpec, state: RunnerState) -> String {
        switch spec {
        case .explorer(let fraction, let d):
            let share = Int(saturating: (fraction * 100).rounded())
            let known = state.groundFamiliarity.map {
                "\(Int(saturating: ($0 * 100).rounded())) % of the ground of your recent runs was ground you had run before"
            } ?? "we know little of where you run"
            return "Go somewhere new: \(DistanceFormat.kilometres(d)) with \(share) % of it on streets you have never run; \(known)."
        case .personalBest(let d):
            guard let best = state.bestEfforts[d] else {
                return "Beat your best over \(MissionTitle.metres(d)) from your recorded runs."
            }
            let expected = state.expectedRacePace(over: d)
            let bestPace = best / d * 1000
            let gap = Int(saturating: (expected - bestPace).rounded())
            let form = abs(gap) < 3 ? "about the pace your recent runs point to"
                : gap > 0 ? "\(gap) s/km faster than your recent runs point to"
                : "\(-gap) s/km slower than your recent runs point to"
            return "A new record: your best \(MissionTitle.metres(d)) is \(DistanceFormat.duration(best)) "
                + "(\(Pace.format(bestPace))/km), \(form)."
        default:
            return "\(MissionTitle.title(for: spec)): picked to be challenging yet achievable for you."
        }
    }
}
