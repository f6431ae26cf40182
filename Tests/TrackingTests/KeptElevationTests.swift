import Testing
import Foundation
import RunusCore
import Tracking

/// The record's climb counts the steps it keeps (record 0153): a drive up a hill adds nothing,
/// a climb walked too slowly for auto-pause still counts.
@Suite("elevation over the kept steps")
struct KeptElevationTests {
    static let start: EpochSeconds = 1_780_000_000

    @Test("a drive up a hill between two runs adds nothing: the climb is the runs' own")
    func driveUpAHill() throws {
        // 600 s at 3 m/s up 30 m, 300 s driving at 15 m/s up 150 m, 600 s at 3 m/s down 30 m.
        func height(_ t: EpochSeconds) -> Meters {
            let s = t - Self.start
            if s <= 600 { return 100 + s * 0.05 }
            if s <= 900 { return 130 + (s - 600) * 0.5 }
            return 280 - (s - 900) * 0.05
        }
        var b = TrackBuilder(time: Self.start)
        b.points[0].elevation = height(Self.start)
        b.run(speed: 3, seconds: 600, elevation: height)
        b.run(speed: 15, seconds: 300, elevation: height)
        b.run(speed: 3, seconds: 600, elevation: height)
        let m = RunMetrics(track: b.track)
        let drive = try #require(m.excludedParts.first, "the drive is a vehicle part")
        #expect(m.excludedParts.count == 1 && drive.activity == .vehicle)
        // The oracle: every step's change but those of the vehicle part (heights go one way at
        // a time over more than the 5 m threshold, so the hysteresis adds them all).
        let times = m.profile.times
        var up: Meters = 0, down: Meters = 0
        for i in 1..<times.count where !(times[i] > drive.startTime && times[i] <= drive.endTime) {
            let d = height(times[i]) - height(times[i - 1])
            if d > 0 { up += d } else { down -= d }
        }
        #expect(abs(m.elevationGain - up) < 1e-9 && abs(m.elevationLoss - down) < 1e-9,
                "gain \(m.elevationGain) loss \(m.elevationLoss), kept steps up \(up) down \(down)")
        // About the runs' 30 m each way (a few seconds of either side may cross the part's edges), not 180 m.
        #expect(abs(m.elevationGain - 30) < 6 && abs(m.elevationLoss - 30) < 6, "gain \(m.elevationGain) loss \(m.elevationLoss)")
    }

    @Test("a steep climb walked under the pause speed counts, though auto-pause stops the clock")
    func slowClimb() {
        // 300 s at 3 m/s, 600 s at 0.3 m/s up 60 m (a steep trail), 300 s at 3 m/s.
        func height(_ t: EpochSeconds) -> Meters {
            let s = t - Self.start
            return 100 + min(max(s - 300, 0), 600) * 0.1
        }
        var b = TrackBuilder(time: Self.start)
        b.points[0].elevation = height(Self.start)
        b.run(speed: 3, seconds: 300, elevation: height)
        b.run(speed: 0.3, seconds: 600, elevation: height)
        b.run(speed: 3, seconds: 300, elevation: height)
        let m = RunMetrics(track: b.track)
        #expect(m.moving < 900, "the slow part is paused: moving \(m.moving) s")
        #expect(abs(m.elevationGain - 60) < 1e-9 && m.elevationLoss == 0, "gain \(m.elevationGain)")
    }
}
