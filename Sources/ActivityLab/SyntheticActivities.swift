#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Tracking

/// Synthetic labelled movement for training the shipped classifier (record 0143): walks, runs,
/// rides and vehicles (bus, car, train, traffic jams) as a phone logs them, with correlated GPS
/// noise (σ 1.5–8 m, AR(1) coefficient 0.95 or 0.99 per second: old loggers jitter more than
/// the phones of the run simulator) and sampling intervals from 1 s to 60 s. Physics-level realism only; no real data.
public enum SyntheticActivities {
    /// Sampling intervals in seconds a track may be logged at (phones, watches, old loggers).
    static let samplingIntervals: [Seconds] = [1, 1, 1, 1, 2, 2, 3, 4, 5, 5, 10, 15, 30, 60]

    /// Labelled windows: `tracksPerClass` synthetic tracks of each moving class, windowed by
    /// the default `ActivityClassifier` windowing. Same seed, same windows. Each track's `Style`
    /// is drawn from a second generator (record 0143): a quarter of the tracks have little or no
    /// GPS noise (smoothed exports, idealised test tracks), 15 % go straight, and a third of the
    /// runs hold interval repeats, so neither smoothness, nor a straight line, nor a short fast
    /// stretch alone reads as a vehicle.
    public static func trainingWindows(seed: UInt64, tracksPerClass: Int = 150)
        -> [(values: [Double], activity: ActivityClass)] {
        var rng = SeededGenerator(seed: seed)
        var styles = SeededGenerator(seed: seed ^ 0x5354_594C_4553)   // "STYLES"
        var result: [(values: [Double], activity: ActivityClass)] = []
        for activity in ActivityClass.moving {
            for _ in 0..<tracksPerClass {
                var style = Style()
                let u = styles.uniform()
                style.noiseScale = u < 0.1 ? 0 : u < 0.25 ? styles.uniform(0.05, 0.3) : 1
                style.intervals = activity == .run && styles.bernoulli(1.0 / 3)
                style.straight = styles.bernoulli(0.15)
                result += ActivityClassifier.trainingExamples(track(activity, style: style, rng: &rng), activity: activity)
            }
        }
        return result
    }

    /// Variations of a synthetic track beyond its class's physics.
    public struct Style: Sendable, Equatable {
        /// Factor on the GPS noise σ, ≥ 0 (1: the logger's noise; 0: exact positions).
        public var noiseScale = 1.0
        /// Runs only: repeats of 150–1,000 m at 1.25–1.8 × cruise speed (at most 9.5 m/s, a
        /// sprinter's), with recoveries of 60–180 s at 0.6 × cruise.
        public var intervals = false
        /// No turns and no meander: a straight road, canal path or railway, for every class.
        public var straight = false
        public init() {}
    }

