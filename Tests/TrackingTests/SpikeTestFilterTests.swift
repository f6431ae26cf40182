import Testing
import RunusCore
@testable import Tracking

/// Record 0170: the streaming cleaner's spike test decides with a cheap chord when that decides
/// it; its answers (and the distances it leaves) must be the exact test's, also when the limits
/// sit exactly on, or one ulp either side of, the speeds and accelerations the exact test computes.
@Suite("Spike test with a cheap chord")
struct SpikeTestFilterTests {
    /// Fixes of a noisy walk or run from `latitude`, 1–5 s apart, with a jump now and then.
    static func fixes(seed: UInt64, latitude: Double, count: Int) -> [TrackPoint] {
        var rng = SeededGenerator(seed: seed)
        var t = 1_700_000_000.0, lat = latitude, lon = 179.99
        var points: [TrackPoint] = []
        for _ in 0..<count {
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon))
            t += Double(Int.random(in: 1...5, using: &rng))
            let jump = Double.random(in: 0..<1, using: &rng) < 0.03 ? 0.003 : 0.00004
            lat = min(89.9, max(-89.9, lat + Double.random(in: -jump...jump, using: &rng)))
            lon += Double.random(in: -jump...jump, using: &rng)
            if lon > 180 { lon -= 360 }
        }
        return points
    }

    /// Both tests on every triple of consecutive fixes under `configuration`, the cheap one with
    /// one chord state carried along as the cleaner carries it.
    static func compare(_ points: [TrackPoint], _ configuration: MetricsConfiguration, _ label: String) {
        var cheap = LocalChordBound()
        for i in 1..<(points.count - 1) {
            let (a, p, b) = (points[i - 1], points[i], points[i + 1])
            let known = Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                              latitude2: p.latitude, longitude2: p.longitude)
            var exactDistances = Track.SpikeDistances(lastToP: known)
            var cheapDistances = Track.SpikeDistances(lastToP: known)
            let exact = Track.isSpike(a, p, b, configuration: configuration, distances: &exactDistances)
            let filtered = Track.isSpike(a, p, b, configuration: configuration, distances: &cheapDistances, cheap: &cheap)
            #expect(exact == filtered, "\(label), fix \(i): exact \(exact), with the cheap chord \(filtered)")
            #expect(cheapDistances.pToNext == exactDistances.pToNext && cheapDistances.lastToP == exactDistances.lastToP,
                    "\(label), fix \(i): the distances differ")
            if exact { #expect(cheapDistances.lastToNext == exactDistances.lastToNext, "\(label), fix \(i): lastToNext") }
        }
    }

    @Test("the same answers with the default limits", arguments: [0.0, 48.2, -33.9, 79.5, 85.0])
    func defaults(latitude: Double) {
        for seed: UInt64 in 1...3 {
            Self.compare(Self.fixes(seed: seed, latitude: latitude, count: 2_000), .default, "lat \(latitude), seed \(seed)")
        }
    }

    @Test("the same answers with the limits on the exact speeds and accelerations, and an ulp either side")
    func limitsOnTheValues() {
        let points = Self.fixes(seed: 11, latitude: 47.5, count: 400)
        for i in stride(from: 1, to: points.count - 1, by: 13) {
            let (a, p, b) = (points[i - 1], points[i], points[i + 1])
            let vIn = Track.speed(a, p), vOut = Track.speed(p, b)
            let rate = abs(vOut - vIn) / ((b.time - a.time) / 2)
            for limit in [rate.nextDown, rate, rate.nextUp] {
                var c = MetricsConfiguration.default
                c.maxAcceleration = limit
                Self.compare(points, c, "maxAcceleration \(limit)")
            }
            for limit in [vOut.nextDown, vOut, vOut.nextUp, vIn.nextDown, vIn] where limit > 0 {
                var c = MetricsConfiguration.default
                c.maxSpeed = limit
                c.maxAcceleration = .infinity
                Self.compare(points, c, "maxSpeed \(limit)")
            }
        }
    }

    @Test("infinite and NaN limits answer as the exact test does")
    func unusualLimits() {
        let points = Self.fixes(seed: 5, latitude: 10, count: 300)
        for (speed, acceleration) in [(Double.infinity, 2.5), (12.5, .infinity), (12.5, .nan), (0.5, 0.0), (12.5, -1.0)] {
            var c = MetricsConfiguration.default
            c.maxSpeed = speed
            c.maxAcceleration = acceleration
            Self.compare(points, c, "maxSpeed \(speed), maxAcceleration \(acceleration)")
        }
    }
}
