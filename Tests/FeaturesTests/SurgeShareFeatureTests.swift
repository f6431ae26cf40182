import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v11's surge-share term (record 0658): how many of the last 20 runs whose digest knows
/// its surges had the surges a fartlek asks.
@Suite("surge share feature")
struct SurgeShareFeatureTests {
    static let tolerance = 1e-12
    static let start: EpochSeconds = 1_780_272_000

    /// One digest a day with the given surges (nil: a digest of the version before, unknown).
    func digests(_ surges: [[Seconds]?]) -> [RunDigest] {
        surges.enumerated().map { i, s in
            RunDigest(start: Self.start + Double(i) * 86_400 + 7 * 3600, bestEfforts: [:], cells: [], surges: s)
        }
    }

    func value(_ spec: MissionSpec, _ state: RunnerState) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: "surge_share_fartlek"))]
    }

    @Test("k of the last 20 runs with known surges had n surges of the time asked less 2 s; unknown ones are left out")
    func share() throws {
        // 26 digests: 3 unknown (left out), then 3 that fall out of the window, then 20: 6 with
        // six 28 s surges, 4 with four 40 s surges, 10 steady.
        let six = [Seconds](repeating: 28, count: 6), four = [Seconds](repeating: 40, count: 4)
        let surges: [[Seconds]?] = [nil, nil, nil] + [[Seconds]?](repeating: six, count: 3)
            + [[Seconds]?](repeating: six, count: 6) + [[Seconds]?](repeating: four, count: 4) + [[Seconds]?](repeating: [], count: 10)
        let state = RunnerState(history: [], asOf: Self.start + 30 * 86_400, digests: digests(surges))
        #expect(state.recentSurges.count == 20)
        // 4 × 30 s: 28 s surges count (30 − 2), so 10 runs; 6 × 30 s: 6 runs; 4 × 45 s: none (40 < 43).
        #expect(abs(try value(.fartlek(surges: 4, minSurge: 30), state) - log(10.5 / 10.5)) < Self.tolerance)
        #expect(abs(try value(.fartlek(surges: 6, minSurge: 30), state) - log(6.5 / 14.5)) < Self.tolerance)
        #expect(abs(try value(.fartlek(surges: 4, minSurge: 45), state) - log(0.5 / 20.5)) < Self.tolerance)
        #expect(abs(try value(.fartlek(surges: 4, minSurge: 20), state) - log(10.5 / 10.5)) < Self.tolerance)
        #expect(try value(.distance(minDistance: 5000), state) == 0)
    }

    @Test("without digests, or with only digests of the version before, the term is 0 (even odds)")
    func unknown() throws {
        #expect(try value(.fartlek(surges: 4, minSurge: 30), RunnerState(history: [], asOf: Self.start)) == 0)
        let old = RunnerState(history: [], asOf: Self.start + 5 * 86_400, digests: digests([nil, nil, nil]))
        #expect(old.recentSurges.isEmpty)
        #expect(try value(.fartlek(surges: 4, minSurge: 30), old) == 0)
    }
}
