import RunusCore
import Tracking

/// Synthetic runs built with `Geodesy.destination`: legs of constant pace, 1 fix per second.
enum SyntheticRun {
    /// `legs`: (distance in m, pace in s/km). Returns the metrics of the run.
    static func metrics(_ legs: [(Meters, SecondsPerKm)], start: EpochSeconds = 1_780_000_000) -> RunMetrics {
        var lat = 52.52, lon = 13.405, t = start
        var points = [TrackPoint(time: t, latitude: lat, longitude: lon)]
        for (distance, pace) in legs {
            let speed = 1000 / pace
            var covered = 0.0
            while covered < distance - 1e-9 {
                let step = min(speed, distance - covered)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: 75, distance: step)
                lat = p.latitude; lon = p.longitude
                t += step / speed; covered += step
                points.append(TrackPoint(time: t, latitude: lat, longitude: lon))
            }
        }
        return RunMetrics(track: Track(points: points))
    }
}
