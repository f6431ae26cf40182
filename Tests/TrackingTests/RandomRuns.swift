import RunusCore
import ActivityLab
import Tracking

/// Seeded random raw tracks for the live-vs-batch property tests: running, walking, pauses with
/// standing jitter, car and bus legs (fast stretches for the speed rule, stop-and-go for the
/// classifier), dropouts longer than a window gap, and recording faults (duplicate and
/// out-of-order times, spikes, invalid fixes), with elevation and heart rate (and cadence with
/// it) sometimes missing.
enum RandomRuns {
    static func track(seed: UInt64, minutes: Double, interval fixedInterval: Double? = nil) -> [TrackPoint] {
        var rng = SeededGenerator(seed: seed)
        var points: [TrackPoint] = []
        var t = 1_780_000_000.0, lat = 48.2 + rng.uniform(-1, 1), lon = 16.37 + rng.uniform(-1, 1)
        var bearing = rng.uniform(0, 360), height = rng.uniform(100, 400), hr = 140.0
        let hasElevation = rng.bernoulli(0.8), hasHeartRate = rng.bernoulli(0.7)
        let drawn = rng.bernoulli(0.8) ? 1.0 : rng.uniform(2, 5)
        let interval = fixedInterval ?? drawn
        let end = t + minutes * 60
        while t < end {
            // One leg: (speed in m/s as a function of elapsed seconds, duration in s, jitter in m)
            let leg: (speed: (Double) -> Double, seconds: Double, jitter: Double)
            switch rng.uniform() {
            case ..<0.45: let v = rng.uniform(2.3, 4.8); leg = ({ _ in v }, rng.uniform(60, 900), 2)
            case ..<0.55: let v = rng.uniform(1.0, 1.7); leg = ({ _ in v }, rng.uniform(30, 300), 2)
            case ..<0.70: leg = ({ _ in 0 }, rng.uniform(5, 240), 4)                          // standing
            case ..<0.78: let v = rng.uniform(9, 20); leg = ({ s in s.truncatingRemainder(dividingBy: 150) < 120 ? v : 0 },
                                                             rng.uniform(30, 700), 3)       // car with lights
            case ..<0.86: let v = rng.uniform(5, 9); leg = ({ s in s.truncatingRemainder(dividingBy: 90) < 60 ? v : 0.3 },
                                                            rng.uniform(200, 1000), 3)      // bus, stop and go
            case ..<0.90: let v = rng.uniform(6.5, 8); leg = ({ _ in v }, rng.uniform(10, 60), 1)  // a sprint
            case ..<0.92:                                                                 // dropout
                t += rng.uniform(200, 900)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: bearing, distance: rng.uniform(0, 1500))
                lat = p.latitude; lon = p.longitude
                continue
            case ..<0.96: let v = rng.uniform(3, 6); leg = ({ _ in v }, rng.uniform(60, 600), 2)  // cycle-ish
            default:
                // A vehicle leg as the classifier's training data draws them (buses, jams, trains),
                // moved to start here.
                var legRNG = SeededGenerator(seed: seed, stream: UInt64(points.count))
                let synthetic = SyntheticActivities.track(.vehicle, rng: &legRNG)
                guard let first = synthetic.first else { continue }
                for q in synthetic.dropFirst() {
                    let time = t + q.time - first.time
                    guard time < end else { break }
                    points.append(TrackPoint(time: time, latitude: lat + q.latitude - first.latitude,
                                             longitude: lon + q.longitude - first.longitude,
                                             elevation: hasElevation ? height : nil, heartRate: hasHeartRate ? hr : nil))
                }
                if let q = points.last { t = q.time; lat = q.latitude; lon = q.longitude }
                continue
            }
            var s = 0.0
            while s < leg.seconds && t < end {
                let dt = interval * rng.uniform(0.8, 1.2)
                s += dt; t += dt
                bearing += rng.gaussian(mean: 0, sd: 8)
                let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: bearing, distance: leg.speed(s) * dt)
                lat = p.latitude; lon = p.longitude
                height += rng.gaussian(mean: 0, sd: 0.8)
                hr = min(190, max(80, hr + rng.gaussian(mean: 0, sd: 1.5)))
                let j = leg.jitter / 111_000
                var fix = TrackPoint(time: t, latitude: lat + rng.gaussian(mean: 0, sd: j), longitude: lon + rng.gaussian(mean: 0, sd: j),
                                     elevation: hasElevation && !rng.bernoulli(0.02) ? height + rng.gaussian(mean: 0, sd: 2) : nil,
                                     heartRate: hasHeartRate && !rng.bernoulli(0.05) ? hr : nil)
                // Cadence with the heart rate (no draw, so the tracks are what they were): 0
                // while standing, as watches log it.
                let speed = leg.speed(s)
                fix.cadence = hasHeartRate ? (speed < 0.5 ? 0 : 150 + 8 * speed) : nil
                switch rng.uniform() {
                case ..<0.01: fix.time = t - rng.uniform(0, 10)                  // out of order
                case ..<0.02: fix.time = points.last?.time ?? t                  // duplicate time
                case ..<0.025: fix.latitude += rng.uniform(-0.02, 0.02)         // spike of up to ~2 km
                case ..<0.027: fix.longitude = .nan                              // invalid fix
                default: break
                }
                points.append(fix)
            }
        }
        return points
    }
}
