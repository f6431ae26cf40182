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

/// The optimistic tail's profile: the decided stage's arrays (borrowed for the length of a
/// call, so that the decided stage stays their only owner between calls and appends without
/// copying) for entries before `start`, and its own entries from `start` on. The decided
/// entries from `start` on, when there are any, equal its own (the same segments, accepted the
/// same way), so either may be read; its own are dropped once the decided ones cover most of
/// them.
struct LiveProfileShadow: LiveProfileStorage, Sendable {
    private var base = LiveProfileArrays()
    /// Global index of `own`'s first entry and of its first split.
    private var start: Int, splitStart: Int
    private var own = LiveProfileArrays()
    /// A snapshot's copy (`detach()`) adds its entries here, never writing to `own`, which it
    /// shares with the tracker's (a write would copy the tail's entries, record 0161).
    private var extra = LiveProfileArrays()
    private var detached = false

    /// 1: the optimistic stage advances its best efforts on every fix, so that a snapshot's copy
    /// finishes none (batching them would make every snapshot advance the pending ones, work
    /// that the stage then does again).
    static var effortBatch: Int { 1 }

    /// Starts where `decided` ends (its arrays borrowed).
    init(over decided: LiveProfileArrays) {
        base = decided
        start = decided.count
        splitStart = decided.splits.count
    }

    /// Reads `decided` for the entries before `start` until `release()`; drops own entries it
    /// covers once they are most of them (amortised O(1)).
    mutating func borrow(_ decided: LiveProfileArrays) {
        base = decided
        guard !detached else { return }
        precondition(decided.count >= start && decided.splits.count >= splitStart,
                     "LiveProfileShadow: the decided profile (\(decided.count) entries) is shorter than start \(start)")
        base = decided
        let covered = min(decided.count - start, own.count)
        if covered > 256 && covered * 2 > own.count {
            own.entries.removeFirst(covered)
            start += covered
        }
        let coveredSplits = min(decided.splits.count - splitStart, own.splits.count)
        if coveredSplits > 16 && coveredSplits * 2 > own.splits.count {
            own.splits.removeFirst(coveredSplits)
            splitStart += coveredSplits
        }
    }

    /// Drops the borrowed arrays.
    mutating func release() { base = LiveProfileArrays() }

    /// Makes this copy (a snapshot's) add its entries and splits apart from `own`.
    mutating func detach() { detached = true }

    var count: Int { start + own.count + extra.count }
    func time(_ i: Int) -> EpochSeconds {
        i < start ? base.entries[i].time : i - start < own.count ? own.entries[i - start].time
            : extra.entries[i - start - own.count].time
    }
    func distance(_ i: Int) -> Meters {
        i < start ? base.entries[i].distance : i - start < own.count ? own.entries[i - start].distance
            : extra.entries[i - start - own.count].distance
    }
    mutating func append(time: EpochSeconds, distance: Meters, moving: Bool) {
        if detached { extra.append(time: time, distance: distance, moving: moving) } else { own.append(time: time, distance: distance, moving: moving) }
    }
    mutating func appendSplit(_ split: Split) { if detached { extra.appendSplit(split) } else { own.appendSplit(split) } }
    mutating func truncate(count n: Int, splits k: Int) {
        precondition(n >= start && k >= splitStart, "LiveProfileShadow: cannot truncate to \(n) entries below start \(start)")
        if n - start >= own.count && k - splitStart >= own.splits.count {
            extra.truncate(count: n - start - own.count, splits: k - splitStart - own.splits.count)
            return
        }
        // Below `own`'s end (not reached by the optimistic snapshot, which has no cut): fold
        // `extra` in first.
        own.entries += extra.entries; own.splits += extra.splits
        extra = LiveProfileArrays()
        own.truncate(count: n - start, splits: k - splitStart)
    }

    /// The first `n` splits.
    func splits(count n: Int) -> [Split] {
        let k = min(n, splitStart)
        return Array(base.splits[..<k]) + own.splits.prefix(n - k) + extra.splits.prefix(max(0, n - k - own.splits.count))
    }
}
