import RunusCore

/// The motion stage: leading vehicle parts skipped, trailing ones held back (a run's record ends
/// where the runner last left a vehicle; a vehicle part in the middle counts neither distance
/// nor moving time), then `LiveTotals`. As in `RunMetrics.init`, the jitter filter and
/// auto-pause see every fix between the cuts, mid-run vehicle fixes included. Keeps the totals,
/// a saved copy of them from before the current trailing vehicle segments (the record if the run
/// ended now), and the profile storage the totals write to (`Storage`: the tracker's arrays, a
/// snapshot's copy or overlay, or the optimistic tail's shadow).
struct LiveRunStage<Storage: LiveProfileStorage>: LiveSegmentSink {
    let configuration: MetricsConfiguration
    let effortDistances: [Meters]
    var storage: Storage
    /// No fix yet; a first fix waiting for a foot segment (a leading vehicle segment replaces
    /// it); or running, `totals` set.
    private enum Phase: Sendable { case empty, leading(TrackPoint), running }
    private var phase = Phase.empty
    private(set) var totals: LiveTotals?
    /// The totals before the current trailing run of vehicle segments, if any: the record if
    /// the run ended now (their auto-pause window then ends at the last foot fix, as batch's).
    private(set) var committed: LiveTotals?
    /// `committed != nil`, kept apart, so that a foot segment does not test the large optional.
    private var holdsCommitted = false
    /// Segments accepted with the vehicle flag (what invalidates an optimistic tail).
    private(set) var vehicleSegments = 0
    /// A leading vehicle part was skipped (the run does not start at the first cleaned fix).
    private var leadingCut = false

    init(configuration: MetricsConfiguration, effortDistances: [Meters], storage: Storage) {
        self.configuration = configuration
        self.effortDistances = effortDistances
        self.storage = storage
    }

    /// The same stage writing into `storage` (a snapshot's overlay).
    init<Other>(copying other: LiveRunStage<Other>, storage: Storage) {
        configuration = other.configuration
        effortDistances = other.effortDistances
        self.storage = storage
        switch other.phase {
        case .empty: phase = .empty
        case .leading(let p): phase = .leading(p)
        case .running: phase = .running
        }
        totals = other.totals
        committed = other.committed
        holdsCommitted = other.holdsCommitted
        vehicleSegments = other.vehicleSegments
        leadingCut = other.leadingCut
    }

    /// Segments held in the totals until auto-pause decides them.
    var undecided: Int { totals?.undecided ?? 0 }

    mutating func accept(_ step: LiveStep, vehicle: Bool) {
        if vehicle { vehicleSegments += 1 }
        switch phase {
        case .empty:
            phase = .leading(step.point)
        case .leading(let q):
            guard !vehicle else { phase = .leading(step.point); leadingCut = true; return }
            start(q)
            totals!.add(step.point, length: step.distance, vehicle: false, windowedSpeed: step.windowedSpeed,
                        storage: &storage)
        case .running:
            // Tested before writing: assigning nil writes the whole (large) optional each fix.
            if vehicle {
                if !holdsCommitted { committed = totals; holdsCommitted = true }
            } else if holdsCommitted {
                committed = nil; holdsCommitted = false
            }
            totals!.add(step.point, length: step.distance, vehicle: vehicle, windowedSpeed: step.windowedSpeed,
                        storage: &storage)
        }
    }

    private mutating func start(_ q: TrackPoint) {
        phase = .running
        totals = LiveTotals(first: q, leadingCut: leadingCut, configuration: configuration, effortDistances: effortDistances,
                            storage: &storage)
    }

    /// The totals of the run as if it ended now (a lone fix starts one). Only for a copy: the
    /// storage may be cut back to the saved totals.
    mutating func finish() -> LiveTotals? {
        if case .leading(let q) = phase { start(q) }
        guard var result = committed ?? totals else { return nil }
        storage.truncate(count: result.profileCount, splits: result.splits.count)
        result.finish(storage: &storage)
        return result
    }
}

extension LiveRunStage: Sendable where Storage: Sendable {}
