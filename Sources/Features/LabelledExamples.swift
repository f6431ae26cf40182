import RunusCore
import Missions

/// One training example: a mission a runner tried, the runner's state when it was offered, and
/// whether the run completed it.
public struct LabelledExample: Sendable {
    public let assignmentID: String
    public let userID: UserID
    /// When the mission was offered (the features' as-of instant).
    public let time: EpochSeconds
    public let kind: MissionKind
    public let features: [Double]
    /// 1 completed, 0 failed.
    public let label: Double
    /// Simulation only: the true completion probability (evaluation, never a feature).
    public let pTrue: Double?
}

public enum FeaturesError: Error, CustomStringConvertible, Equatable {
    case badSpec(assignment: String, message: String)

    public var description: String {
        switch self {
        case .badSpec(let id, let message): return "assignment \(id): stored mission spec is invalid: \(message)"
        }
    }
}

/// Labels from logged mission outcomes: every completed or failed assignment becomes one
/// example, its features computed as of the offer from the runner's earlier runs only.
/// "Expired" offers (the runner did not run, or did not try) are not labels: the label means
/// "completed, given that the runner tried", which is what the daily policy needs.
public enum ExampleBuilder {
    /// Examples of one runner. `runs` and `assignments` may be in any order. The state of each
    /// example includes the outcomes of the runner's other assignments decided by runs that
    /// started before the offer (`PastOutcome.from`); `utcOffset` is the runner's local time − UTC
    /// in seconds (start-hour and weekday features), 0 when unknown. `digests`: what the runs'
    /// tracks say (`RunDigest`, any order), for the explorer and personal-best terms.
    public static func examples(runs: [RunRecord], assignments: [MissionAssignment], utcOffset: Int = 0,
                                digests: [RunDigest] = []) throws -> [LabelledExample] {
        let sortedRuns = runs.sorted { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
        let outcomes = PastOutcome.from(assignments: assignments, runs: runs)
        var examples: [LabelledExample] = []
        for a in assignments where a.status == .completed || a.status == .failed {
            let spec: MissionSpec
            do {
                spec = try MissionSpec(json: try JSONParser.parse(a.specJSON))
            } catch {
                throw FeaturesError.badSpec(assignment: a.id, message: "\(error)")
            }
            // Runs are sorted, so the as-of prefix is found by binary search.
            var lo = 0, hi = sortedRuns.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sortedRuns[mid].startTime < a.offeredAt { lo = mid + 1 } else { hi = mid }
            }
            guard MissionFeatures.models(spec.kind) else { continue }  // kinds outside the schema: no label
            let state = RunnerState(history: Array(sortedRuns[..<lo]), outcomes: outcomes, asOf: a.offeredAt,
                                    utcOffset: utcOffset, digests: digests)
            examples.append(LabelledExample(
                assignmentID: a.id, userID: a.userID, time: a.offeredAt, kind: spec.kind,
                features: MissionFeatures.vector(spec, state: state),
                label: a.status == .completed ? 1 : 0, pTrue: a.pTrue))
        }
        return examples
    }
}
