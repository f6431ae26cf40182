import RunusCore

/// The optimistic tail of `LiveTracker` (record 0160): the run stage fed every cleaned fix as
/// soon as it arrives, as if none of the undecided ones were a vehicle. While the vehicle stages
/// decide no vehicle segment, it equals the decided run stage followed by the undecided tail
/// accepted as foot segments, which is what a snapshot computes when the tail, decided as if the
/// run ended now, holds no vehicle: such a snapshot then finishes a copy of this state instead of
/// replaying the tail through the totals. A vehicle decision invalidates it; it is rebuilt from
/// the decided stage and the tail once as many fixes have arrived since as the tail holds, so
/// the rebuilds cost at most one replayed fix per appended fix.
struct LiveOptimisticTail: Sendable {
    /// The decided run stage plus the tail as foot segments; nil while invalid.
    private var run: LiveRunStage<LiveProfileShadow>?
    /// The decided stage's count of vehicle segments that `run` assumed.
    private var mark = 0
    /// Fixes arrived since `run` became invalid.
    private var waited = 0
    /// Segments accepted (fed or replayed), for the work count.
    private(set) var work = 0

    init() {}

    /// Follows the cleaned fix `p` (`length` metres from the previous one) that `vehicles` has
    /// just taken, after `decided` took whatever it decided.
    mutating func follow(_ p: TrackPoint, length: Meters, vehicles: LiveVehicleStage,
                         decided: LiveRunStage<LiveProfileArrays>) {
        if run != nil && mark != decided.vehicleSegments { run = nil; waited = 0 }
        guard run != nil else {
            waited += 1
            if waited >= vehicles.undecided { rebuild(vehicles: vehicles, decided: decided) }
            return
        }
        // In place (`run!`), so that no copy of the stage is made per fix.
        run!.storage.borrow(decided.storage)
        run!.accept(LiveStep(point: p, distance: length, windowedSpeed: .nan), vehicle: false)   // not known yet
        run!.storage.release()
        work += 1
    }

    private mutating func rebuild(vehicles: LiveVehicleStage, decided: LiveRunStage<LiveProfileArrays>) {
        var stage = LiveRunStage(copying: decided, storage: LiveProfileShadow(over: decided.storage))
        vehicles.forEachUndecided { step in
            stage.accept(step, vehicle: false)
            work += 1
        }
        stage.storage.release()
        run = stage
        mark = decided.vehicleSegments
    }

    /// The record as if the run ended now, when the tail (the vehicle stages' held segments and
    /// cleaning's `provisional` fixes) decides no vehicle segment; nil otherwise (the caller
    /// then replays the tail).
    func snapshot(vehicles: LiveVehicleStage, provisional: [TrackPoint], decided: LiveRunStage<LiveProfileArrays>,
                  weightKg: Double?, configuration: MetricsConfiguration) -> LiveMetrics? {
        guard var stage = run, mark == decided.vehicleSegments, stage.committed == nil else { return nil }
        stage.storage.detach()
        var probe = VehicleProbe()
        var vehicles = vehicles
        vehicles.detach()
        stage.storage.borrow(decided.storage)
        for p in provisional {
            vehicles.append(p, into: &probe)
            stage.accept(LiveStep(point: p, distance: vehicles.lastLength, windowedSpeed: .nan), vehicle: false)
        }
        vehicles.finish(into: &probe)
        guard !probe.vehicle else { return nil }
        let totals = stage.finish()
        return LiveMetrics(totals: totals, splits: stage.storage.splits(count: totals?.splits.count ?? 0),
                           weightKg: weightKg, configuration: configuration)
    }

    /// Notes whether any segment is decided a vehicle.
    private struct VehicleProbe: LiveSegmentSink {
        var vehicle = false
        mutating func accept(_ step: LiveStep, vehicle: Bool) { if vehicle { self.vehicle = true } }
        static var readsSteps: Bool { false }
        mutating func accept(count: Int, vehicle: Bool) { if vehicle && count > 0 { self.vehicle = true } }
    }
}
