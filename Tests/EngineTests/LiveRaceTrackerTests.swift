import Testing
import RunusCore
import Tracking
@testable import Engine

@Suite("Live race tracker")
struct LiveRaceTrackerTests {
    /// Position batches of a runner who runs, stands at lights, sends stale and duplicate
    /// points, and rides a car for a few minutes: after every batch the live tracker's distance
    /// equals the recomputing reference's, and so does the finish-crossing time. Exact: the
    /// live tracker reproduces the batch arithmetic (record 0160).
    @Test("distance after every batch and finish time equal the recomputing tracker's", arguments: [1, 2, 3] as [UInt64])
    func matchesRecomputing(seed: UInt64) {
        let start: EpochSeconds = 1_800_000_000
        var rng = SeededGenerator(seed: seed)
        var live = LiveRaceTracker(), reference = RecomputingRaceTracker()
        var second = 0, offset: Meters = 0
        for chunk in 0..<60 {
            let length = Int(rng.uniform(3, 40))
            let speed = chunk == 30 ? 14 : rng.bernoulli(0.15) ? 0 : rng.uniform(2.5, 4.5)
            var batch = northPoints(start: start, from: second, to: second + (chunk == 30 ? 300 : length), speed: speed, offset: offset)
            offset += Double(batch.count - 1) * speed
            second += batch.count
            if rng.bernoulli(0.2) { batch.insert(batch[0], at: 1) }                       // a duplicate
            if rng.bernoulli(0.1) { batch.append(TrackPoint(time: start, latitude: 35, longitude: 139)) }  // stale
            live.append(batch)
            reference.append(batch)
            #expect(live.distance == reference.distance, "chunk \(chunk)")
        }
        for d in [1000.0, 3000, reference.distance] {
            #expect(live.profile.time(atDistance: d) == reference.profile.time(atDistance: d))
        }
    }
}
