import RunusCore
import Tracking

/// Builds synthetic tracks by walking along a bearing with `Geodesy.destination`.
struct TrackBuilder {
    var points: [TrackPoint] = []
    var latitude: Double, longitude: Double, time: EpochSeconds
    var bearing: Double

    init(latitude: Double = 48.2, longitude: Double = 16.37, time: EpochSeconds = 1_780_000_000, bearing: Double = 37) {
        self.latitude = latitude; self.longitude = longitude; self.time = time; self.bearing = bearing
        points.append(TrackPoint(time: time, latitude: latitude, longitude: longitude))
    }

    /// Runs at `speed` m/s for `seconds`, one fix every `interval` seconds.
    mutating func run(speed: Double, seconds: Double, interval: Double = 1,
                      elevation: ((EpochSeconds) -> Meters?)? = nil, heartRate: Double? = nil) {
        var elapsed = 0.0
        while elapsed + interval <= seconds + 1e-9 {
            let p = Geodesy.destination(latitude: latitude, longitude: longitude, bearing: bearing, distance: speed * interval)
            latitude = p.latitude; longitude = p.longitude
            time += interval; elapsed += interval
            points.append(TrackPoint(time: time, latitude: latitude, longitude: longitude,
                                     elevation: elevation?(time), heartRate: heartRate))
        }
    }

    var track: Track { Track(points: points) }
}
