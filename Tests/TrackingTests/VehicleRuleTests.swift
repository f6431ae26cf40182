import Testing
import RunusCore
@testable import Tracking

/// A straight track going north from (48.85, 2.35): legs of (duration s, speed m/s), 1 Hz.
func straightTrack(_ legs: [(Seconds, Double)], start: EpochSeconds = 1_800_000_000) -> Track {
    var points: [TrackPoint] = []
    var t = start, north: Meters = 0
    points.append(TrackPoint(time: t, latitude: 48.85, longitude: 2.35))
    for (duration, speed) in legs {
        for _ in 0..<Int(duration) {
            t += 1; north += speed
            let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 0, distance: north)
            points.append(TrackPoint(time: t, latitude: p.latitude, longitude: p.longitude))
        }
    }
    return Track(points: points)
}

@Suite("Vehicle rule and spike filter")
struct VehicleRuleTests {
    /// Local distance vs the straight-line construction: far below a metre per km.
    static let distanceTolerance: Meters = 1.0

    @Test("a drive before the run is cut off: distance and time are the run's")
    func leadingDrive() {
        let track = straightTrack([(300, 13.0), (1200, 3.0)])
        let metrics = RunMetrics(track: track)
        // From 13 to 3 m/s within a second is impossible; the acceleration filter (record 0152)
        // drops the fixes there, so the segment across them carries up to one drive second (13 m)
        // into the run, and the jitter filter's last chord (record 0150) may fall short of the end.
        let boundary: Meters = 13 + MetricsConfiguration.default.jitterRadius
        #expect(abs(metrics.distance - 3600) < Self.distanceTolerance + boundary, "distance \(metrics.distance)")
        // The windowed speed (record 0130) still holds drive fixes for up to one window
        // half-width into the run, so the cut may come that much late.
        #expect(abs(metrics.elapsed - 1200) <= 1 + MetricsConfiguration.default.vehicleWindowHalfWidth)
        #expect(metrics.startTime >= track.points[0].time + 299)
    }

    @Test("a drive in the middle, with a traffic-light stop, adds neither distance nor moving time")
    func middleDrive() {
        let track = straightTrack([(600, 3.0), (120, 12.0), (15, 0.0), (120, 12.0), (600, 3.0)])
        let metrics = RunMetrics(track: track)
        #expect(abs(metrics.distance - 3600) < 3 * Self.distanceTolerance + 3 * 3)
        #expect(abs(metrics.moving - 1200) <= 3)
    }

    @Test("fast running and a short sprint are not vehicles")
    func runnersAreNotCars() {
        let track = straightTrack([(600, 5.5), (15, 8.5), (600, 5.5)])
        let vehicle = track.vehicleSegments()
        #expect(!vehicle.contains(true))
        #expect(abs(RunMetrics(track: track).distance - (1200 * 5.5 + 15 * 8.5)) < 2 * Self.distanceTolerance)
    }

    @Test("a single spike costs one fix and nothing after it")
    func spike() {
        var track = straightTrack([(600, 3.0)])
        let p = Geodesy.destination(latitude: track.points[300].latitude, longitude: track.points[300].longitude,
                                    bearing: 90, distance: 400)
        track.points[300] = TrackPoint(time: track.points[300].time, latitude: p.latitude, longitude: p.longitude)
        let cleaned = track.cleaned()
        #expect(cleaned.points.count == track.points.count - 1)
        // The jitter filter's last chord (record 0150) may fall short of the end.
        #expect(abs(RunMetrics(track: track).distance - 1800) < 2 * Self.distanceTolerance + MetricsConfiguration.default.jitterRadius)
    }

    @Test("a bad first fix does not discard the run")
    func badFirstFix() {
        var track = straightTrack([(600, 3.0)])
        let p = Geodesy.destination(latitude: 48.85, longitude: 2.35, bearing: 180, distance: 5000)
        track.points[0] = TrackPoint(time: track.points[0].time, latitude: p.latitude, longitude: p.longitude)
        let metrics = RunMetrics(track: track)
        #expect(metrics.distance > 1700 && metrics.distance < 1801)
    }
}
