import Testing
import Foundation
import RunusCore
@testable import Tracking

/// The device's own distance readings in the run record (record 0116) and summaries (0232).
@Suite("device distance readings and summaries")
struct DeviceDistanceTests {
    static let start: EpochSeconds = 1_780_000_000

    /// Laps of a circle of `radius` m at `speed` m/s for `seconds`, a fix every `interval` s,
    /// and the device's reading of the true path length (speed × time) every second.
    static func circle(radius: Double = 30, speed: Double = 3, seconds: Int = 1800, interval: Int = 6,
                       readingEvery: Int = 1) -> Track {
        let lat0 = 48.2, lon0 = 16.37, metresPerDegree = 111_320.0
        func fix(_ t: Int) -> TrackPoint {
            let angle = speed * Double(t) / radius
            return TrackPoint(time: start + Double(t), latitude: lat0 + radius * sin(angle) / metresPerDegree,
                              longitude: lon0 + radius * cos(angle) / (metresPerDegree * cos(lat0 * .pi / 180)), heartRate: 150)
        }
        return Track(points: stride(from: 0, through: seconds, by: interval).map(fix),
                     deviceDistances: stride(from: 0, through: seconds, by: readingEvery).map {
                         DistanceSample(time: start + Double($0), distance: speed * Double($0), heartRate: 150)
                     })
    }

    /// Relative tolerance for distances that are exact up to floating-point sums of ~1,000 steps.
    static let exact = 1e-9

    @Test("a sparse track on bends: the GPS sum reads short, the record takes the device's distance")
    func sparseTrackUsesTheDevice() {
        let track = Self.circle()
        let m = RunMetrics(track: track)
        let gpsOnly = RunMetrics(track: Track(points: track.points))
        #expect(m.distanceSource == .device)
        #expect(abs(m.distance - 5400) <= 5400 * Self.exact, "\(m.distance)")
        // The chord of 18 m on a 30 m circle is 1.5 % short of its arc.
        #expect(gpsOnly.distance < 0.99 * 5400 && gpsOnly.distance > 0.98 * 5400, "\(gpsOnly.distance)")
        #expect(m.gpsDistance == gpsOnly.distance, "the GPS sum is still computed, bit for bit")
        #expect(gpsOnly.distanceSource == .gps && gpsOnly.deviceDistance == nil && m.deviceDistance == m.distance)
        #expect(m.moving == gpsOnly.moving && m.elapsed == gpsOnly.elapsed, "time comes from the fixes either way")
        #expect(abs(m.profile.totalDistance - m.distance) <= 1e-6 && abs(m.splits.reduce(0) { $0 + $1.distance } - m.distance) <= 1e-6)
        let off = RunMetrics(track: track, configuration: MetricsConfiguration(useDeviceDistance: false))
        #expect(off.distance == gpsOnly.distance && off.distanceSource == .gps)
    }

    @Test("vehicle parts stay out of the device's distance, as out of the GPS sum")
    func vehiclePartsStayOut() {
        var b = TrackBuilder(bearing: 0)
        b.run(speed: 3, seconds: 600)
        b.run(speed: 20, seconds: 600)   // a car ride in the middle
        b.run(speed: 3, seconds: 600)
        b.run(speed: 20, seconds: 300)   // and one at the end, cut off
        var readings: [DistanceSample] = []
        var total = 0.0
        for (i, p) in b.points.enumerated() {
            if i > 0 { total += Geodesy.distance(latitude1: b.points[i - 1].latitude, longitude1: b.points[i - 1].longitude,
                                                 latitude2: p.latitude, longitude2: p.longitude) }
            readings.append(DistanceSample(time: p.time, distance: total))
        }
        let m = RunMetrics(track: Track(points: b.points, deviceDistances: readings))
        let gps = RunMetrics(track: Track(points: b.points))
        #expect(m.distanceSource == .device)
        #expect(abs(m.distance - gps.distance) < 0.01 * gps.distance, "device \(m.distance) vs GPS \(gps.distance)")
        #expect(m.distance < 4000, "the 18 km by car are left out: \(m.distance)")
    }

