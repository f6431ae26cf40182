import RunusCore
import Features
import Missions

/// A mission chosen for a runner, with what the runner is shown.
public struct ChosenMission: Sendable, Equatable {
    public let spec: MissionSpec
    public let title: String
    /// Model's completion probability in [0, 1].
    public let pComplete: Double
    public let xp: Int
    /// One plain sentence: why this mission.
    public let why: String
}

/// Picks today's missions: every candidate is scored, each kind contributes its candidate closest
/// to the middle of the target band, and the k kinds closest to the band win. "Challenging yet
/// achievable": the default band 0.65–0.85 sits between the 0.5 motivation peak (Atkinson) and
/// the 0.85 learning optimum (Wilson et al. 2019); see docs/decisions/0003-target-band.md.
public struct TodayPolicy: Sendable {
    public var band: ClosedRange<Double>
    public var count: Int

    public init(band: ClosedRange<Double> = 0.65...0.85, count: Int = 3) {
        self.band = band; self.count = count
    }

    public func choose(state: RunnerState, scorer: MissionScorer) -> [ChosenMission] {
        let candidates = CandidateGenerator.candidates(for: state)
        let rows = candidates.map { MissionFeatures.vector($0, state: state) }
        let probabilities = scorer.probabilities(rows)
        let centre = (band.lowerBound + band.upperBound) / 2
        func distance(_ p: Double) -> Double {
            band.contains(p) ? abs(p - centre) : 1 + min(abs(p - band.lowerBound), abs(p - band.upperBound))
        }
        // Best candidate per kind; ties keep the earlier (easier) candidate.
        var best: [MissionKind: Int] = [:]
        for (i, spec) in candidates.enumerated() {
            if let j = best[spec.kind], distance(probabilities[j]) <= distance(probabilities[i]) { continue }
            best[spec.kind] = i
        }
        let ranked = MissionFeatures.kinds.compactMap { best[$0] }.sorted {
            (distance(probabilities[$0]), $0) < (distance(probabilities[$1]), $1)
        }
        return ranked.prefix(count).map { i in
            let spec = candidates[i]
            let p = probabilities[i]
            return ChosenMission(spec: spec, title: MissionTitle.title(for: spec), pComplete: p,
                                 xp: MissionXP.xp(for: spec, pComplete: p), why: Self.why(spec, state: state))
        }
    }

    /// One plain sentence saying how the mission relates to what the runner has been doing.
    static func why(_ spec: MissionSpec, state: RunnerState) -> String {
        guard state.totalRuns > 0 else {
            return "A starter mission sized for someone new to running; it adapts after your first runs."
        }
        let endurance = state.enduranceOrDefault
        let usual = DistanceFormat.kilometres(endurance)
        func percent(_ ratio: Double) -> Int { Int((abs(ratio - 1) * 100).rounded()) }
        func comparison(_ ratio: Double, _ what: String) -> String {
            let p = percent(ratio)
            if p < 5 { return "about your usual \(what)" }
            return ratio > 1 ? "\(p) % more than your usual \(what)" : "\(p) % less than your usual \(what)"
        }
        switch spec {
        case .distance(let d):
            return "Your runs lately are about \(usual); this is \(comparison(d / endurance, "distance"))."
        case .duration(let t):
            let usualTime = endurance * state.typicalPaceOrDefault / 1000
            return "Time on your feet builds endurance: \(comparison(t / usualTime, "time of \(DistanceFormat.duration(usualTime))"))."
        case .negativeSplit(let d):
            return "Finishing faster than you start teaches pacing, over \(comparison(d / endurance, "distance"))."
        case .pace(let maxPace, let d):
            let expected = state.expectedPace(over: d)
            return "You usually hold about \(Pace.format(expected))/km over \(DistanceFormat.kilometres(d)); "
                + "this asks for \(paceChange(expected, maxPace))."
        case .distanceInTime(let d, let maxDuration):
            let expected = state.expectedPace(over: d)
            return "You usually hold about \(Pace.format(expected))/km over \(DistanceFormat.kilometres(d)); "
                + "this asks for \(paceChange(expected, maxDuration / d * 1000))."
        default:
            // `choose` only sees `CandidateGenerator`'s kinds, all in `MissionFeatures.kinds`
            // (`MissionFeatures.vector` refuses the others before this is reached).
            preconditionFailure("TodayPolicy: kind \(spec.kind.rawValue) is not offered by schema v1")
        }
    }

    static func paceChange(_ usual: SecondsPerKm, _ target: SecondsPerKm) -> String {
        let seconds = Int((usual - target).rounded())
        if abs(seconds) < 3 { return "your usual pace" }
        return seconds > 0 ? "\(seconds) s/km faster" : "up to \(-seconds) s/km slower, an easier day"
    }
}
