import RunusCore

/// Receives cleaned fixes, in order, from a `LiveCleaningStage`: the tracker's later stages, or
/// a collector in the tests.
public protocol CleanedFixSink {
    mutating func accept(cleaned point: TrackPoint)
    /// The same, with `length` = `Geodesy.localDistance` from the previous cleaned fix to
    /// `point` (in that order; metres, ≥ 0) when the cleaner has computed it, else nil.
    mutating func accept(cleaned point: TrackPoint, length: Meters?)
}

extension CleanedFixSink {
    public mutating func accept(cleaned point: TrackPoint, length: Meters?) { accept(cleaned: point) }
}

/// The first stage of `LiveTracker`: `Track.cleaned` one fix at a time, split into fixes that no
/// later fix can remove (`settled`, pushed to the sink) and the few that may still go
/// (`provisional`). After any prefix, the settled fixes followed by `provisional` must equal
/// `Track(points: prefix).cleaned(configuration:)`, and `provisional` must stay short (a
/// bounded number of fixes), or the tracker loses its amortised O(1).
public protocol LiveCleaningStage: Sendable {
    init(configuration: MetricsConfiguration)
    /// Adds the next recorded fix; fixes it settles go to `sink`, in order.
    mutating func append<S: CleanedFixSink>(_ point: TrackPoint, into sink: inout S)
    /// Cleaned fixes after the settled ones, as if the track ended now.
    var provisional: [TrackPoint] { get }
}
