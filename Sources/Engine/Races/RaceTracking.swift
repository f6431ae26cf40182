import RunusCore
import Tracking

/// What a race room needs from a runner's position stream: points in, distance out. The
/// distance follows the same rules as a finished run's (cleaning, auto-pause, vehicle parts
/// removed), so a runner in a car does not advance.
public protocol RaceDistanceTracker: Sendable {
    /// Adds points in time order (points not after the last accepted time are ignored).
    mutating func append(_ points: [TrackPoint])
    /// Distance covered so far, metres.
    var distance: Meters { get }
    /// Cumulative distance against time, to interpolate the moment a distance was crossed.
    /// May cost O(points so far): rooms read it once, when the finish is crossed.
    var profile: DistanceProfile { get }
}

/// The reference tracker: recomputes `RunMetrics` over all points on every update. Exact by
/// construction (the same numbers as the offline run record) at O(n) per update; the test
/// oracle for `LiveRaceTracker`.
public struct RecomputingRaceTracker: RaceDistanceTracker {
    private var points: [TrackPoint] = []
    private var metrics: RunMetrics?
    let configuration: MetricsConfiguration

    public init(configuration: MetricsConfiguration = .default) { self.configuration = configuration }

    public mutating func append(_ new: [TrackPoint]) {
        for p in new where points.last.map({ p.time > $0.time }) ?? true { points.append(p) }
        metrics = RunMetrics(track: Track(points: points), configuration: configuration)
    }

    public var distance: Meters { metrics?.distance ?? 0 }
    public var profile: DistanceProfile {
        metrics?.profile ?? DistanceProfile(times: [], distances: [], moving: [])
    }
}

/// The daemon's tracker: a `LiveTracker` (record 0160), so an update costs the new points plus
/// the tracker's bounded undecided tail, not the whole race so far; the distance after every
/// update equals `RecomputingRaceTracker`'s (the same numbers as the offline run record).
public struct LiveRaceTracker: RaceDistanceTracker {
    private var live: LiveTracker
    private var lastTime: EpochSeconds?
    public private(set) var distance: Meters = 0

    public init(configuration: MetricsConfiguration = .default) {
        // Races need distance and time only: no best efforts to keep. A snapshot follows every
        // batch, so the optimistic tail (record 0160) keeps it O(1) while nothing is a vehicle.
        live = LiveTracker(configuration: configuration, effortDistances: [], optimisticTail: true)
    }

    public mutating func append(_ new: [TrackPoint]) {
        for p in new where lastTime.map({ p.time > $0 }) ?? true {
            lastTime = p.time
            live.append(p)
        }
        distance = live.snapshot().distance
    }

    public var profile: DistanceProfile { live.profile() }
}
