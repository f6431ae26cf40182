import RunusCore
import Tracking
import Missions

/// Synthetic runs built with `Geodesy.destination`: legs of constant pace, 1 fix per second.
enum SyntheticRun {
    /// Default start: 2026-05-28 20:26:40 UTC.
    static let defaultStart: EpochSeconds = 1_780_000_000
    static let origin = (latitude: 52.52, longitude: 13.405)

    enum Leg {
        /// `distance` metres at `pace` s/km on `bearing` (degrees), climbing `grade` metres per
        /// metre, with a steady heart rate when given.
        case run(Meters, SecondsPerKm, bearing: Double = 75, grade: Double = 0, heartRate: Double? = nil)
        /// Standing still for `seconds` (fixes every second at the same place).
        case stand(Seconds)
        /// A vehicle: `distance` metres at `speed` m/s, climbing `grade` metres per metre.
        case drive(Meters, speed: Double, bearing: Double = 75, grade: Double = 0)
    }

    /// `legs`: (distance in m, pace in s/km). Returns the metrics of the run.
    static func metrics(_ legs: [(Meters, SecondsPerKm)], start: EpochSeconds = defaultStart) -> RunMetrics {
        RunMetrics(track: track(legs.map { .run($0.0, $0.1) }, start: start))
    }

    static func run(_ legs: [Leg], start: EpochSeconds = defaultStart) -> MissionRun {
        MissionRun(track: track(legs, start: start))
    }

    static func track(_ legs: [Leg], start: EpochSeconds = defaultStart,
                      from: (latitude: Double, longitude: Double) = origin) -> Track {
        var lat = from.latitude, lon = from.longitude, t = start, ele = 40.0
        var points = [TrackPoint(time: t, latitude: lat, longitude: lon, elevation: ele)]
        func move(_ distance: Meters, speed: Double, bearing: Double, grade: Double, heartRate: Double?) {
            var covered = 0.0
            while covered < distance - 1e-9 {
                let step = min(speed, distance - covered)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: bearing, distance: step)
                lat = p.latitude; lon = p.longitude
                t += step / speed; covered += step; ele += grade * step
                points.append(TrackPoint(time: t, latitude: lat, longitude: lon, elevation: ele, heartRate: heartRate))
            }
        }
        for leg in legs {
            switch leg {
            case .run(let distance, let pace, let bearing, let grade, let hr):
                move(distance, speed: 1000 / pace, bearing: bearing, grade: grade, heartRate: hr)
            case .stand(let seconds):
                for _ in 0..<Int(seconds) {
                    t += 1
                    points.append(TrackPoint(time: t, latitude: lat, longitude: lon, elevation: ele))
                }
            case .drive(let distance, let speed, let bearing, let grade):
                move(distance, speed: speed, bearing: bearing, grade: grade, heartRate: nil)
            }
        }
        return Track(points: points)
    }

    /// Unix instant of a local clock time on 2026-06-03 (a Wednesday) at `utcOffset` seconds.
    static func instant(hour: Int, minute: Int, utcOffset: Int, dayOffset: Int = 0) -> EpochSeconds {
        CivilDate(year: 2026, month: 6, day: 3)!.adding(days: dayOffset).startInstant(utcOffset: utcOffset)
            + Double(hour * 3600 + minute * 60)
    }
}
