import Testing
import RunusCore
import Tracking
@testable import Missions

/// Surge detection walks a run second by second; across a gap between two fixes nothing can
/// change, so it must not walk the gap (a fix at t = 1e11 hung the daemon: the fuzzing campaign).
@Suite("fartlek surges across gaps")
struct FartlekGapTests {
    /// 40 min at 3 m/s, 1 Hz, with four 60 s surges at 4 m/s starting every 8 minutes.
    static func profile(gapTo last: EpochSeconds? = nil) -> DistanceProfile {
        var times: [EpochSeconds] = [], distances: [Meters] = []
        var d: Meters = 0
        for s in 0...2400 {
            times.append(1_800_000_000 + Double(s))
            distances.append(d)
            let inSurge = s % 480 >= 240 && s % 480 < 300
            d += inSurge ? 4 : 3
        }
        if let last {
            times.append(last)
            distances.append(d + 10)
        }
        return DistanceProfile(times: times, distances: distances)
    }

    @Test("a fix 6 days after the run gives the run's surges, without walking the gap")
    func gapToMaximumTime() {
        let plain = FartlekDetector.surges(in: Self.profile(), averageSpeed: 3.1, minDuration: 30)
        let gapped = FartlekDetector.surges(in: Self.profile(gapTo: 1_800_000_000 + 6 * 86_400), averageSpeed: 3.1, minDuration: 30)
        #expect(plain.count == 5)
        #expect(gapped.map(\.duration) == plain.map(\.duration))
        #expect(gapped.map(\.from) == plain.map(\.from))
    }

    @Test("a surge through a fast gap between two fixes is the surge of the same run sampled every second")
    func fastGap() {
        // 600 s at 3 m/s, 120 s at 5 m/s, 600 s at 3 m/s: once with the fast part as two fixes
        // 120 s apart (a gap: skipped), once at 1 Hz (walked). Interpolation makes them one profile.
        func profile(gap: Bool) -> DistanceProfile {
            var times: [EpochSeconds] = [], distances: [Meters] = []
            var d: Meters = 0
            for s in 0...1320 {
                let fast = s > 600 && s < 720
                if !(gap && fast) { times.append(Double(s)); distances.append(d) }
                d += s >= 600 && s < 720 ? 5 : 3
            }
            return DistanceProfile(times: times, distances: distances)
        }
        let walked = FartlekDetector.surges(in: profile(gap: false), averageSpeed: 3.2, minDuration: 30)
        let skipped = FartlekDetector.surges(in: profile(gap: true), averageSpeed: 3.2, minDuration: 30)
        #expect(walked.count == 1)
        #expect(skipped.map(\.duration) == walked.map(\.duration))
        #expect(skipped.map(\.from) == walked.map(\.from))
        #expect(skipped.map(\.to) == walked.map(\.to))
    }
}

extension FartlekGapTests {
    @Test("a track longer than any run (a fix at 1e11 s, or at 1.2e23 s where adding a second changes nothing) gives no surges, at once")
    func absurdClock() {
        for last in [1e11, 123_456_789_012_345_678_901_234] {
            #expect(FartlekDetector.surges(in: Self.profile(gapTo: last), averageSpeed: 3.1, minDuration: 30).isEmpty)
        }
    }
}
