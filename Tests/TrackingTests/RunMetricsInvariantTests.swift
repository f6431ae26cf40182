import Testing
import RunusCore
@testable import Tracking

@Suite("Run metrics invariants")
struct RunMetricsInvariantTests {
    /// A wandering run: random bearing changes, speeds 2–5 m/s, a few stops, 1–5 s fixes, hills.
    static func wanderingRun(seed: UInt64) -> Track {
        var rng = SeededGenerator(seed: seed)
        var lat = rng.uniform(-60, 60), lon = rng.uniform(-180, 180), t = 1_780_000_000.0
        var bearing = rng.uniform(0, 360), ele = 100.0
        var points = [TrackPoint(time: t, latitude: lat, longitude: lon, elevation: ele)]
        for _ in 0..<1500 {
            let dt = Double(rng.int(in: 1...5))
            let speed = rng.bernoulli(0.03) ? 0 : rng.uniform(2, 5)
            bearing += rng.gaussian(mean: 0, sd: 10)
            let p = Geodesy.destination(latitude: lat, longitude: lon, bearing: bearing, distance: speed * dt)
            lat = p.latitude; lon = p.longitude; t += dt; ele += rng.uniform(-1, 1.2) * dt
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon, elevation: ele))
        }
        return Track(points: points)
    }

    /// The brief's budget for the per-point approximation against the ellipsoid (record 0100).
    static let summingBudget = 1e-3

    @Test("distance equals the sum of ellipsoidal chords between the fixes that move the jitter anchor", arguments: [21, 22, 23])
    func distanceOracle(seed: UInt64) {
        let track = Self.wanderingRun(seed: seed)
        let m = RunMetrics(track: track)
        let pts = track.cleaned().points
        #expect(!Track(points: pts).vehicleSegments().contains(true))   // a run on foot: every step is on foot
        // Record 0150: a fix counts when it lies more than the radius from the last fix that counted.
        var oracle = 0.0, anchor = pts[0]
        for p in pts.dropFirst() {
            let chord = Geodesy.distance(latitude1: anchor.latitude, longitude1: anchor.longitude,
                                         latitude2: p.latitude, longitude2: p.longitude)
            if chord > MetricsConfiguration.default.jitterRadius { oracle += chord; anchor = p }
        }
        #expect(abs(m.distance - oracle) / oracle < Self.summingBudget)
        #expect(abs(m.distance - oracle) / oracle < 1e-5, "measured \(abs(m.distance - oracle) / oracle)")
    }

    /// Splits add up to the whole; sums of ~10 doubles carry only rounding.
    static let sumTolerance = 1e-6

    @Test("splits add up to distance and moving time; moving ≤ elapsed; gain tracks the climb", arguments: [31, 32])
    func splitsAddUp(seed: UInt64) {
        let m = RunMetrics(track: Self.wanderingRun(seed: seed), weightKg: 60)
        #expect(abs(m.splits.map(\.distance).reduce(0, +) - m.distance) < Self.sumTolerance)
        #expect(abs(m.splits.map(\.duration).reduce(0, +) - m.moving) < Self.sumTolerance)
        #expect(m.splits.dropLast().allSatisfy { abs($0.distance - 1000) < Self.sumTolerance })
        #expect(m.moving <= m.elapsed && m.moving > 0)
        #expect(m.elevationGain > 0 && m.elevationLoss > 0)
        let first = m.profile.distances.first!, last = m.profile.distances.last!
        #expect(first == 0 && last == m.distance)
        #expect(abs(m.calories! - 60 * m.distance / 1000) < 1e-9)
    }
}
