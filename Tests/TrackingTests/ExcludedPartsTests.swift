import Testing
import RunusCore
import Tracking

/// `RunMetrics.excludedParts`: the vehicle parts the record leaves out, neighbours merged.
@Suite("parts the record leaves out")
struct ExcludedPartsTests {
    @Test("a drive the recording begins with is listed, ending where the record starts; a run alone has none")
    func leadingDrive() throws {
        var b = TrackBuilder(time: 1_780_000_000)
        b.run(speed: 15, seconds: 300)
        b.run(speed: 3, seconds: 900)
        let m = RunMetrics(track: b.track)
        let drive = try #require(m.excludedParts.first)
        #expect(m.excludedParts.count == 1 && drive.activity == .vehicle)
        // The record starts at the first fix after the drive, which is the drive's last fix.
        #expect(drive.endTime == m.startTime && drive.startTime == 1_780_000_000)
        #expect(abs(drive.path - 4500) <= 2 * 5 * 15 + 1, "path \(drive.path)")
        // Every vehicle activity part is in it, and nothing else.
        let vehicle = m.activityParts.filter { $0.activity == .vehicle }
        #expect(abs(vehicle.reduce(0) { $0 + $1.path } - drive.path) < 1e-6)
        var run = TrackBuilder(time: 1_780_000_000)
        run.run(speed: 3, seconds: 900)
        #expect(RunMetrics(track: run.track).excludedParts.isEmpty)
    }
}
