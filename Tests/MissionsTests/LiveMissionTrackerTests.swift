import Testing
import RunusCore
import Tracking
@testable import Missions

/// The live tracker against the after-the-run check (the oracle): same verdict at the end, and
/// at every point the verdict of the batch check on the track so far.
@Suite("Live mission progress")
struct LiveMissionTrackerTests {
    typealias Leg = SyntheticRun.Leg

    /// A run mixing everything the kinds look at: reps with rests, surges, a climb, a loop back.
    static func mixedLegs(_ rng: inout SeededGenerator) -> [Leg] {
        var legs: [Leg] = [.run(rng.uniform(800, 1500), rng.uniform(330, 380))]
        for _ in 0..<rng.int(in: 2...5) {
            legs += [.run(400, rng.uniform(255, 285), bearing: 120), .run(rng.uniform(150, 320), 420, bearing: 120)]
        }
        legs += [.run(1000, 330, bearing: 200, grade: rng.uniform(0, 0.06)), .stand(rng.uniform(5, 40))]
        legs += [.run(rng.uniform(1500, 2500), rng.uniform(300, 360), bearing: 300)]
        return legs
    }

    @Test("fed in chunks, the live verdict equals the batch verdict on the prefix, and at the end on the whole run",
          arguments: [1, 2] as [UInt64])
    func liveEqualsBatch(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let track = SyntheticRun.track(Self.mixedLegs(&rng))
        let start = track.points[0].time
        let context = MissionContext(priorRuns: [PriorRun(start: start - 86_400, utcOffset: 3600, distance: 4000,
                                                          bestEfforts: [5000: 1600])],
                                     visitedCells: [], utcOffset: 3600)
        for kind in MissionKind.allCases where kind != .raceFinish && kind != .podium {
            var live = LiveMissionTracker(spec: kind.example, context: context)
            var fed = 0
            while fed < track.points.count {
                let chunk = min(track.points.count - fed, rng.int(in: 1...400))
                live.append(contentsOf: Array(track.points[fed..<fed + chunk]))
                fed += chunk
                if rng.bernoulli(0.15) || fed == track.points.count {
                    let prefix = Track(points: Array(track.points[..<fed]))
                    #expect(live.progress() == MissionEvaluator.evaluate(kind.example, track: prefix, context: context),
                            "\(kind.rawValue) after \(fed) fixes")
                }
            }
            #expect(live.progress() == MissionEvaluator.evaluate(kind.example, track: track, context: context))
        }
    }

    @Test("intervals: the rep count only grows as the session goes on, \"3 of 5 reps\" style")
    func repsCountUp() {
        let spec = MissionSpec.intervals(reps: 5, repDistance: 400, maxPace: 270, maxRecovery: 120)
        var legs: [Leg] = [.run(1000, 360)]
        for _ in 0..<5 { legs += [.run(400, 262), .run(200, 420)] }
        let track = SyntheticRun.track(legs)
        var live = LiveMissionTracker(spec: spec)
        var counts: [Int] = []
        for (i, p) in track.points.enumerated() {
            live.append(p)
            if i % 30 == 0 || i == track.points.count - 1 { counts.append(live.progress().count?.done ?? 0) }
        }
        #expect(counts == counts.sorted())
        #expect(counts.last == 5 && counts.contains(3))
        #expect(live.progress().status == .completed)
    }

    @Test("an empty or one-fix live run is not applicable yet")
    func empty() {
        var live = LiveMissionTracker(spec: .distance(minDistance: 5000))
        #expect(live.progress().status == .notApplicable)
        live.append(TrackPoint(time: 0, latitude: 52.5, longitude: 13.4))
        #expect(live.progress().status == .notApplicable)
    }
}
