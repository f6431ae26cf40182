import RunusCore

/// Elevation gain and loss with hysteresis (record 0103), one height at a time: a turn counts
/// only once the height has moved `threshold` metres from the reference; in a confirmed
/// direction every new extreme ratchets the reference, so that noise smaller than the threshold
/// adds nothing. Non-finite or missing heights are skipped. Keeps the reference height, the
/// confirmed direction and the two sums. `KeptElevation` feeds it the heights of the kept
/// steps, for the batch record and the live tracker alike (record 0153).
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
    @inline(__always) public mutating func add(_ height: Meters?) {
        guard let h = height, h.isFinite else { return }
        guard let r = reference else { reference = h; return }
        if h - r >= threshold && threshold > 0 || (direction == .up && h > r) || (threshold == 0 && h > r) {
            gain += h - r; reference = h; direction = .up
        } else if r - h >= threshold && threshold > 0 || (direction == .down && h < r) || (threshold == 0 && h < r) {
            loss += r - h; reference = h; direction = .down
        }
    }
}