    @Test("a stream that falls, jumps or disagrees with the fixes is not used, and the note says why")
    func unsoundStreams() throws {
        let track = Self.circle()
        let gps = RunMetrics(track: Track(points: track.points)).distance
        // A fall of 50 m at reading 600.
        var falling = track
        falling.deviceDistances[600].distance -= 50
        let f = RunMetrics(track: falling)
        #expect(f.distanceSource == .gps && f.distance == gps)
        #expect(f.deviceDistanceNote?.contains("falls") == true, "\(f.deviceDistanceNote ?? "nil")")
        // A fall within the tolerance is no progress, not a refusal.
        var wobble = track
        wobble.deviceDistances[600].distance = wobble.deviceDistances[599].distance - 0.5
        #expect(RunMetrics(track: wobble).distanceSource == .device)
        // Feet instead of metres: 3.28 times the GPS sum.
        var feet = track
        for i in feet.deviceDistances.indices { feet.deviceDistances[i].distance /= 0.3048 }
        let ft = RunMetrics(track: feet)
        #expect(ft.distanceSource == .gps && ft.distance == gps)
        #expect(ft.deviceDistanceNote?.contains("outside") == true, "\(ft.deviceDistanceNote ?? "nil")")
        // 5 km added in ten seconds: those steps take the GPS step, the rest stays the device's.
        var jump = track
        for i in jump.deviceDistances.indices where i >= 900 { jump.deviceDistances[i].distance += 5000 }
        let j = RunMetrics(track: jump)
        #expect(j.distanceSource == .device)
        #expect(abs(j.distance - 5400) < 20, "\(j.distance): the jump adds nothing")
        #expect(j.deviceDistanceNote?.contains("jumps") == true, "\(j.deviceDistanceNote ?? "nil")")
    }

