import Testing
import RunusCore
@testable import Tracking

/// The live tracker's cleaning stage against `Track.cleaned`: after every prefix, the fixes it
/// settled followed by its provisional ones are the batch's cleaned fixes, and at most two fixes
/// are provisional (the stage's bounded tail).
@Suite("Spike cleaning stage")
struct SpikeCleaningStageTests {
    /// Collects the settled fixes.
    struct Settled: CleanedFixSink {
        var points: [TrackPoint] = []
        mutating func accept(cleaned point: TrackPoint) { points.append(point) }
    }

    /// Feeds `points` one by one and compares with the batch cleaner at every prefix.
    static func compareAtEveryPrefix(_ points: [TrackPoint], label: String) {
        var stage = SpikeCleaningStage()
        var settled = Settled()
        for n in 1...points.count {
            stage.append(points[n - 1], into: &settled)
            let batch = Track(points: Array(points[..<n])).cleaned().points
            #expect(settled.points + stage.provisional == batch, "\(label), prefix \(n)")
            #expect(stage.provisional.count <= 2, "\(label), prefix \(n)")
            if settled.points + stage.provisional != batch { break }
        }
    }

    @Test("equals the batch cleaner at every prefix of tracks with duplicate and out-of-order times, jumps, invalid fixes and shifts",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func faults(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var points: [TrackPoint] = []
        var t = 1_800_000_000.0, lat = 48.0, lon = 2.0
        for _ in 0..<300 {
            switch rng.uniform() {
            case ..<0.05: t -= rng.uniform(0, 5)                     // out of order
            case ..<0.08: break                                       // duplicate time
            default: t += rng.uniform(0.5, 5)
            }
            lat += rng.gaussian(mean: 0, sd: 0.00003); lon += rng.gaussian(mean: 0, sd: 0.00003)
            var p = TrackPoint(time: t, latitude: lat, longitude: lon)
            if rng.bernoulli(0.06) { p.latitude += rng.uniform(-0.01, 0.01) }   // a jump of up to ~1 km
            if rng.bernoulli(0.01) { p.latitude = .nan }
            if rng.bernoulli(0.03) { lat += 0.001 }                             // a sustained shift
            points.append(p)
        }
        Self.compareAtEveryPrefix(points, label: "seed \(seed)")
    }

    @Test("equals the batch cleaner at every prefix of the live tracker's random runs", arguments: [11, 12, 13] as [UInt64])
    func randomRuns(seed: UInt64) {
        Self.compareAtEveryPrefix(RandomRuns.track(seed: seed, minutes: 8), label: "random run \(seed)")
    }
}
