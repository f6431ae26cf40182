import Testing
import RunusCore
@testable import Tracking

@Suite("Stationary jitter and the distance definition")
struct JitterFilterTests {
    /// Local approximation against the ellipsoid over steps of metres (record 0100): < 1e-5.
    static let localTolerance = 1e-5

    @Test("fixes scattered inside the radius add nothing; a straight line loses less than the radius")
    func standingAndStraight() {
        var rng = SeededGenerator(seed: 11)
        var filter = JitterFilter(radius: 5)
        let anchor = (48.2, 16.37)
        var added = filter.append(latitude: anchor.0, longitude: anchor.1)
        for _ in 0..<600 {   // ten minutes standing, fixes up to 4.9 m from the first
            let p = Geodesy.destination(latitude: anchor.0, longitude: anchor.1, bearing: rng.uniform(0, 360), distance: rng.uniform(0, 4.9))
            added += filter.append(latitude: p.latitude, longitude: p.longitude)
        }
        #expect(added == 0)
        var b = TrackBuilder()
        b.run(speed: 1.3, seconds: 777)   // 1010.1 m in 1.3 m steps: the filter counts 6.5 m chords
        let steps = JitterFilter.steps(b.points, radius: 5)
        let total = steps.reduce(0, +)
        #expect(total <= 1010.1 * (1 + Self.localTolerance) && total > 1010.1 - 5, "total \(total)")
        #expect(JitterFilter.steps(b.points, radius: 0).reduce(0, +) > 1010.1 * (1 - Self.localTolerance))
    }

    @Test("regression 2026-11-29: 1 Hz position repeats no longer pause a run and cut its distance")
    func repeatedPositions() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 600, interval: 2)
        var points: [TrackPoint] = []
        for p in b.points {   // each position recorded again one second later, as some watches do
            points.append(p)
            var repeated = p
            repeated.time += 1
            points.append(repeated)
        }
        let m = RunMetrics(track: Track(points: points))
        #expect(abs(m.distance - 1800) < 5, "distance \(m.distance)")    // the last chord may be short of the radius
        #expect(m.moving == m.elapsed, "moving \(m.moving) of \(m.elapsed)")
        let old = RunMetrics(track: Track(points: points),
                             configuration: MetricsConfiguration(maxAcceleration: .infinity, pauseWindowHalfWidth: 0,
                                                                jitterRadius: 0, distanceOnlyWhileMoving: true))
        #expect(old.moving < 0.6 * old.elapsed)   // the per-fix rule paused at every repeat
        // Each defence alone suffices: the smoothed auto-pause without the acceleration filter.
        let windowOnly = RunMetrics(track: Track(points: points), configuration: MetricsConfiguration(maxAcceleration: .infinity))
        #expect(windowOnly.moving == windowOnly.elapsed && abs(windowOnly.distance - 1800) < 5)
    }

    @Test("slow uphill walking after a stop counts its distance; moving time stays paused below the resume speed")
    func slowWalkAfterStop() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 300)
        b.run(speed: 0, seconds: 60)
        b.run(speed: 0.8, seconds: 300)   // 240 m at 0.8 m/s: between the pause and resume speeds
        let m = RunMetrics(track: b.track)
        #expect(abs(m.distance - 1140) < 5, "distance \(m.distance)")
        // Pausing and resuming each wait for up to half a window (record 0151).
        #expect(abs(m.moving - 300) <= MetricsConfiguration.default.pauseWindowHalfWidth + 1, "moving \(m.moving)")
    }

    @Test("a dropout while running counts its straight line and its time; one while standing counts neither")
    func dropouts() {
        var running = TrackBuilder()
        running.run(speed: 3, seconds: 300)
        running.run(speed: 3, seconds: 90, interval: 90)  // 90 s without a fix, still running
        running.run(speed: 3, seconds: 300)
        let r = RunMetrics(track: running.track)
        #expect(abs(r.distance - 2070) < 5 && r.moving == 690, "distance \(r.distance), moving \(r.moving)")
        var standing = TrackBuilder()
        standing.run(speed: 3, seconds: 300)
        standing.run(speed: 0, seconds: 90, interval: 90)
        standing.run(speed: 3, seconds: 300)
        let s = RunMetrics(track: standing.track)
        #expect(abs(s.distance - 1800) < 5, "distance \(s.distance)")
        #expect(abs(s.moving - 600) <= 2 * MetricsConfiguration.default.pauseWindowHalfWidth, "moving \(s.moving)")
    }
}
