import RunusCore

/// The run record computed live, one fix at a time (record 0160): the same numbers as
/// `RunMetrics(track:)` of the fixes appended so far, bit for bit, in amortised O(1) per fix.
///
/// Keeps three stages, each passing on what no later fix can change and holding back the rest:
/// cleaning (`SpikeCleaningStage`: the newest fix), vehicle flags (`LiveVehicleStage`: the speed
/// rule's open stretch, and in `LivePartStage` the classifier's last few windows, a bounded tail
/// of some minutes), and the running totals (`LiveRunStage` and its `LiveTotals`: the batch's own
/// `AutoPause` and the jitter filter's spread steps, whose last 10 s wait; distance, moving time,
/// splits, best efforts, elevation, heart rate, calories), plus, when asked for, an optimistic
/// copy of the totals (`LiveOptimisticTail`). `append` pushes decided fixes through once;
/// `snapshot()` copies the small stage states and decides the tail as if the run ended now, so
/// that its cost is the tail's, not the run's. The property tests compare every snapshot with
/// the batch record on random and real tracks. How fast each configuration runs, and why the
/// stages are built as they are: `docs/performance/live-tracker.md`.
public struct LiveTracker: Sendable {
    /// The cleaning stage; swap here when the cleaner changes (record 0160).
    public typealias Cleaner = SpikeCleaningStage

    public let configuration: MetricsConfiguration
    /// Body mass in kg (> 0) for calories, if known.
    public let weightKg: Double?
    /// Distances in metres whose best efforts are kept.
    public let effortDistances: [Meters]
    /// Whether the tracker keeps an optimistic tail (`LiveOptimisticTail`, record 0160): while the
    /// undecided tail holds no vehicle, a snapshot then costs the vehicle stages' closing (the
    /// forming window's features, the last windows' labels) instead of a replay of the tail
    /// through the totals, and `append` does the totals' work twice. For a snapshot after
    /// (nearly) every fix, as the daemon's race tracker takes them.
    public let optimisticTail: Bool
    private var cleaner: Cleaner
    private var downstream: Stages
    /// Fixes appended, including those cleaning dropped.
    public private(set) var appended = 0

    /// Distances, metres, whose best efforts are kept by default: 400 m, 1 km, 1 mile, 3 km, 5 km,
    /// 10 km, half marathon, marathon (`RunMetrics.effortDistances`, the one list).
    public static let defaultEffortDistances: [Meters] = RunMetrics.effortDistances

    /// - Parameters:
    ///   - weightKg: body mass in kg (> 0), needed for calories.
    ///   - classifier: the activity classifier (default `.default`, as `RunMetrics`).
    ///   - optimisticTail: keep the optimistic tail, for a snapshot after (nearly) every fix.
    public init(weightKg: Double? = nil, configuration: MetricsConfiguration = .default,
                effortDistances: [Meters] = LiveTracker.defaultEffortDistances, classifier: ActivityClassifier? = nil,
                optimisticTail: Bool = false) {
        precondition(weightKg.map { $0 > 0 } ?? true, "LiveTracker: weightKg must be positive, got \(weightKg!)")
        self.configuration = configuration
        self.weightKg = weightKg
        self.effortDistances = effortDistances
        self.optimisticTail = optimisticTail
        cleaner = Cleaner(configuration: configuration)
        downstream = Stages(vehicles: LiveVehicleStage(configuration: configuration, classifier: classifier),
                            run: LiveRunStage(configuration: configuration, effortDistances: effortDistances,
                                              storage: LiveProfileArrays()),
                            optimistic: optimisticTail ? LiveOptimisticTail() : nil)
    }

    /// Adds the next recorded fix (out-of-order or invalid ones are dropped by cleaning, as in
    /// the batch record). Amortised O(1).
    public mutating func append(_ point: TrackPoint) {
        appended += 1
        cleaner.append(point, into: &downstream)
    }

    public mutating func append<C: Sequence>(contentsOf points: C) where C.Element == TrackPoint {
        for p in points { append(p) }
    }

    /// The run record so far: equal to `RunMetrics(track:)` of the fixes appended (see the type).
    /// Costs O(tail), not O(run); with the optimistic tail and no vehicle in the tail, only the
    /// vehicle stages' part of it.
    public func snapshot() -> LiveMetrics { optimisticSnapshot() ?? replayedSnapshot() }

    /// The snapshot from the optimistic tail, when the tracker keeps one and the tail, decided
    /// as if the run ended now, holds no vehicle segment.
    func optimisticSnapshot() -> LiveMetrics? {
        downstream.optimistic?.snapshot(vehicles: downstream.vehicles, provisional: cleaner.provisional,
                                        decided: downstream.run, weightKg: weightKg, configuration: configuration)
    }

    /// The snapshot by replaying the tail through copies of the stages.
    func replayedSnapshot() -> LiveMetrics {
        copiesHistory ? replayedSnapshot(contiguous: true) : replayedSnapshot(contiguous: false)
    }

