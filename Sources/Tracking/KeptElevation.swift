import RunusCore

/// Elevation gain and loss over the steps a run record keeps (record 0153), one fix at a time:
/// the heights are read as a series that does not change across a vehicle step (one the record
/// leaves out of its distance and moving time), and that series goes through the hysteresis of
/// record 0103 (`ElevationHysteresis`). A drive or a bus ride up a hill adds nothing, so the
/// record's gain is the climb the hills mission checks; a slow climb that auto-pause counts as
/// stopped still counts (a steep trail walked under the pause speed). Missing or non-finite
/// heights are skipped (the next step then carries the change since the last finite one).
/// Batch (`RunMetrics`) and live (`LiveTotals`) feed it the same fixes with the same flags, so
/// the two agree.
public struct KeptElevation: Sendable, Equatable {
    private var hysteresis: ElevationHysteresis
    /// The last finite height fed, metres.
    private var lastHeight: Meters?
    /// The series' current value, metres: the first finite height plus the changes over kept steps.
    private var level: Meters?

    /// - Parameter threshold: the hysteresis of record 0103, metres, ≥ 0.
    public init(threshold: Meters) { hysteresis = ElevationHysteresis(threshold: threshold) }

    /// Total climb over the kept steps so far, metres, ≥ 0.
    public var gain: Meters { hysteresis.gain }
    /// Total descent over the kept steps so far, metres, ≥ 0.
    public var loss: Meters { hysteresis.loss }

    /// Feeds the height of the next fix (nil or non-finite: ignored) and whether the record keeps
    /// the step that ends at it (false for a vehicle step; ignored for the first finite height).
    @inline(__always) public mutating func add(_ height: Meters?, kept: Bool) {
        guard let h = height, h.isFinite else { return }
        if let last = lastHeight, let current = level {
            if kept {
                let next = current + (h - last)
                level = next
                hysteresis.add(next)
            }
        } else {
            level = h
            hysteresis.add(h)
        }
        lastHeight = h
    }
}
