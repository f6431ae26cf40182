import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v13's interval terms (record 0662): how many of the last 20 runs with a track held an
/// intervals mission's rep pace over one rep, and over all its reps in a row.
@Suite("interval share features")
struct IntervalShareFeatureTests {
    static let tolerance = 1e-12
    static let start: EpochSeconds = 1_780_272_000

    /// One digest a day with the given best efforts (metres → seconds).
    func digests(_ efforts: [[Meters: Seconds]]) -> [RunDigest] {
        efforts.enumerated().map { i, e in
            RunDigest(start: Self.start + Double(i) * 86_400 + 7 * 3600, bestEfforts: e, cells: [])
        }
    }

    func value(_ name: String, _ spec: MissionSpec, _ state: RunnerState) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: name))]
    }

    @Test("k of the last 20 tracked runs held the rep pace over a rep (the next kept distance) and over the reps together")
    func shares() throws {
        // 22 runs: the first two (fast) leave the window. Of the last 20: 6 ran 1 km in 3:58 and
        // 5 km in 20:30 (4:06/km), 4 ran 1 km in 4:05 and 5 km in 22:00, 10 ran 1 km in 4:30
        // and no 5 km.
        let fast: [Meters: Seconds] = [400: 90, 1000: 238, 5000: 1230]
        let efforts = [[Meters: Seconds]](repeating: [400: 80, 1000: 200, 5000: 1000], count: 2)
            + [[Meters: Seconds]](repeating: fast, count: 6)
            + [[Meters: Seconds]](repeating: [400: 95, 1000: 245, 5000: 1320], count: 4)
            + [[Meters: Seconds]](repeating: [400: 105, 1000: 270], count: 10)
        let state = RunnerState(history: [], asOf: Self.start + 23 * 86_400, digests: digests(efforts))
        #expect(state.recentEfforts.count == 20)
        // 5 × 800 m at 4:05/km: a rep of 792 m reads the 1 km effort, limit 4:06 × 1 km = 246 s
        // (10 runs); the 3,960 m together read the 5 km effort, limit 1,230 s (6 runs).
        let spec = MissionSpec.intervals(reps: 5, repDistance: 800, maxPace: 245, maxRecovery: 90)
        #expect(abs(try value("rep_share_intervals", spec, state) - log(10.5 / 10.5)) < Self.tolerance)
        #expect(abs(try value("steady_share_intervals", spec, state) - log(6.5 / 14.5)) < Self.tolerance)
        // At 3:55/km no run holds even one rep.
        let hard = MissionSpec.intervals(reps: 5, repDistance: 800, maxPace: 235, maxRecovery: 90)
        #expect(abs(try value("rep_share_intervals", hard, state) - log(0.5 / 20.5)) < Self.tolerance)
        // Reps whose metres together exceed a marathon, or another kind: 0.
        #expect(try value("steady_share_intervals", .intervals(reps: 40, repDistance: 2000, maxPace: 245, maxRecovery: 90), state) == 0)
        #expect(try value("rep_share_intervals", .pace(maxPace: 245, minDistance: 5000), state) == 0)
        #expect(try value("steady_share_intervals", .distanceInTime(distance: 5000, maxDuration: 1500), state) == 0)
    }

    @Test("without digests the terms are 0 (even odds); a non-finite stored effort never counts")
    func emptyAndHostile() throws {
        let spec = MissionSpec.intervals(reps: 4, repDistance: 400, maxPace: 240, maxRecovery: 90)
        #expect(try value("rep_share_intervals", spec, RunnerState(history: [], asOf: Self.start)) == 0)
        let state = RunnerState(history: [], asOf: Self.start + 5 * 86_400,
                                digests: digests([[400: .nan], [400: .infinity], [400: 90], [400: -.infinity]]))
        // -∞ is not finite either: one of four counts.
        #expect(abs(try value("rep_share_intervals", spec, state) - log(1.5 / 3.5)) < Self.tolerance)
    }
}