    /// `replayedSnapshot()` with the decided profile copied into one storage (`contiguous`) or
    /// read through an overlay; the same record either way (tested).
    func replayedSnapshot(contiguous: Bool) -> LiveMetrics {
        contiguous ? replayedSnapshot(decidedTail(contiguousHistory())) : replayedSnapshot(decidedTail(overlaidHistory()))
    }

    private func replayedSnapshot<S: LiveSnapshotStorage>(_ tail: Downstream<S>) -> LiveMetrics {
        var tail = tail
        let totals = tail.run.finish()
        let count = totals?.splits.count ?? 0
        return LiveMetrics(totals: totals, splits: tail.run.storage.splits(count: count), weightKg: weightKg,
                           configuration: configuration)
    }

    /// Cumulative distance against time so far (as `RunMetrics.profile`). O(run): for a finish
    /// line crossed, not for every fix.
    public func profile() -> DistanceProfile {
        copiesHistory ? profile(decidedTail(contiguousHistory())) : profile(decidedTail(overlaidHistory()))
    }

    private func profile<S: LiveSnapshotStorage>(_ tail: Downstream<S>) -> DistanceProfile {
        var tail = tail
        let n = tail.run.finish()?.profileCount ?? 0
        return tail.run.storage.profile(count: n)
    }

    /// Whether a replayed snapshot copies the decided profile into one contiguous storage
    /// instead of reading it through an overlay (`LiveProfileOverlay`, whose every read
    /// branches between the two pieces): when the decided entries are at most
    /// `historyCopyFactor` times the undecided tail, so that the copy stays O(tail) and a
    /// snapshot after every fix of a long run still costs the tail's replay, not the run's.
    var copiesHistory: Bool { decidedEntries <= Self.historyCopyFactor * undecided }

    /// Decided profile entries (the run's cleaned fixes in the totals so far).
    var decidedEntries: Int { downstream.run.storage.count }

    /// Decided profile entries copied per undecided fix at most, ≥ 0.
    static let historyCopyFactor = 4

    /// The decided profile in one storage with room for the tail (one copy of its arrays).
    private func contiguousHistory() -> LiveProfileArrays {
        var history = downstream.run.storage
        history.reserve(extra: undecided + 1)
        return history
    }

    /// The decided profile read-only, the tail's entries apart.
    private func overlaidHistory() -> LiveProfileOverlay { LiveProfileOverlay(base: downstream.run.storage) }

    /// Fixes whose part of the record is not decided yet (cleaning's and the vehicle stage's
    /// tail): what a snapshot recomputes. Bounded by the stages' holding times, not by the run.
    public var undecided: Int { cleaner.provisional.count + downstream.vehicles.undecided + downstream.run.undecided }

    /// Elementary steps done by `append` so far (fixes through each stage, fixes read for window
    /// features, best-effort pointer moves): linear in the fixes appended.
    public var work: Int {
        appended + downstream.vehicles.work + downstream.vehicles.parts.work
            + (downstream.run.totals?.efforts.reduce(0) { $0 + $1.work } ?? 0)
    }

    /// Segments the optimistic tail accepted (fed or replayed after a vehicle decision), 0
    /// without one: at most about twice the fixes appended.
    var optimisticWork: Int { downstream.optimistic?.work ?? 0 }

    /// The stages copied, with the tail decided as if the run ended now.
    private func decidedTail<S: LiveSnapshotStorage>(_ storage: S) -> Downstream<S> {
        var tail = Downstream(vehicles: downstream.vehicles, run: LiveRunStage(copying: downstream.run, storage: storage))
        tail.vehicles.detach()
        for p in cleaner.provisional { tail.accept(cleaned: p) }
        tail.vehicles.finish(into: &tail.run)
        return tail
    }
}

/// The tracker's stages after cleaning, and the optimistic tail that follows them: what the
/// cleaning stage pushes settled fixes into.
private struct Stages: CleanedFixSink, Sendable {
    var vehicles: LiveVehicleStage
    var run: LiveRunStage<LiveProfileArrays>
    var optimistic: LiveOptimisticTail?

    mutating func accept(cleaned point: TrackPoint) { accept(cleaned: point, length: nil) }

    mutating func accept(cleaned point: TrackPoint, length: Meters?) {
        vehicles.append(point, length: length, into: &run)
        optimistic?.follow(point, length: vehicles.lastLength, vehicles: vehicles, decided: run)
    }
}

/// The stages after cleaning as a snapshot copies them (no optimistic tail), writing their
/// profile into `Storage`: the decided profile copied whole, or an overlay over it.
private struct Downstream<Storage: LiveProfileStorage>: CleanedFixSink {
    var vehicles: LiveVehicleStage
    var run: LiveRunStage<Storage>

    mutating func accept(cleaned point: TrackPoint) { vehicles.append(point, into: &run) }
}

extension Downstream: Sendable where Storage: Sendable {}
