import RunusCore

/// `Track.cleaned` one fix at a time, keeping every cleaned fix: after any prefix of fixes,
/// `points` equals `Track(points: prefix).cleaned(configuration:)` (tested at every prefix).
/// Amortised O(1) per fix: a fix is settled as soon as the next valid fix arrives (the spike
/// tests look one fix ahead); only the first three valid fixes wait together, for the
/// leading-spike test. The rules are `LiveTracker`'s cleaning stage (`SpikeCleaningStage`, record
/// 0160), so the two cannot drift apart.
public struct StreamingCleaner: Sendable {
    /// Collects settled fixes.
    private struct Settled: CleanedFixSink, Sendable {
        var points: [TrackPoint] = []
        mutating func accept(cleaned point: TrackPoint) { points.append(point) }
    }

    private var stage: SpikeCleaningStage
    private var sink = Settled()

    public init(configuration: MetricsConfiguration = .default) {
        stage = SpikeCleaningStage(configuration: configuration)
    }

    public var configuration: MetricsConfiguration { stage.configuration }

    /// Settled kept fixes, in order.
    public var settled: [TrackPoint] { sink.points }

    /// Adds the next recorded fix.
    public mutating func append(_ p: TrackPoint) {
        stage.append(p, into: &sink)
    }

    /// The cleaned track of everything appended so far.
    public var points: [TrackPoint] { sink.points + stage.provisional }
}
