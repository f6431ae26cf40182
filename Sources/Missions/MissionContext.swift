import RunusCore
import Tracking

/// What an earlier run contributes to multi-run checks: when it started, how far it went and
/// its best efforts. A pure value; the caller reads it from storage.
public struct PriorRun: Sendable, Equatable {
    /// Start, Unix seconds.
    public var start: EpochSeconds
    /// Local time − UTC at the start, seconds (e.g. 3600 for UTC+1), in [-14 h, +14 h].
    public var utcOffset: Int
    /// Moving distance, metres ≥ 0.
    public var distance: Meters
    /// Fastest elapsed time in seconds over each distance in metres (see `effortDistances`).
    public var bestEfforts: [Meters: Seconds]

    public init(start: EpochSeconds, utcOffset: Int, distance: Meters, bestEfforts: [Meters: Seconds] = [:]) {
        self.start = start
        self.utcOffset = utcOffset
        self.distance = distance
        self.bestEfforts = bestEfforts
    }

    /// Distances, metres, whose best efforts are kept by default: what personal-best missions ask.
    public static let effortDistances: [Meters] = RunMetrics.effortDistances

    /// The summary of a run from its metrics (best efforts by `DistanceProfile.fastestDuration`,
    /// the same measure the personal-best check uses).
    public init(metrics: RunMetrics, utcOffset: Int, effortDistances: [Meters] = PriorRun.effortDistances) {
        var efforts: [Meters: Seconds] = [:]
        for d in effortDistances {
            if let t = metrics.profile.fastestDuration(covering: d) { efforts[d] = t }
        }
        self.init(start: metrics.startTime, utcOffset: utcOffset, distance: metrics.distance, bestEfforts: efforts)
    }
}

/// The outcome of a multi-mode race (a live race between remote runners).
public struct RaceResult: Sendable, Equatable {
    /// The race's distance, metres > 0.
    public var distance: Meters
    /// Whether the runner crossed the finish.
    public var finished: Bool
    /// Finishing place, 1-based; nil when not finished.
    public var place: Int?
    /// Runners who started the race, ≥ 1.
    public var participants: Int

    public init(distance: Meters, finished: Bool, place: Int?, participants: Int) {
        precondition(distance > 0 && participants >= 1 && (place.map { $0 >= 1 && $0 <= participants } ?? true),
                     "RaceResult: distance > 0, participants ≥ 1 and place in 1...participants")
        self.distance = distance
        self.finished = finished
        self.place = place
        self.participants = participants
    }
}

/// Everything beyond the run itself that some kinds need. Pure values, no storage.
public struct MissionContext: Sendable {
    /// The runner's earlier runs, in any order. Runs starting at or after the checked run are
    /// ignored, so a whole history can be passed.
    public var priorRuns: [PriorRun]
    /// Grid cells the runner covered before this run (`ExplorerGrid`); nil when unknown.
    public var visitedCells: Set<GridCell>?
    /// Local time − UTC of the checked run, seconds; nil when unknown.
    public var utcOffset: Int?
    /// The race this run was part of, if any.
    public var race: RaceResult?

    public init(priorRuns: [PriorRun] = [], visitedCells: Set<GridCell>? = nil, utcOffset: Int? = nil,
                race: RaceResult? = nil) {
        self.priorRuns = priorRuns
        self.visitedCells = visitedCells
        self.utcOffset = utcOffset
        self.race = race
    }

    public static let empty = MissionContext()
}
