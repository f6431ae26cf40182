import RunusCore
import Tracking

/// Mission progress during a run ("3 of 5 reps done"): fixes are appended in order as they
/// arrive and `progress` runs the after-the-run check on the track so far, so live and final
/// verdicts agree by construction (tested against the batch check).
///
/// Cost: each `progress` call recomputes the metrics and the check on the whole track, O(n)
/// (plus the metrics' per-split pass). For an hour at 1 Hz that is dominated by the metrics,
/// a few milliseconds in a release build, against at most 0.3 ms for any check itself
/// (`make bench-missions`, record 0216); ask for progress every few seconds, not for every fix.
/// Appending is O(1). While running, `failed` means "not done yet".
public struct LiveMissionTracker: Sendable {
    public let spec: MissionSpec
    public var context: MissionContext
    public let tolerance: MissionTolerance
    public let configuration: MetricsConfiguration
    public private(set) var track = Track(points: [])

    public init(spec: MissionSpec, context: MissionContext = .empty, tolerance: MissionTolerance = .default,
                configuration: MetricsConfiguration = .default) {
        self.spec = spec
        self.context = context
        self.tolerance = tolerance
        self.configuration = configuration
    }

    /// Adds a fix. Fixes out of order are kept and dropped by cleaning, as after the run.
    public mutating func append(_ point: TrackPoint) { track.points.append(point) }

    public mutating func append(contentsOf points: [TrackPoint]) { track.points.append(contentsOf: points) }

    /// The check on the track so far. O(n).
    public func progress() -> MissionEvaluation {
        MissionEvaluator.evaluate(spec, track: track, context: context, tolerance: tolerance, configuration: configuration)
    }
}
