import Testing
import RunusCore
@testable import Tracking

@Suite("Run metrics")
struct RunMetricsTests {
    /// Summing 3 m steps with the local approximation vs. geodesic steps: < 1e-5 relative
    /// (record 0100), plus the 1e-3 m split-boundary rounding; 1e-4 relative is generous.
    static let distanceRelTolerance = 1e-4

    /// Distance accrues in chords of at least the jitter radius (record 0150), here 6 m every
    /// 2 s, so a split boundary is placed to within one fix interval: 1 s (was 0.1 s).
    static let chordTimeTolerance: Seconds = 1

    @Test("a straight line at 3 m/s for 3500 s gives 10.5 km, 11 splits and 5:33/km")
    func straightLine() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 3500)
        let m = RunMetrics(track: b.track, weightKg: 70)
        #expect(abs(m.distance / 10_500 - 1) < Self.distanceRelTolerance)
        #expect(m.elapsed == 3500 && m.moving == 3500)
        #expect(m.splits.count == 11)
        for s in m.splits.prefix(10) {
            #expect(abs(s.distance - 1000) < 1e-9)
            #expect(abs(s.duration - 1000.0 / 3) < Self.chordTimeTolerance)
            #expect(abs(s.pace - 1000.0 / 3) < Self.chordTimeTolerance)
        }
        #expect(abs(m.splits[10].distance - 500) < 1.1)
        #expect(m.splits.map(\.index) == Array(1...11))
        #expect(abs(m.movingPace! - 1000.0 / 3) < 0.1)
        #expect(abs(m.averagePace! - 1000.0 / 3) < 0.1)
        // Record 0104: 1.0 kcal/kg/km × 70 kg × 10.5 km.
        #expect(abs(m.calories! - 735) < 0.1)
        #expect(m.elevationGain == 0 && m.averageHeartRate == nil)
    }

    @Test("a 5-minute stop with GPS jitter is excluded from moving time and distance")
    func stopExcluded() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 600)
        var rng = SeededGenerator(seed: 7)
        let anchor = (b.latitude, b.longitude)
        for _ in 0..<300 {   // standing still: fixes scatter ±0.15 m around one spot, < 0.5 m/s
            b.time += 1
            let p = Geodesy.destination(latitude: anchor.0, longitude: anchor.1,
                                        bearing: rng.uniform(0, 360), distance: rng.uniform(0, 0.15))
            b.points.append(TrackPoint(time: b.time, latitude: p.latitude, longitude: p.longitude))
        }
        b.latitude = anchor.0; b.longitude = anchor.1
        b.run(speed: 3, seconds: 600)
        let m = RunMetrics(track: b.track)
        #expect(m.elapsed == 1500)
        // The smoothed pause (record 0151) starts up to half a window after the stop and ends up to
        // half a window before the restart: a stop is shortened by at most one window.
        #expect(m.moving >= 1200 && m.moving - 1200 <= 2 * MetricsConfiguration.default.pauseWindowHalfWidth, "moving \(m.moving)")
        // The jitter filter (record 0150) measures in chords of at least its radius: the last one may be short.
        #expect(abs(m.distance - 3600) < MetricsConfiguration.default.jitterRadius, "distance \(m.distance)")
        #expect(m.averagePace! > m.movingPace!)
    }

    @Test("hysteresis: 0.7 m/s keeps a run moving but does not resume a pause")
    func hysteresis() {
        var moving = TrackBuilder()
        moving.run(speed: 3, seconds: 60); moving.run(speed: 0.7, seconds: 60)
        #expect(RunMetrics(track: moving.track).moving == 120)
        var paused = TrackBuilder()
        paused.run(speed: 3, seconds: 60); paused.run(speed: 0.2, seconds: 30); paused.run(speed: 0.7, seconds: 60)
        // The pause is decided on a window reaching 5 s either side (record 0151), so it starts
        // a few seconds into the slow part, and never resumes at 0.7 m/s.
        let m = RunMetrics(track: paused.track)
        #expect(m.moving >= 60 && m.moving <= 60 + MetricsConfiguration.default.pauseWindowHalfWidth, "moving \(m.moving)")
        // Distance no longer depends on the pause (record 0151): 180 + 6 + 42 m, less the last chord.
        #expect(abs(m.distance - 228) < MetricsConfiguration.default.jitterRadius, "distance \(m.distance)")
    }

    @Test("a GPS jump and out-of-order fixes are dropped")
    func cleaning() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 100)
        var dirty = b.points
        let far = Geodesy.destination(latitude: dirty[50].latitude, longitude: dirty[50].longitude, bearing: 90, distance: 1000)
        dirty[50] = TrackPoint(time: dirty[50].time, latitude: far.latitude, longitude: far.longitude)
        dirty.insert(dirty[20], at: 30)         // a repeated old fix: time goes backwards
        dirty.insert(dirty[60], at: 61)         // a duplicate time stamp
        let cleaned = Track(points: dirty).cleaned()
        #expect(cleaned.points.count == b.points.count - 1)
        // The last chord of the jitter filter (record 0150) may fall short of the end: < radius (was 0.1 m).
        #expect(abs(RunMetrics(track: Track(points: dirty)).distance - 300) < MetricsConfiguration.default.jitterRadius)
    }

    /// Uniform noise in [−2, 2] m: peak to peak 4 m, below the 5 m threshold (record 0103).
    @Test("elevation noise below the threshold gives zero gain; a 100 m climb gives ~100 m")
    func elevation() {
        var rng = SeededGenerator(seed: 3)
        let flatNoise = (0..<1000).map { _ in 200 + rng.uniform(-2, 2) }
        let flat = RunMetrics.elevationChange(flatNoise, threshold: 5)
        #expect(flat.gain == 0 && flat.loss == 0)
        let hill = (0..<1000).map { i in 200 + Double(min(i, 500)) / 5 + rng.uniform(-2, 2) }
        let climb = RunMetrics.elevationChange(hill, threshold: 5)
        // True climb 100 m; the noise can add at most its 4 m peak to peak at each end.
        #expect(abs(climb.gain - 100) <= 4, "gain \(climb.gain)")
        #expect(climb.loss <= 4)
        // Zero threshold counts every wiggle: the noise dominates.
        #expect(RunMetrics.elevationChange(flatNoise, threshold: 0).gain > 500)
    }

    @Test("cadence average is time weighted over moving segments and leaves a stopped runner's 0 out; max HR and cadence are the fixes' maxima")
    func cadenceAndMaxima() {
        var b = TrackBuilder()
        b.run(speed: 3, seconds: 300, interval: 1, heartRate: 150)
        b.run(speed: 0, seconds: 60, interval: 1, heartRate: 120)
        b.run(speed: 3, seconds: 300, interval: 1, heartRate: 160)
        var points = b.points
        for i in points.indices {
            // 170 spm for the first leg, 0 while stopped, 180 for the last leg; one spike of 250.
            let cadence: Double = i <= 300 ? 170 : i <= 360 ? 0 : 180
            points[i].cadence = cadence
        }
        points[500].cadence = 250
        let m = RunMetrics(track: Track(points: points))
        // Moving segments with both ends positive: 300 at 170 and 299 of the last leg at 180
        // (two of them touch the 250 spike: each averages (180 + 250) / 2 = 215).
        let expected: Double = (300 * 170 + 297 * 180 + 2 * 215) / 599
        // 0.5 spm: auto-pause (record 0102) may count a few segments next to the stop as paused,
        // which moves the mean by under 0.1 spm.
        #expect(abs(m.averageCadence! - expected) < 0.5, "cadence \(m.averageCadence!), expected \(expected)")
        #expect(m.maxCadence == 250 && m.maxHeartRate == 160)
        #expect(RunMetrics(track: b.track).averageCadence == nil && RunMetrics(track: b.track).maxCadence == nil)
        // Mile splits follow the km splits' definition at 1,609.344 m.
        #expect(m.mileSplits.count == Int((m.distance / RunMetrics.mile).rounded(.up)))
        #expect(m.mileSplits.dropLast().allSatisfy { abs($0.distance - RunMetrics.mile) < 1e-9 })
        // Both partition the same distance profile, so their moving times add up the same.
        #expect(abs(m.mileSplits.reduce(0) { $0 + $1.duration } - m.splits.reduce(0) { $0 + $1.duration }) < 1e-6)
    }

    @Test("heart rate average is time weighted; empty and single-fix tracks give zeros")
    func heartRateAndEdges() {
        var b = TrackBuilder()
        b.points[0].heartRate = 150
        b.run(speed: 3, seconds: 10, interval: 1, heartRate: 150)
        b.run(speed: 3, seconds: 10, interval: 5, heartRate: 170)
        // 10 s at 150, then 5 s ramp 150→170 (mean 160) and 5 s at 170.
        let m = RunMetrics(track: b.track)
        #expect(abs(m.averageHeartRate! - (10 * 150 + 5 * 160 + 5 * 170) / 20) < 1e-9)
        let empty = RunMetrics(track: Track(points: []))
        #expect(empty.distance == 0 && empty.elapsed == 0 && empty.splits.isEmpty && empty.movingPace == nil)
        let one = RunMetrics(track: Track(points: [TrackPoint(time: 5, latitude: 1, longitude: 2)]), weightKg: 60)
        #expect(one.startTime == 5 && one.endTime == 5 && one.calories == 0)
    }
}
