import RunusCore

// The per-step rules of a run record, one segment or one height at a time. `LiveTracker` uses
// them; they mirror the loop of `RunMetrics.init` and `RunMetrics.elevationChange` as of record
// 0160, so that batch can call them too and the two cannot drift apart.

/// Auto-pause with hysteresis (record 0102): a run starts moving; while moving, a segment slower
/// than `pauseSpeed` pauses; while paused, a segment faster than `resumeSpeed` resumes.
public struct AutoPause: Sendable, Equatable {
    /// Whether the last segment left the run moving.
    public private(set) var isMoving = true

    public init() {}

    /// Feeds one segment's speed in m/s (≥ 0) and returns whether that segment is in the moving
    /// state (it then counts, unless it is a vehicle part: record 0106).
    public mutating func update(speed: Double, configuration: MetricsConfiguration) -> Bool {
        if isMoving && speed < configuration.pauseSpeed { isMoving = false }
        else if !isMoving && speed > configuration.resumeSpeed { isMoving = true }
        return isMoving
    }
}

/// Elevation gain and loss with hysteresis (record 0103), one height at a time: a turn counts
/// only once the height has moved `threshold` metres from the reference; in a confirmed
/// direction every new extreme ratchets the reference. Non-finite or missing heights are skipped.
public struct ElevationHysteresis: Sendable, Equatable {
    private enum Direction: Sendable { case unknown, up, down }
    /// Noise threshold in metres, ≥ 0.
    public let threshold: Meters
    private var reference: Meters?
    private var direction = Direction.unknown
    /// Total climb so far in metres, ≥ 0.
    public private(set) var gain: Meters = 0
    /// Total descent so far in metres, ≥ 0.
    public private(set) var loss: Meters = 0

    public init(threshold: Meters) {
        precondition(threshold >= 0, "ElevationHysteresis: threshold must be >= 0, got \(threshold)")
        self.threshold = threshold
    }

    /// Feeds the next height in metres (nil or non-finite: ignored).
    public mutating func add(_ height: Meters?) {
        guard let h = height, h.isFinite else { return }
        guard let r = reference else { reference = h; return }
        if h - r >= threshold && threshold > 0 || (direction == .up && h > r) || (threshold == 0 && h > r) {
            gain += h - r; reference = h; direction = .up
        } else if r - h >= threshold && threshold > 0 || (direction == .down && h < r) || (threshold == 0 && h < r) {
            loss += r - h; reference = h; direction = .down
        }
    }
}
