import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v14's term (record 0664): the runner's record on the kind offered, as log odds.
@Suite("past log odds feature")
struct PastLogOddsFeatureTests {
    static let tolerance = 1e-12
    static let day: EpochSeconds = 86_400
    static let asOf: EpochSeconds = 1_780_272_000

    func value(_ spec: MissionSpec, _ state: RunnerState) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: "past_log_odds_kind"))]
    }

    /// `completed` of `tried` outcomes of `kind`, decided `daysBefore` days before `asOf`.
    func outcomes(_ kind: MissionKind, tried: Int, completed: Int, daysBefore: Double) -> [PastOutcome] {
        (0..<tried).map { PastOutcome(kind: kind, completed: $0 < completed, decidedAt: Self.asOf - daysBefore * Self.day) }
    }

    @Test("log((completed + 1) / (failed + 1)) of the kind offered, read from the 90-day window only")
    func logOddsOfTheKind() throws {
        let past = outcomes(.hills, tried: 12, completed: 3, daysBefore: 10)
            + outcomes(.hills, tried: 40, completed: 40, daysBefore: 100)  // outside the window
            + outcomes(.pace, tried: 9, completed: 8, daysBefore: 5)
        let state = RunnerState(history: [], outcomes: past, asOf: Self.asOf)
        let hills = try value(.hills(minAscent: 50), state)
        #expect(abs(hills - log(4.0 / 10.0)) <= Self.tolerance)
        let pace = try value(.pace(maxPace: 300, minDistance: 5000), state)
        #expect(abs(pace - log(9.0 / 2.0)) <= Self.tolerance)
        // A kind without outcomes reads the missing value, 0, as does a runner without any.
        #expect(try value(.distance(minDistance: 5000), state) == 0)
        #expect(try value(.hills(minAscent: 50), RunnerState(history: [], asOf: Self.asOf)) == 0)
        // The same as the log odds of the rate of schema v2.
        let rate = state.completionRate(.hills)
        #expect(abs(hills - log(rate / (1 - rate))) <= Self.tolerance)
    }

    @Test("finite and ordered for every count, all completed or all failed included")
    func finiteAtTheExtremes() throws {
        var last = -Double.infinity
        for completed in [0, 1, 10, 1000, 100_000] {
            let state = RunnerState(history: [], outcomes: outcomes(.loop, tried: 100_000, completed: completed, daysBefore: 1),
                                    asOf: Self.asOf)
            let v = try value(.loop(maxGap: 100, minDistance: 5000), state)
            #expect(v.isFinite && v > last)
            last = v
        }
        #expect(last == log(100_001.0))
    }
}
