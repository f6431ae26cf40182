import RunusCore
import Tracking

/// A finished (or growing) run as the mission check sees it: the metrics, plus the positions
/// of the same cleaned fixes the metrics' distance profile is built on
/// (leading and trailing vehicle parts cut, record 0106). Vehicle parts in the middle stay as
/// fixes, but the profile's distance is flat across them, so no distance-based check counts them.
public struct MissionRun: Sendable {
    public let metrics: RunMetrics
    /// Latitude and longitude in degrees of each profile fix (`metrics.profile.times` order);
    /// empty when the run was given as metrics only.
    public let latitudes: [Double]
    public let longitudes: [Double]
    /// The metrics configuration used.
    public let configuration: MetricsConfiguration

    /// Computes the metrics of `track` and keeps the positions of their fixes. O(n).
    public init(track: Track, configuration: MetricsConfiguration = .default) {
        self.init(track: track, metrics: RunMetrics(track: track, configuration: configuration), configuration: configuration)
    }

    /// The run of `track` with metrics already computed from it with the same `configuration`
    /// (e.g. with the runner's weight for calories, which does not change the profile). O(n).
    /// Metrics measured without positions (the device's stream alone, a summary; record 0116)
    /// keep no positions, whatever fixes the track has.
    public init(track: Track, metrics: RunMetrics, configuration: MetricsConfiguration = .default) {
        guard metrics.hasPositions else {
            self = MissionRun(metrics: metrics, configuration: configuration)
            return
        }
        let times = metrics.profile.times
        var lats: [Double] = [], lons: [Double] = []
        lats.reserveCapacity(times.count); lons.reserveCapacity(times.count)
        // The profile's fixes are a contiguous run of the cleaned fixes: match them by time.
        var k = 0
        for p in track.cleaned(configuration: configuration).points where k < times.count {
            if p.time == times[k] {
                lats.append(p.latitude); lons.append(p.longitude)
                k += 1
            }
        }
        guard k == times.count else {
            // Metrics computed with another configuration than this one: the positions cannot
            // be matched to the profile, so the run is known by its metrics alone (stored or
            // outside tracks never trap the daemon).
            self = MissionRun(metrics: metrics, configuration: configuration)
            return
        }
        self.metrics = metrics
        self.latitudes = lats
        self.longitudes = lons
        self.configuration = configuration
    }

    /// A run known only by its metrics: kinds that need positions (loop, explorer) are not
    /// applicable.
    public init(metrics: RunMetrics, configuration: MetricsConfiguration = .default) {
        self.metrics = metrics
        self.latitudes = []
        self.longitudes = []
        self.configuration = configuration
    }

    /// Whether positions are known for every profile fix.
    public var hasPositions: Bool { !latitudes.isEmpty && latitudes.count == metrics.profile.times.count }
}
