import RunusCore

/// One cleaned fix with the length and windowed speed of the segment that ends at it.
public struct LiveStep: Sendable, Equatable {
    public var point: TrackPoint
    /// `Geodesy.localDistance` from the previous cleaned fix in metres, ≥ 0 (0 for the first).
    public var distance: Meters
    /// The segment's windowed speed (`Track.windowedSpeeds`, record 0130) in m/s, ≥ 0 (0 for the
    /// first fix; NaN in steps handed on before it is known, which only the optimistic tail does),
    /// for comparing with `vehicleSpeed`, `pauseSpeed` and `resumeSpeed` only: it is exact near
    /// them and elsewhere may be off by a fraction of a per cent, on the same side of each
    /// (`ChordSpeedFilter`, record 0166).
    public var windowedSpeed: Double
}

/// Receives cleaned fixes in order, each with its segment's vehicle flag (false for the first
/// fix): the flags `Track.vehicleSegments` gives the whole track, decided for good.
protocol LiveSegmentSink {
    mutating func accept(_ step: LiveStep, vehicle: Bool)
    /// Whether `accept` reads its step. A sink that only notes the flags (a snapshot's vehicle
    /// probe) says false and takes runs of segments with one flag through `accept(count:vehicle:)`.
    static var readsSteps: Bool { get }
    /// The next `count` segments, all with the flag `vehicle` (only called when `readsSteps` is false).
    mutating func accept(count: Int, vehicle: Bool)
}

extension LiveSegmentSink {
    static var readsSteps: Bool { true }
    mutating func accept(count: Int, vehicle: Bool) {
        preconditionFailure("LiveSegmentSink: accept(count:vehicle:) on a sink that reads its steps")
    }
}
