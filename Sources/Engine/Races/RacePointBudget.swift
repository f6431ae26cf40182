import RunusCore
import Tracking

/// How many points a runner's positions may add to a race (docs/decisions/0551-race-point-budget.md):
/// at most one per `minimumPointSpacing` of race time, and at most `maximumPointsPerRunner` in
/// one race, so that what a race stores and what a restart replays stay bounded whatever a
/// client sends. The room applies the same rule live and when it replays its log, and the
/// service logs only the points it admits.
extension RacePositionRules {
    /// The points of a batch (already `fresh`) that a runner's tracker takes: timed within the
    /// race's running window `[start, end]` (Unix seconds), each at least `minimumPointSpacing`
    /// after the one kept before it (the runner's last counted point, `after`, then the batch's
    /// own), while the runner's count (`counted`) stays within `maximumPointsPerRunner`. Points
    /// out of order, repeated or closer together are left out, not refused: a phone that
    /// resends a batch, or samples at 10 Hz, keeps racing.
    public func admitted(_ points: [TrackPoint], after last: EpochSeconds?, counted: Int,
                         window: ClosedRange<EpochSeconds>) -> [TrackPoint] {
        var kept: [TrackPoint] = []
        var previous = last
        var room = max(0, maximumPointsPerRunner - counted)
        for point in points where room > 0 && window.contains(point.time) {
            if let previous, !(point.time >= previous + minimumPointSpacing) { continue }
            kept.append(point)
            previous = point.time
            room -= 1
        }
        return kept
    }
}
