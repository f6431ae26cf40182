import Testing
import RunusCore
@testable import Tracking

/// Dropouts a vehicle crossed (record 0132): no fix for longer than 300 s, crossed at 3 m/s or
/// faster in a straight line, belong to the speed rule's vehicle stretches.
@Suite("Vehicle dropouts")
struct VehicleDropoutTests {
    /// `before` s of walking at 1.3 m/s (1 Hz), one dropout of `seconds` crossed at `speed` m/s,
    /// then `after` s of walking.
    static func walkWithDropout(seconds: Seconds, speed: Double, before: Seconds = 600, after: Seconds = 600) -> Track {
        var b = TrackBuilder()
        b.run(speed: 1.3, seconds: before)
        b.run(speed: speed, seconds: seconds, interval: seconds)
        b.run(speed: 1.3, seconds: after)
        return b.track
    }

    /// Distance of a track in metres with the dropout rule off, all else default.
    static func distanceWithoutRule(_ track: Track) -> Meters {
        RunMetrics(track: track, configuration: MetricsConfiguration(vehicleDropoutSpeed: .infinity)).distance
    }

    @Test("a subway ride the GPS lost is left out of the record; without the rule it counted as walking")
    func subwayInAWalk() throws {
        let track = Self.walkWithDropout(seconds: 900, speed: 4)
        let cleaned = track.cleaned()
        let gap = try #require(cleaned.points.indices.dropFirst().first { cleaned.points[$0].time - cleaned.points[$0 - 1].time > 300 })
        #expect(cleaned.vehicleSpeedRule()[gap])
        #expect(cleaned.vehicleSegments()[gap])
        let kept = RunMetrics(track: track).distance, without = Self.distanceWithoutRule(track)
        // The 3,600 m straight line across the dropout is all that differs: the walking around it
        // (2 × 780 m) is kept whole. Tolerance: 1 m, the local-distance formula's error over 3.6 km
        // against the ellipsoid the builder walks on is far below that.
        #expect(abs((without - kept) - 3600) < 1, "without the rule \(without) m, with it \(kept) m")
        #expect(abs(kept - 1560) < 1, "kept \(kept) m")
    }

    @Test("a runner's tunnel at running pace is kept, and so is a short gap the windows judge")
    func runnersDropoutsKept() {
        // 6 minutes without a fix at 2.9 m/s (a 5:45 min/km runner in a tunnel).
        let tunnel = Self.walkWithDropout(seconds: 360, speed: 2.9)
        #expect(!tunnel.cleaned().vehicleSpeedRule().contains(true))
        #expect(RunMetrics(track: tunnel).distance == Self.distanceWithoutRule(tunnel))
        // 300 s is not a dropout yet (the classifier's windows span it), however fast (6 m/s).
        let short = Self.walkWithDropout(seconds: 300, speed: 6)
        #expect(!short.cleaned().vehicleSpeedRule().contains(true))
    }

    @Test("the rule's boundaries: longer than the duration, at least the speed",
          arguments: [(300.0, 3.05, false), (301.0, 3.05, true), (400.0, 2.95, false), (400.0, 3.05, true)])
    func boundaries(seconds: Seconds, speed: Double, flagged: Bool) {
        // Speeds 0.05 m/s off the threshold: the builder's ellipsoid steps and the rule's local
        // distance agree far better than 1.7 % over a kilometre.
        let c = MetricsConfiguration(classifyActivities: false)
        let track = Self.walkWithDropout(seconds: seconds, speed: speed, before: 120, after: 120)
        #expect(track.vehicleSpeedRule(configuration: c).contains(true) == flagged, "\(seconds) s at \(speed) m/s")
        let off = MetricsConfiguration(vehicleDropoutSpeed: .infinity, classifyActivities: false)
        #expect(!track.vehicleSpeedRule(configuration: off).contains(true))
    }

    @Test("the live tracker cuts the same dropout at every prefix")
    func liveEqualsBatch() {
        let points = Self.walkWithDropout(seconds: 900, speed: 4, before: 300, after: 300).points
        let result = LiveTrackerTests.compare(points, at: Array(1...points.count), label: "walk with a subway dropout")
        #expect(result.failures == 0)
        #expect(result.vehicleChecks > 0)
    }

    @Test("live equals batch on random tracks with a subway ride cut into them", arguments: [1, 2, 3] as [UInt64])
    func randomTracksWithDropouts(seed: UInt64) {
        // RandomRuns' own dropouts (2 % of legs, 200–900 s, 0–1,500 m) are rarely vehicle ones:
        // the second half of a random track moves 600 s later and 2.4 km away (4 m/s).
        let raw = RandomRuns.track(seed: seed, minutes: 24)
        let half = raw.count / 2
        let shift = Geodesy.destination(latitude: raw[half - 1].latitude, longitude: raw[half - 1].longitude, bearing: 60, distance: 2400)
        let dLat = shift.latitude - raw[half - 1].latitude, dLon = shift.longitude - raw[half - 1].longitude
        let points = Array(raw[..<half]) + raw[half...].map { p in
            var q = p
            q.time += 600; q.latitude += dLat; q.longitude += dLon
            return q
        }
        let p = Track(points: points).cleaned().points
        #expect(p.indices.dropFirst().contains { Track.isVehicleDropout(p[$0 - 1], p[$0], configuration: .default) })
        let result = LiveTrackerTests.compare(points, at: LiveTrackerTests.checkpoints(count: points.count, dense: 60, stride: 29),
                                              label: "seed \(seed) with a dropout")
        #expect(result.failures == 0)
    }
}
