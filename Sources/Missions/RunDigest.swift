import RunusCore
import Tracking

/// What one stored run's track says for the kinds that compare a run with the runner's earlier
/// tracks (explorer, personal best; records 0645, 0646): its best efforts and the grid cells it
/// covered; and, for the habit terms of the features, its surges (record 0658). Computed once from a decoded track (`init(run:)`); run records keep neither, so a
/// summary-only run, or a track this version cannot decode, has no digest (the caller leaves
/// it out: such a run sets no best and covers no known ground).
public struct RunDigest: Sendable, Equatable {
    /// Start of the run, Unix seconds.
    public let start: EpochSeconds
    /// Fastest elapsed time in seconds over each of `PriorRun.effortDistances` the run covered
    /// (`DistanceProfile.fastestDuration`, the personal-best check's measure).
    public let bestEfforts: [Meters: Seconds]
    /// Explorer cells the run covered (`ExplorerGrid.cells`), sorted by (row, column); empty
    /// without positions (an indoor run).
    public let cells: [GridCell]
    /// Durations in seconds of the run's surges (the fartlek check's `FartlekDetector`) of at
    /// least `surgeFloor`, longest first, at most `maximumSurges`; nil when unknown (a digest
    /// stored by a version before record 0658).
    public let surges: [Seconds]?

    /// Shortest surge a digest keeps, seconds: the fartlek ladder's shortest surge (20 s) less
    /// the check's slack (`MissionTolerance.surgeSlack`, 2 s).
    public static let surgeFloor: Seconds = 18
    /// Most surges a digest keeps (the ladder asks for at most 12).
    public static let maximumSurges = 255

    public init(start: EpochSeconds, bestEfforts: [Meters: Seconds], cells: [GridCell], surges: [Seconds]? = nil) {
        self.start = start
        self.bestEfforts = bestEfforts
        self.cells = cells.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        self.surges = surges.map { Array($0.filter { $0.isFinite && $0 >= Self.surgeFloor }.sorted(by: >).prefix(Self.maximumSurges)) }
    }

    /// The digest of a run as the checks see it; nil when its profile has fewer than two fixes.
    public init?(run: MissionRun) {
        guard run.metrics.profile.times.count >= 2 else { return nil }
        var efforts: [Meters: Seconds] = [:]
        for d in PriorRun.effortDistances {
            if let t = run.metrics.profile.fastestDuration(covering: d), t.isFinite, t > 0 { efforts[d] = t }
        }
        let metrics = run.metrics
        let surges = FartlekDetector.surges(in: metrics.profile, averageSpeed: metrics.moving > 0 ? metrics.distance / metrics.moving : 0,
                                            minDuration: Self.surgeFloor)
        self.init(start: metrics.startTime, bestEfforts: efforts,
                  cells: run.hasPositions ? Array(ExplorerGrid.cells(of: run)) : [], surges: surges.map(\.duration))
    }

    /// How many of the surges last at least what a fartlek surge of `minSurge` seconds needs
    /// (less the check's slack, `MissionTolerance.surgeSlack`); nil when the surges are unknown.
    public func surgeCount(atLeast minSurge: Seconds, tolerance: MissionTolerance = .default) -> Int? {
        surges.map { s in s.filter { $0 >= max(0, minSurge - tolerance.surgeSlack) }.count }
    }

    /// Digests whose runs the familiarity looks at: the last `familiarityRuns`, each against the
    /// `familiarityReference` before it (record 0645).
    public static let familiarityRuns = 10
    public static let familiarityReference = 20

    /// Ground familiarity of a runner whose earlier runs are `digests` (any order; runs without
    /// cells are skipped): over the last `familiarityRuns` runs with cells, the share of their
    /// cells that one of the `familiarityReference` runs with cells before each had covered
    /// already, pooled over cells, in [0, 1]. 1: the runner keeps to ground they know; near 0:
    /// every run goes somewhere new. Nil with fewer than two runs with cells. Reads at most the
    /// last 30 tracked runs, so that a caller needs no more of them decoded.
    public static func groundFamiliarity(_ digests: [RunDigest]) -> Double? {
        let tracked = digests.filter { !$0.cells.isEmpty }.sorted { $0.start < $1.start }
            .suffix(familiarityRuns + familiarityReference)
        guard tracked.count >= 2 else { return nil }
        let runs = Array(tracked)
        var covered = 0, total = 0
        for k in max(1, runs.count - familiarityRuns)..<runs.count {
            var known = Set<GridCell>()
            for j in max(0, k - familiarityReference)..<k { known.formUnion(runs[j].cells) }
            total += runs[k].cells.count
            covered += runs[k].cells.reduce(0) { $0 + (known.contains($1) ? 1 : 0) }
        }
        return total > 0 ? Double(covered) / Double(total) : nil
    }

    /// The best effort over `distance` among `digests` (fastest elapsed seconds), nil without one.
    public static func bestEffort(over distance: Meters, in digests: [RunDigest]) -> Seconds? {
        digests.compactMap { $0.bestEfforts[distance] }.min()
    }
}
