import RunusCore

/// Outcome of checking one run against one mission.
public enum MissionStatusResult: String, Sendable {
    case completed, failed
    case notApplicable = "not_applicable"
}

/// One piece of evidence behind a verdict: a split, rep, surge, set of cells, day or total that
/// the check looked at, what was measured and whether it met its part of the mission.
public struct MissionEvidence: Sendable, Equatable {
    public enum Part: String, Sendable {
        case total, split, rep, surge, cells, day, week, effort, start, race
    }
    public let part: Part
    /// 1-based position among the parts of its kind (split 3, rep 2), nil for a single total.
    public let index: Int?
    /// Where it lies in the run, cumulative metres from the start (nil when not in this run).
    public let fromDistance: Meters?
    public let toDistance: Meters?
    /// The measured value, in `unit` (e.g. 268 "s/km", 412 "m", 3 "days").
    public let value: Double
    public let unit: String
    /// Whether this part met what the mission asks of it.
    public let passed: Bool

    public init(_ part: Part, index: Int? = nil, from: Meters? = nil, to: Meters? = nil,
                value: Double, unit: String, passed: Bool) {
        self.part = part
        self.index = index
        self.fromDistance = from
        self.toDistance = to
        self.value = value
        self.unit = unit
        self.passed = passed
    }
}

public struct MissionEvaluation: Sendable, Equatable {
    public let status: MissionStatusResult
    /// How far the run got, in [0, 1]: exactly 1 when completed, below 1 otherwise.
    public let progress: Double
    /// Human sentences backing the verdict, e.g. "first half 12:40, second half 12:05".
    public let evidence: [String]
    /// The same evidence as values: the splits, reps, surges, cells or days that decided it.
    public let details: [MissionEvidence]
    /// For kinds that count parts (reps, surges, km, days): how many are done, e.g. 3 of 5.
    public let count: MissionCount?
    /// Why this run cannot decide the mission at all because it lacks what the kind measures
    /// (positions, heights or splits: a run without positions, a summary; record 0232), one
    /// sentence; the status is then `notApplicable`. Nil otherwise.
    public let cannotCheck: String?

    public init(status: MissionStatusResult, progress: Double, evidence: [String], details: [MissionEvidence] = [],
                count: MissionCount? = nil, cannotCheck: String? = nil) {
        precondition(progress >= 0 && progress <= 1 && (status != .completed || progress == 1),
                     "MissionEvaluation: progress \(progress) with status \(status.rawValue)")
        self.status = status
        self.progress = progress
        self.evidence = evidence
        self.details = details
        self.count = count
        self.cannotCheck = cannotCheck
    }
}
