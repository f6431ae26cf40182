import RunusCore

/// `LiveCleaningStage` for the spike filters of records 0101 and 0152: the rules of
/// `Track.cleaned` (the spike test is its own `Track.isSpike`), with the pending fix exposed. A
/// fix is settled once the next valid fix arrives; only the first three valid fixes wait
/// together, for the leading-spike test. Keeps the last settled fix, the pending one and the
/// distance between them (the next spike test's first leg, and the settled segment's length
/// downstream), and the cheap chord's reference latitude (record 0170). When the cleaner
/// changes, this stage is what to replace (its test checks it against `Track.cleaned` at every
/// prefix).
public struct SpikeCleaningStage: LiveCleaningStage {
    public let configuration: MetricsConfiguration
    /// Valid fixes before the leading-spike test could run (at most 2 between calls).
    private var leading: [TrackPoint] = []
    private var leadingDecided = false
    /// The last settled fix.
    private var lastSettled: TrackPoint?
    /// The last valid fix, not yet settled (its fate depends on the next one).
    private var pending: TrackPoint?
    /// `Geodesy.localDistance` from `lastSettled` to `pending` in metres, when the last spike
    /// test computed it: the next test's first leg, and the segment's length downstream.
    private var pendingLength: Meters?
    /// The cheap chord the spike test decides with when it can (record 0170).
    private var cheap = LocalChordBound()

    public init(configuration: MetricsConfiguration = .default) { self.configuration = configuration }

    public mutating func append<S: CleanedFixSink>(_ p: TrackPoint, into sink: inout S) {
        guard p.time.isFinite, p.latitude.isFinite, p.longitude.isFinite, abs(p.latitude) <= 90 else { return }
        if leadingDecided {
            // The common case: a fix is pending from the leading test on.
            if let last = pending?.time, p.time <= last { return }
            advance(p, into: &sink)
            return
        }
        if let last = leading.last, p.time <= last.time { return }
        leading.append(p)
        guard leading.count == 3 else { return }
        if speed(leading[0], leading[1]) > configuration.maxSpeed, speed(leading[1], leading[2]) <= configuration.maxSpeed {
            leading.removeFirst()
        }
        leadingDecided = true
        let first = leading
        leading = []
        for q in first { advance(q, into: &sink) }
    }

    public var provisional: [TrackPoint] {
        guard leadingDecided else { return Track(points: leading).cleaned(configuration: configuration).points }
        guard let p = pending else { return [] }
        // A final fix that jumps away has no neighbour to vouch for it.
        if let last = lastSettled, speed(last, p) > configuration.maxSpeed { return [] }
        return [p]
    }

    /// Settles the pending fix now that `q` follows it (or drops it as a spike); `q` is pending.
    private mutating func advance<S: CleanedFixSink>(_ q: TrackPoint, into sink: inout S) {
        var length: Meters? = nil   // from the fix settled last to q
        if let p = pending {
            if let last = lastSettled {
                var d = Track.SpikeDistances(lastToP: pendingLength)
                if Track.isSpike(last, p, q, configuration: configuration, distances: &d, cheap: &cheap) {
                    length = d.lastToNext   // p dropped as a spike
                } else {
                    lastSettled = p
                    sink.accept(cleaned: p, length: d.lastToP)
                    length = d.pToNext
                }
            } else {
                lastSettled = p
                sink.accept(cleaned: p, length: nil)
            }
        }
        pending = q
        pendingLength = length
    }

    private func speed(_ a: TrackPoint, _ b: TrackPoint) -> Double { Track.speed(a, b) }
}
