import Testing
import RunusCore
import ActivityLab
@testable import Tracking

@Suite("Activity segmentation")
struct ActivityClassifierTests {
    @Test("features of a steady straight run: speed percentiles at the pace, no stops, straight")
    func steadyFeatures() {
        let track = straightTrack([(300, 3.0)])
        let f = SegmentFeatures(points: track.points[...])
        let value = { (name: String) in f.values[SegmentFeatures.names.firstIndex(of: name)!] }
        #expect(abs(value("speed_p50_mps") - 3) < 0.01)
        #expect(abs(value("mean_speed_mps") - 3) < 0.01)
        #expect(value("stop_fraction") == 0)
        #expect(value("straightness") > 0.999)
        #expect(value("accel_p90_mps2") < 0.01)
        #expect(f.values.allSatisfy { $0.isFinite })
    }

    @Test("windows cover every segment once, except those across long gaps")
    func windowsCover() {
        var rng = SeededGenerator(seed: 3)
        let windowing = ActivityClassifier.Windowing()
        for _ in 0..<20 {
            var t = 0.0, points: [TrackPoint] = []
            for _ in 0..<rng.int(in: 2...400) {
                t += rng.bernoulli(0.02) ? rng.uniform(301, 900) : rng.uniform(1, 30)
                points.append(TrackPoint(time: t, latitude: 48 + rng.uniform(0, 0.01), longitude: 2))
            }
            var covered = [Int](repeating: 0, count: points.count)
            let windows = windowing.windows(points, from: 0, through: points.count - 1)
            for w in windows { for i in (w.lowerBound + 1)...w.upperBound { covered[i] += 1 } }
            for i in 1..<points.count {
                let gap = points[i].time - points[i - 1].time > windowing.maxGap
                #expect(covered[i] == (gap ? 0 : 1), "segment \(i)")
            }
        }
    }

    @Test("a synthetic vehicle leg between two runs is left out of the run record; the runs are kept")
    func vehicleBetweenRuns() {
        var rng = SeededGenerator(seed: 5)
        var checked = 0, vehicleFlagged = 0, vehicleTotal = 0, runFlagged = 0, runTotal = 0
        for _ in 0..<40 where checked < 3 {
            var legs = [SyntheticActivities.track(.run, rng: &rng), SyntheticActivities.track(.vehicle, rng: &rng),
                        SyntheticActivities.track(.run, rng: &rng)]
            // Keep tracks logged at 1–5 s: sparser ones give a run leg only a few windows.
            guard legs.allSatisfy({ $0[1].time - $0[0].time <= 5 }) else { continue }
            checked += 1
            // Chain the legs: each starts where (and when) the previous ended.
            var points = legs[0]
            for k in 1..<legs.count {
                let last = points[points.count - 1], first = legs[k][0]
                legs[k] = legs[k].dropFirst().map {
                    TrackPoint(time: $0.time - first.time + last.time, latitude: $0.latitude - first.latitude + last.latitude,
                               longitude: $0.longitude - first.longitude + last.longitude)
                }
                points += legs[k]
            }
            let flags = Track(points: points).vehicleSegments()
            let runEnd = legs[0].count - 1, vehicleEnd = runEnd + legs[1].count
            let flaggedRun = flags[1...runEnd].filter { $0 }.count + flags[(vehicleEnd + 1)...].filter { $0 }.count
            let flaggedVehicle = flags[(runEnd + 1)...vehicleEnd].filter { $0 }.count
            vehicleFlagged += flaggedVehicle; vehicleTotal += legs[1].count
            runFlagged += flaggedRun; runTotal += points.count - legs[1].count
        }
        #expect(checked == 3)
        // Over the three tracks: window edges blur each boundary by about one window (~2 min),
        // and a traffic-jam leg can pass for a ride for a while.
        #expect(Double(vehicleFlagged) >= 0.7 * Double(vehicleTotal))
        #expect(Double(runFlagged) <= 0.15 * Double(runTotal))
    }

    @Test("fast running at 6.5 m/s is not a vehicle")
    func fastRunner() {
        let track = straightTrack([(600, 6.5), (30, 0), (600, 6.0)])
        #expect(!track.vehicleSegments().contains(true))
    }
}

@Suite("Short classifier vehicle stretches")
struct ShortVehicleTests {
    @Test("a vehicle stretch under the minimum takes its neighbour's label; a long one stays")
    func suppression() {
        let track = straightTrack([(1200, 3.0)])
        let segments = [
            ActivitySegment(range: 1...300, activity: .run, confidence: 0.9),
            ActivitySegment(range: 301...500, activity: .vehicle, confidence: 0.6),   // 200 s
            ActivitySegment(range: 501...600, activity: .run, confidence: 0.8),
            ActivitySegment(range: 601...1200, activity: .vehicle, confidence: 0.7),  // 600 s
        ]
        let result = track.suppressShortVehicles(segments, minDuration: 360)
        #expect(result.map(\.activity) == [.run, .vehicle])
        #expect(result.map(\.range) == [1...600, 601...1200])
    }
}
