import RunusCore

/// `Track.cleaned` one fix at a time, the first stage of a live tracker: after any prefix of
/// fixes, `points` equals `Track(points: prefix).cleaned(configuration:)` (tested at every
/// prefix). Amortised O(1) per fix: a fix is settled as soon as the next valid fix arrives
/// (the spike test looks one fix ahead); only the first three valid fixes wait together, for
/// the leading-spike test.
public struct StreamingCleaner: Sendable {
    public let configuration: MetricsConfiguration
    /// Settled kept fixes, in order.
    public private(set) var settled: [TrackPoint] = []
    /// Valid fixes before the leading-spike test could run (at most 2 outside `append`).
    private var leading: [TrackPoint] = []
    private var leadingDecided = false
    /// The last valid fix, not yet settled (its fate depends on the next one).
    private var pending: TrackPoint?

    public init(configuration: MetricsConfiguration = .default) {
        self.configuration = configuration
    }

    /// Adds the next recorded fix.
    public mutating func append(_ p: TrackPoint) {
        guard p.time.isFinite, p.latitude.isFinite, p.longitude.isFinite, abs(p.latitude) <= 90 else { return }
        if let last = pending ?? leading.last, p.time <= last.time { return }
        guard leadingDecided else {
            leading.append(p)
            guard leading.count == 3 else { return }
            if speed(leading[0], leading[1]) > configuration.maxSpeed, speed(leading[1], leading[2]) <= configuration.maxSpeed {
                leading.removeFirst()
            }
            leadingDecided = true
            let first = leading
            leading = []
            for q in first { advance(q) }
            return
        }
        advance(p)
    }

    /// The cleaned track of everything appended so far.
    public var points: [TrackPoint] {
        guard leadingDecided else { return Track(points: leading).cleaned(configuration: configuration).points }
        guard let p = pending else { return settled }
        if let last = settled.last, speed(last, p) > configuration.maxSpeed { return settled }
        return settled + [p]
    }

    /// Settles the pending fix now that `q` follows it, and makes `q` pending.
    private mutating func advance(_ q: TrackPoint) {
        if let p = pending {
            if let last = settled.last, Track.isSpike(last, p, q, configuration: configuration) {
                // a spike: dropped
            } else {
                settled.append(p)
            }
        }
        pending = q
    }

    private func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double { Track.speed(a, b) }
}
