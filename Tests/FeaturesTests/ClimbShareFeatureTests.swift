import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v9's climb-share term (record 0656): how many of the last 20 runs climbed what a hills
/// mission accepts, by the check's own tolerance.
@Suite("climb share feature")
struct ClimbShareFeatureTests {
    static let tolerance = 1e-12
    static let start: EpochSeconds = 1_780_272_000

    /// One 8 km run a day climbing each of `gains` metres, in order.
    func runs(_ gains: [Double]) -> [RunRecord] {
        gains.enumerated().map { i, gain in
            RunRecord(id: "r\(i)", userID: "u", startTime: Self.start + Double(i) * 86_400 + 7 * 3600,
                      distance: 8000, elapsed: 2900, moving: 2800, elevationGain: gain, source: "test")
        }
    }

    func value(_ spec: MissionSpec, _ state: RunnerState) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: "climb_share_hills"))]
    }

    @Test("k of the last 20 runs climbed 95 % of the ascent asked: log((k + ½) / (20 − k + ½)); the oldest runs fall out")
    func share() throws {
        // 25 runs: the first five (all 300 m) leave the window; of the last 20, 6 climb 200 m,
        // 4 climb 95 m (95 % of 100 m: accepted), 10 climb 40 m.
        let gains = [Double](repeating: 300, count: 5) + [Double](repeating: 200, count: 6)
            + [Double](repeating: 95, count: 4) + [Double](repeating: 40, count: 10)
        let state = RunnerState(history: runs(gains), asOf: Self.start + 26 * 86_400)
        #expect(state.recentClimbs == Array(gains.suffix(20)))
        #expect(abs(try value(.hills(minAscent: 100), state) - log(10.5 / 10.5)) < Self.tolerance)
        #expect(abs(try value(.hills(minAscent: 150), state) - log(6.5 / 14.5)) < Self.tolerance)
        #expect(abs(try value(.hills(minAscent: 40), state) - log(20.5 / 0.5)) < Self.tolerance)
        #expect(abs(try value(.hills(minAscent: 400), state) - log(0.5 / 20.5)) < Self.tolerance)
        // Another kind reads 0.
        #expect(try value(.distance(minDistance: 5000), state) == 0)
    }

    @Test("stored gains that are not finite non-negative numbers count as no climb; no history reads 0")
    func hostileAndEmpty() throws {
        let state = RunnerState(history: runs([.nan, .infinity, -50, 120]), asOf: Self.start + 5 * 86_400)
        #expect(state.recentClimbs == [0, 0, 0, 120])
        #expect(abs(try value(.hills(minAscent: 100), state) - log(1.5 / 3.5)) < Self.tolerance)
        #expect(try value(.hills(minAscent: 100), RunnerState(history: [], asOf: Self.start)) == 0)
    }
}
