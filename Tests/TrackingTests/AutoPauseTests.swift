import Testing
import RunusCore
@testable import Tracking

@Suite("Auto-pause on a smoothed speed")
struct AutoPauseTests {
    /// Random fixes along a wandering path: 0.5–8 s apart with some long gaps, speeds from
    /// standing (with 2 m scatter) to running.
    static func randomFixes(seed: UInt64, count: Int) -> [TrackPoint] {
        var rng = SeededGenerator(seed: seed)
        var t = 1_800_000_000.0, lat = 48.0, lon = 2.0, bearing = 0.0, speed = 3.0
        var points: [TrackPoint] = []
        for _ in 0..<count {
            let dt = rng.bernoulli(0.03) ? rng.uniform(20, 120) : rng.uniform(0.5, 8)
            if rng.bernoulli(0.1) { speed = [0, 0.3, 0.7, 1.2, 3][rng.int(in: 0...4)] }
            bearing += rng.gaussian(mean: 0, sd: 20)
            let q = Geodesy.destination(latitude: lat, longitude: lon, bearing: bearing, distance: speed * dt)
            (lat, lon) = (q.latitude, q.longitude)
            t += dt
            let fix = Geodesy.destination(latitude: lat, longitude: lon, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 2))
            points.append(TrackPoint(time: t, latitude: fix.latitude, longitude: fix.longitude))
        }
        return points
    }

    /// The obviously-correct form: for each segment, scan for its window from scratch.
    static func oracle(_ p: [TrackPoint], pause: Double, resume: Double, h: Seconds) -> [Bool] {
        guard !p.isEmpty else { return [] }
        var flags = [false], moving = true
        for s in p.indices.dropFirst() {
            let j = (0...(s - 1)).last { p[s - 1].time - p[$0].time >= h } ?? 0
            let k = (s..<p.count).first { p[$0].time - p[s].time >= h } ?? p.count - 1
            let speed = Geodesy.localDistance(latitude1: p[j].latitude, longitude1: p[j].longitude,
                                              latitude2: p[k].latitude, longitude2: p[k].longitude) / (p[k].time - p[j].time)
            if moving && speed < pause { moving = false } else if !moving && speed > resume { moving = true }
            flags.append(moving)
        }
        return flags
    }

    @Test("batch flags equal a from-scratch oracle", arguments: [1, 2, 3] as [UInt64])
    func oracleAgreement(seed: UInt64) {
        let points = Self.randomFixes(seed: seed, count: 600)
        for h in [0.0, 2.5, 5, 15] {
            let c = MetricsConfiguration(pauseWindowHalfWidth: h)
            #expect(AutoPause.flags(points, configuration: c)
                    == Self.oracle(points, pause: c.pauseSpeed, resume: c.resumeSpeed, h: h), "h \(h)")
        }
    }

    @Test("streaming: settled flags never change, and settled + pending equals batch at every prefix",
          arguments: [4, 5] as [UInt64])
    func streamingEqualsBatch(seed: UInt64) {
        let points = Self.randomFixes(seed: seed, count: 800)
        let full = AutoPause.flags(points, configuration: .default)
        var pause = AutoPause(configuration: .default)
        var settled = [false]
        for n in 1...points.count {
            settled += pause.append(points[n - 1])
            #expect(settled.count == pause.decidedThrough)
            let batch = AutoPause.flags(Array(points[..<n]), configuration: .default)
            #expect(settled + pause.pendingFlags() == batch, "prefix \(n)")
            #expect(Array(full[..<settled.count]) == settled, "prefix \(n)")
            // Lookahead is bounded by the half width: only the last halfWidth seconds wait.
            if let first = settled.count < n ? points[settled.count].time : nil {
                #expect(points[n - 1].time - first < MetricsConfiguration.default.pauseWindowHalfWidth)
            }
            if settled + pause.pendingFlags() != batch { break }
        }
    }

    @Test("half width 0 is the per-segment hysteresis of record 0102")
    func perSegment() {
        var b = TrackBuilder()
        for v in [3, 0.2, 0.7, 1.1, 0.7, 0.4] { b.run(speed: v, seconds: 1) }   // pause, stay, resume, stay, pause
        let flags = AutoPause.flags(b.points, configuration: MetricsConfiguration(pauseWindowHalfWidth: 0))
        #expect(flags == [false, true, false, false, true, true, false])
    }
}