    @Test("usable: non-finite and out-of-range readings and repeated times are dropped; a fall names its reading")
    func usableReadings() throws {
        let readings = [DistanceSample(time: 0, distance: 0), DistanceSample(time: .nan, distance: 5),
                        DistanceSample(time: 1, distance: .infinity), DistanceSample(time: 2, distance: -3),
                        DistanceSample(time: 3, distance: 2e9), DistanceSample(time: 4, distance: 10),
                        DistanceSample(time: 4, distance: 11), DistanceSample(time: 5, distance: 9.5)]
        let kept = try DeviceDistance.usable(readings)
        #expect(kept.map(\.time) == [0, 4, 5] && kept.map(\.distance) == [0, 10, 10])
        #expect(throws: DeviceDistance.Problem.decreases(index: 2, time: 2, distance: 1, previous: 10)) {
            try DeviceDistance.usable([DistanceSample(time: 0, distance: 0), DistanceSample(time: 1, distance: 10),
                                       DistanceSample(time: 2, distance: 1)])
        }
    }

    @Test("readings at the fixes' times match a linear search, at random times (seed 116)")
    func interpolationMatchesLinearSearch() {
        var rng = SeededGenerator(seed: 116)
        var t = 0.0, d = 0.0
        let stream: [DistanceSample] = (0..<200).map { _ in
            t += 0.1 + rng.uniform() * 5; d += rng.uniform() * 20
            return DistanceSample(time: t, distance: d)
        }
        let times = (0..<500).map { _ in -10 + rng.uniform() * (t + 20) }.sorted()
        let got = DeviceDistance.readings(at: times, stream)
        for (x, y) in zip(times, got) {
            var want = stream[0].distance
            if x >= stream[stream.count - 1].time { want = stream[stream.count - 1].distance }
            else if x > stream[0].time {
                let k = stream.lastIndex { $0.time <= x } ?? 0
                want = stream[k].distance + (x - stream[k].time) / (stream[k + 1].time - stream[k].time) * (stream[k + 1].distance - stream[k].distance)
            }
            #expect(abs(y - want) <= 1e-9 * max(1, want))
        }
    }

    @Test("a treadmill run: no positions, the stream alone gives distance, moving time, splits and heart rate")
    func treadmill() {
        var readings: [DistanceSample] = []
        for s in 0...2220 {
            // 900 s at 3 m/s, standing 120 s (belt stopped), 1,200 s at 2.5 m/s.
            let d = s <= 900 ? 3.0 * Double(s) : s <= 1020 ? 2700 : 2700 + 2.5 * Double(s - 1020)
            readings.append(DistanceSample(time: Self.start + Double(s), distance: d, heartRate: s <= 900 ? 140 : 160, cadence: 170))
        }
        let m = RunMetrics(track: Track(points: [], deviceDistances: readings), weightKg: 60)
        #expect(m.distanceSource == .device && !m.hasPositions && m.gpsDistance == nil)
        #expect(abs(m.distance - 5700) <= 1e-6)
        #expect(m.elapsed == 2220)
        // The stop is noticed late and left early by the 10 s window (record 0151): under 12 s either way.
        #expect(abs(m.moving - 2100) < 12, "\(m.moving)")
        #expect(m.splits.count == 6 && abs(m.splits.reduce(0) { $0 + $1.distance } - 5700) <= 1e-6)
        let hr = m.averageHeartRate ?? 0
        #expect(hr > 150 && hr < 152, "time-weighted: \(hr)")
        #expect(m.calories.map { abs($0 - 342) < 1e-6 } == true)
        #expect(m.bestEfforts(over: [1000]).first.map { abs($0.seconds - 1000 / 3.0) < 1e-6 } == true)
        // One fix among the readings changes nothing: a run needs two fixes for positions. Nor
        // do a few fixes over the first minutes (a GPS by the gym's window).
        let one = RunMetrics(track: Track(points: [TrackPoint(time: Self.start, latitude: 48, longitude: 16)], deviceDistances: readings))
        #expect(one.distance == m.distance && !one.hasPositions)
        let window = (0..<10).map { TrackPoint(time: Self.start + Double($0 * 30), latitude: 48 + Double($0) * 1e-5, longitude: 16) }
        let few = RunMetrics(track: Track(points: window, deviceDistances: readings))
        #expect(few.distance == m.distance && few.distanceSource == .device && !few.hasPositions)
    }

    @Test("a treadmill stream that jumps counts nothing across the jump; one that falls gives no record")
    func treadmillJumpsAndFalls() {
        var readings = (0...600).map { DistanceSample(time: Self.start + Double($0), distance: 3 * Double($0)) }
        for i in 300...600 { readings[i].distance += 5000 }
        let m = RunMetrics(track: Track(points: [], deviceDistances: readings))
        #expect(m.distanceSource == .device && m.distance < 1800 && m.distance > 1700, "\(m.distance)")
        #expect(m.deviceDistanceNote?.contains("jumps") == true)
        readings[400].distance = 0
        let fall = RunMetrics(track: Track(points: [], deviceDistances: readings))
        #expect(fall.distance == 0 && fall.profile.times.isEmpty && fall.deviceDistanceNote?.contains("falls") == true)
    }

    @Test("a summary: totals as given, no splits or positions, hostile numbers read as 0")
    func summary() {
        let s = RunSummary(startTime: Self.start, distance: 10_000, duration: 3600, moving: 3300, calories: nil, averageHeartRate: 150)
        let m = RunMetrics(summary: s, weightKg: 70)
        #expect(m.distanceSource == .summary && !m.hasPositions && m.profile.times.isEmpty && m.splits.isEmpty)
        #expect(m.distance == 10_000 && m.elapsed == 3600 && m.moving == 3300 && m.endTime == Self.start + 3600)
        #expect(m.movingPace == 330 && m.calories == 700 && m.averageHeartRate == 150 && m.bestEfforts().isEmpty)
        let bad = RunMetrics(summary: RunSummary(startTime: .nan, distance: -5, duration: .infinity, moving: 9e9, calories: .nan))
        #expect(bad.distance == 0 && bad.elapsed == 0 && bad.moving == 0 && bad.startTime == 0 && bad.calories == nil)
    }
}
