import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v10's effort-share term (record 0657): how many of the last 20 runs with a track
/// covered a distance-in-time mission's distance within what its check accepts.
@Suite("effort share feature")
struct EffortShareFeatureTests {
    static let tolerance = 1e-12
    static let start: EpochSeconds = 1_780_272_000

    /// One digest a day, each with a fastest 5 km of the given seconds (nil: a run under 5 km).
    func digests(_ fiveK: [Seconds?]) -> [RunDigest] {
        fiveK.enumerated().map { i, t in
            var efforts: [Meters: Seconds] = [1000: 240]
            if let t { efforts[5000] = t }
            return RunDigest(start: Self.start + Double(i) * 86_400 + 7 * 3600, bestEfforts: efforts, cells: [])
        }
    }

    func value(_ spec: MissionSpec, _ state: RunnerState) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: "effort_share_distance_in_time"))]
    }

    @Test("k of the last 20 tracked runs made the time (the 99 % stretch, plus 1 s/km): log((k + ½) / (20 − k + ½)); the oldest fall out")
    func share() throws {
        // 24 runs: the first four (all fast) leave the window; of the last 20, 5 ran 5 km in
        // 25:00, 3 in 25:15 (× 0.99 = 24:59.85, within 25:00 + 5 s), 8 in 27:00, 4 were shorter.
        let fiveK: [Seconds?] = [Seconds?](repeating: 1200, count: 4) + [Seconds?](repeating: 1500, count: 5)
            + [Seconds?](repeating: 1515, count: 3) + [Seconds?](repeating: 1620, count: 8) + [Seconds?](repeating: nil, count: 4)
        let state = RunnerState(history: [], asOf: Self.start + 25 * 86_400, digests: digests(fiveK))
        #expect(state.recentEfforts.count == 20)
        let at25 = try value(.distanceInTime(distance: 5000, maxDuration: 1500), state)
        #expect(abs(at25 - log(8.5 / 12.5)) < Self.tolerance, "\(at25)")
        // 24:30 asked accepts 24:35: 25:00 × 0.99 = 24:45 does not make it.
        #expect(abs(try value(.distanceInTime(distance: 5000, maxDuration: 1470), state) - log(0.5 / 20.5)) < Self.tolerance)
        #expect(abs(try value(.distanceInTime(distance: 5000, maxDuration: 1700), state) - log(16.5 / 4.5)) < Self.tolerance)
        // A distance the digests keep no effort over, or another kind: 0.
        #expect(try value(.distanceInTime(distance: 4000, maxDuration: 1200), state) == 0)
        #expect(try value(.pace(maxPace: 300, minDistance: 5000), state) == 0)
        // Digests at or after the as-of instant are not the past.
        let early = RunnerState(history: [], asOf: Self.start + 2 * 86_400, digests: digests(fiveK))
        #expect(early.recentEfforts.count == 2)
    }

    @Test("without digests the term is 0 (even odds); a non-finite stored effort never counts")
    func emptyAndHostile() throws {
        #expect(try value(.distanceInTime(distance: 5000, maxDuration: 1500), RunnerState(history: [], asOf: Self.start)) == 0)
        let state = RunnerState(history: [], asOf: Self.start + 5 * 86_400, digests: digests([.nan, .infinity, 1400]))
        #expect(abs(try value(.distanceInTime(distance: 5000, maxDuration: 1500), state) - log(1.5 / 2.5)) < Self.tolerance)
    }
}