    /// One synthetic track of `activity` (not stationary), 10–25 minutes long. The default
    /// `style` draws exactly what earlier versions drew from `rng`.
    public static func track(_ activity: ActivityClass, style: Style = Style(), rng: inout SeededGenerator) -> [TrackPoint] {
        precondition(activity != .stationary, "SyntheticActivities: stationary is not generated")
        precondition(style.noiseScale >= 0, "SyntheticActivities: noiseScale must be ≥ 0, got \(style.noiseScale)")
        // Cruise speed m/s, its wobble, stop rate per second, stop duration s, max accel m/s², turn rate per s.
        var cruise: Double, wobble: Double, stopRate: Double, stopRange: ClosedRange<Double>
        var maxAccel: Double, turnRate: Double, meander: Double
        switch activity {
        case .walk:
            cruise = rng.uniform(0.8, 1.9); wobble = 0.12; stopRate = 1.0 / 150; stopRange = 5...45
            maxAccel = 1.0; turnRate = 1.0 / 60; meander = 0.06
        case .run:
            cruise = rng.uniform(2.0, 5.5); wobble = 0.08; stopRate = 1.0 / 400; stopRange = 5...30
            maxAccel = 1.5; turnRate = 1.0 / 60; meander = 0.04
        case .cycle:
            cruise = rng.uniform(3.0, 7.5); wobble = 0.3; stopRate = 1.0 / 180; stopRange = 5...60
            maxAccel = rng.uniform(0.4, 1.2); turnRate = 1.0 / 90; meander = 0.03
        default:
            switch rng.int(in: 0...9) {
            case 0...3:   // bus
                cruise = rng.uniform(5, 14); stopRate = 1.0 / 70; stopRange = 10...60; maxAccel = rng.uniform(0.8, 1.5)
            case 4...6:   // car, taxi
                cruise = rng.uniform(7, 22); stopRate = 1.0 / 110; stopRange = 5...70; maxAccel = rng.uniform(1.5, 3.0)
            case 7...8:   // train, subway
                cruise = rng.uniform(12, 35); stopRate = 1.0 / 300; stopRange = 20...60; maxAccel = rng.uniform(0.6, 1.1)
            default:      // traffic jam: creeping with frequent stops
                cruise = rng.uniform(2, 6); stopRate = 1.0 / 30; stopRange = 5...40; maxAccel = rng.uniform(1.0, 2.0)
            }
            wobble = 0.5; turnRate = 1.0 / 120; meander = 0.01
        }
        if style.straight { turnRate = 0; meander = 0 }
        let dt = samplingIntervals[rng.int(in: 0...(samplingIntervals.count - 1))]
        let duration = rng.uniform(600, 1500)
        let sigma = rng.uniform(1.5, 8) * style.noiseScale, phi = rng.bernoulli(0.5) ? 0.95 : 0.99
        let innovation = sigma * (1 - phi * phi).squareRoot()
        var noiseE = rng.gaussian() * sigma, noiseN = rng.gaussian() * sigma
        var east = 0.0, north = 0.0, heading = rng.uniform(0, 2 * .pi)
        var v = cruise, target = cruise, stopLeft = 0.0
        // Interval state: metres left in the current repeat, seconds left in its recovery.
        let easy = cruise
        var repLeft = 0.0, recoveryLeft = style.intervals ? rng.uniform(60, 240) : 0.0
        let lat0 = rng.uniform(-50, 60), lon0 = rng.uniform(-120, 140)
        let metresPerDegree = 111_320.0
        var points: [TrackPoint] = []
        var t = 0.0
        while t <= duration {
            if t.truncatingRemainder(dividingBy: dt) == 0 {
                let lat = lat0 + (north + noiseN) / metresPerDegree
                let lon = lon0 + (east + noiseE) / (metresPerDegree * cos(lat0 * .pi / 180))
                points.append(TrackPoint(time: 1_800_000_000 + t, latitude: lat, longitude: lon))
            }
            noiseE = phi * noiseE + innovation * rng.gaussian()
            noiseN = phi * noiseN + innovation * rng.gaussian()
            if style.intervals {
                if repLeft > 0 {
                    repLeft -= v
                    if repLeft <= 0 { recoveryLeft = rng.uniform(60, 180); cruise = 0.6 * easy; target = cruise }
                } else if recoveryLeft > 0 {
                    recoveryLeft -= 1
                    if recoveryLeft <= 0 {
                        repLeft = rng.uniform(150, 1000)
                        cruise = min(9.5, easy * rng.uniform(1.25, 1.8)); target = cruise
                    }
                }
            }
            if stopLeft > 0 {
                stopLeft -= 1
                target = stopLeft > 0 ? 0 : cruise * (1 + wobble * rng.gaussian())
            } else if rng.bernoulli(stopRate) {
                stopLeft = rng.uniform(stopRange.lowerBound, stopRange.upperBound)
                target = 0
            } else if rng.bernoulli(0.05) {
                target = max(0.3 * cruise, cruise * (1 + wobble * rng.gaussian()))
            }
            v += min(maxAccel, max(-maxAccel * 1.5, target - v)) + 0.05 * rng.gaussian()
            v = max(0, v)
            if rng.bernoulli(turnRate) { heading += (rng.bernoulli(0.5) ? 1 : -1) * .pi / 2 }
            heading += meander * rng.gaussian()
            east += v * sin(heading); north += v * cos(heading)
            t += 1
        }
        return points
    }
}
