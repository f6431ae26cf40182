import Testing
import RunusCore
@testable import Tracking

/// `LiveBestEffort` against `DistanceProfile.fastestDuration`, bit for bit, at every batch end,
/// driven as `LiveTotals.advanceEfforts` drives it: batches of entries, each advanced over in
/// order, an effort that `waits` skipping the batch. The profiles have whole-metre steps and
/// whole-metre lengths, so targets land exactly on fixes' distances (the ties where the start
/// windows' end, the newest entry since record 0171, and the end windows' start are decided),
/// and runs of zero steps (a stop: several fixes at one distance).
@Suite("Live best effort")
struct LiveBestEffortTests {
    static func profile(_ rng: inout SeededGenerator, count: Int, wholeMetres: Bool) -> LiveProfileArrays {
        var storage = LiveProfileArrays()
        var t = 1_700_000_000.0, d = 0.0
        storage.append(time: t, distance: d, moving: false)
        for _ in 1..<count {
            // Whole or fractional seconds: fractions make every interpolation round.
            t += wholeMetres ? Double(rng.int(in: 1...5)) : rng.uniform(0.5, 5)
            if rng.bernoulli(0.2) {
                // a stop: no distance
            } else if wholeMetres {
                d += Double(rng.int(in: 1...6))
            } else {
                d += rng.uniform(0, 15)
            }
            storage.append(time: t, distance: d, moving: true)
        }
        return storage
    }

    @Test("equals the batch's fastest duration after every batch", arguments: [21, 22, 23, 24, 25, 26])
    func equalsBatch(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let wholeMetres = seed % 2 == 0
        let storage = Self.profile(&rng, count: rng.int(in: 2...400), wholeMetres: wholeMetres)
        let lengths: [Meters] = [1, 2, 3, 5, 7, 12, 30, 100, 0.5, 10.25, 400]
        var efforts = lengths.map(LiveBestEffort.init(length:))
        let times = (0..<storage.count).map(storage.time), distances = (0..<storage.count).map(storage.distance)
        var from = 0
        while from < storage.count {
            let to = min(storage.count, from + rng.int(in: 1...40))
            let first = storage.distance(0), last = storage.distance(to - 1)
            for e in efforts.indices where !efforts[e].waits(total: last, first: first) {
                for m in from..<to {
                    efforts[e].advance(storage, count: m + 1, total: storage.distance(m), first: first,
                                       newestTime: storage.time(m))
                }
            }
            let batch = DistanceProfile(times: Array(times[..<to]), distances: Array(distances[..<to]))
            for (e, length) in zip(efforts, lengths) {
                let expected = batch.fastestDuration(covering: length) ?? .infinity
                #expect(e.best.bitPattern == expected.bitPattern,
                        "seed \(seed), \(to) entries, \(length) m: live \(e.best), batch \(expected)")
            }
            from = to
        }
    }
}
