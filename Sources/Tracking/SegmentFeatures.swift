import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// Movement features of one window of a track (record 0141), the classifier's inputs.
/// Computed from consecutive fixes with strictly increasing times; speeds are step distance ÷
/// step time, so they carry the GPS noise, which differs between modes too.
public struct SegmentFeatures: Sendable, Equatable {
    /// Feature names in `values` order (units in brackets).
    public static let names = [
        "speed_p10_mps", "speed_p50_mps", "speed_p85_mps", "speed_p95_mps", "mean_speed_mps",
        "speed_cv", "accel_p50_mps2", "accel_p90_mps2", "jerk_p90_mps3", "heading_rate_rad_per_100m",
        "stop_fraction", "stops_per_km", "median_dt_s", "straightness",
        "sustained_speed_30s_max_mps", "sustained_speed_60s_max_mps", "chord_speed_30s_p50_mps", "stop_duration_mean_s",
    ]
    /// Spans in seconds over which sustained (chord) speeds are taken (record 0146): GPS jitter
    /// of a few metres cannot fake a fast 30 s chord the way it fakes a fast 1 s step.
    static let sustainedSpans: [Seconds] = [30, 60]
    /// Speed under which a step counts as stopped, m/s (0.6: slower than any walk, faster than
    /// most standing jitter at 1 Hz).
    public static let stopSpeed = 0.6

    /// The values, `names.count` of them, all finite.
    public let values: [Double]
    /// Net displacement ÷ duration in m/s, ≥ 0 (for the stationary rule).
    public let netSpeed: Double
    /// Window duration in seconds, > 0.
    public let duration: Seconds

    /// Features of `points[range]` (at least 2 points, times strictly increasing).
    public init(points: ArraySlice<TrackPoint>) {
        precondition(points.count >= 2, "SegmentFeatures: need at least 2 points, got \(points.count)")
        let first = points.startIndex
        let lat0 = points[first].latitude
        var speeds: [Double] = [], dts: [Double] = [], headings: [Double] = [], lengths: [Double] = []
        speeds.reserveCapacity(points.count); dts.reserveCapacity(points.count)
        var path = 0.0
        var stoppedTime = 0.0, stops = 0, wasStopped = false
        for i in (first + 1)..<points.endIndex {
            let a = points[i - 1], b = points[i]
            let dt = b.time - a.time
            let d = Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                          latitude2: b.latitude, longitude2: b.longitude)
            let v = d / dt
            speeds.append(v); dts.append(dt); lengths.append(d)
            path += d
            let north = b.latitude - a.latitude
            var east = b.longitude - a.longitude
            if east > 180 { east -= 360 } else if east < -180 { east += 360 }
            east *= cos(lat0 * .pi / 180)
            headings.append(atan2(east, north))
            if v < Self.stopSpeed {
                stoppedTime += dt
                if !wasStopped { stops += 1 }
                wasStopped = true
            } else {
                wasStopped = false
            }
        }
        let duration = points[points.endIndex - 1].time - points[first].time
        let mean = path / duration
        var variance = 0.0
        for (v, dt) in zip(speeds, dts) { variance += (v - mean) * (v - mean) * dt }
        variance /= duration
        var accels: [Double] = [], jerks: [Double] = []
        var signedAccels: [Double] = []
        for i in speeds.indices.dropFirst() {
            let a = (speeds[i] - speeds[i - 1]) / ((dts[i] + dts[i - 1]) / 2)
            signedAccels.append(a); accels.append(abs(a))
        }
        for i in signedAccels.indices.dropFirst() {
            jerks.append(abs(signedAccels[i] - signedAccels[i - 1]) / dts[i])
        }
        // Turning: heading changes between steps long enough for a direction (≥ 2 m).
        var turning = 0.0, lastHeading: Double? = nil
        for (h, d) in zip(headings, lengths) where d >= 2 {
            if let last = lastHeading {
                var delta = abs(h - last)
                if delta > .pi { delta = 2 * .pi - delta }
                turning += delta
            }
            lastHeading = h
        }
        let a = points[first], b = points[points.endIndex - 1]
        let net = Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                        latitude2: b.latitude, longitude2: b.longitude)
        let sortedSpeeds = speeds.sorted(), sortedAccels = accels.sorted()
        let sustained30 = Self.chordSpeeds(points, span: Self.sustainedSpans[0])
        let sustained60 = Self.chordSpeeds(points, span: Self.sustainedSpans[1])
        values = [
            Self.percentile(sortedSpeeds, 0.10), Self.percentile(sortedSpeeds, 0.50),
            Self.percentile(sortedSpeeds, 0.85), Self.percentile(sortedSpeeds, 0.95), mean,
            mean > 0 ? variance.squareRoot() / mean : 0,
            Self.percentile(sortedAccels, 0.5), Self.percentile(sortedAccels, 0.9),
            Self.percentile(jerks.sorted(), 0.9),
            turning / max(path, 1) * 100,
            stoppedTime / duration,
            Double(stops) / max(path / 1000, 0.1),
            Self.percentile(dts.sorted(), 0.5),
            path > 0 ? net / path : 0,
            sustained30.max() ?? 0, sustained60.max() ?? 0, Self.percentile(sustained30.sorted(), 0.5),
            stops > 0 ? stoppedTime / Double(stops) : 0,
        ]
        netSpeed = net / duration
        self.duration = duration
    }

    /// Chord speeds in m/s over spans of at least `span` seconds: for each fix i, the straight
    /// distance to the first fix j with t_j − t_i ≥ span, over t_j − t_i. A window shorter than
    /// `span` gives its net speed once.
    static func chordSpeeds(_ points: ArraySlice<TrackPoint>, span: Seconds) -> [Double] {
        var result: [Double] = []
        var j = points.startIndex
        for i in points.indices {
            if j <= i { j = i + 1 }
            while j < points.endIndex && points[j].time - points[i].time < span { j += 1 }
            guard j < points.endIndex else { break }
            result.append(Track.speed(points[i], points[j]))
        }
        if result.isEmpty { result.append(Track.speed(points[points.startIndex], points[points.endIndex - 1])) }
        return result
    }

    /// Linear-interpolated quantile `q` in [0, 1] of ascending `sorted`; 0 when empty.
    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let x = q * Double(sorted.count - 1)
        let i = Int(saturating: x), w = x - Double(i)
        return i + 1 < sorted.count ? sorted[i] * (1 - w) + sorted[i + 1] * w : sorted[i]
    }
}
