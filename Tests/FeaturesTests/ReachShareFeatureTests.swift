import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v15's terms (record 0665): per kind, the share of the last 20 runs that went as long as
/// the mission asks, and the runner's record on the kind with a slope of its own.
@Suite("reach share and per-kind record features")
struct ReachShareFeatureTests {
    static let tolerance = 1e-12
    static let day: EpochSeconds = 86_400
    static let asOf: EpochSeconds = 1_780_272_000

    func value(_ spec: MissionSpec, _ state: RunnerState, _ name: String) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: name), "no feature \(name)")]
    }

    /// One run a day ending the day before `asOf`, oldest first, of these distances and moving times.
    func history(_ distances: [Meters], moving: [Seconds]) -> [RunRecord] {
        let n = distances.count
        return zip(distances, moving).enumerated().map { i, dm in
            RunRecord(id: "r\(i)", userID: "u", startTime: Self.asOf - Double(n - i) * Self.day, distance: dm.0,
                      elapsed: max(dm.1, 1), moving: dm.1, elevationGain: 0, source: "test")
        }
    }

    @Test("a distance counts the runs that covered 99 % of it; a duration the runs that moved 99 % of it")
    func distanceAndDuration() throws {
        let distances: [Meters] = [3000, 4950, 5000, 8000, 2000]
        let moving: [Seconds] = [1200, 1782, 1700, 3000, 900]
        let state = RunnerState(history: history(distances, moving: moving), asOf: Self.asOf)
        #expect(state.recentMovingTimes == moving)
        // 5 km: 4,950 (exactly 99 %), 5,000 and 8,000 m reach it.
        let five = MissionSpec.distance(minDistance: 5000)
        #expect(abs(try value(five, state, "reach_share_distance") - log(3.5 / 2.5)) <= Self.tolerance)
        // 30 min: 1,782 s (exactly 99 %) and 3,000 s reach it.
        let thirty = MissionSpec.duration(minDuration: 1800)
        #expect(abs(try value(thirty, state, "reach_share_duration") - log(2.5 / 3.5)) <= Self.tolerance)
        // Each kind reads its own column: the others are 0.
        #expect(try value(five, state, "reach_share_duration") == 0)
        #expect(try value(thirty, state, "reach_share_distance") == 0)
        // A recovery run is judged by its time, as a duration.
        let recovery = MissionSpec.recovery(minPace: 400, minDuration: 1800, maxHeartRate: nil)
        #expect(abs(try value(recovery, state, "reach_share_recovery") - log(2.5 / 3.5)) <= Self.tolerance)
    }

    @Test("only the last 20 runs count; no history, and stored values that are not numbers, reach nothing")
    func windowAndHostileRows() throws {
        // 25 runs: the oldest five are 10 km, the last 20 are 3 km.
        let distances = [Meters](repeating: 10_000, count: 5) + [Meters](repeating: 3000, count: 20)
        let state = RunnerState(history: history(distances, moving: distances.map { $0 * 0.36 }), asOf: Self.asOf)
        #expect(state.recentMovingTimes.count == 20)
        #expect(abs(try value(.distance(minDistance: 8000), state, "reach_share_distance") - log(0.5 / 20.5)) <= Self.tolerance)
        #expect(try value(.distance(minDistance: 8000), RunnerState(history: [], asOf: Self.asOf), "reach_share_distance") == 0)
        let hostile = RunnerState(history: history([.nan, 6000], moving: [.infinity, 2000]), asOf: Self.asOf)
        #expect(hostile.recentMovingTimes == [0, 2000])
        #expect(abs(try value(.duration(minDuration: 1800), hostile, "reach_share_duration") - log(1.5 / 1.5)) <= Self.tolerance)
        #expect(abs(try value(.distance(minDistance: 5000), hostile, "reach_share_distance") - log(1.5 / 1.5)) <= Self.tolerance)
    }

    @Test("the other kinds measure the distance they ask for as the distance features do")
    func effectiveDistances() throws {
        let distances: [Meters] = [4000, 6000, 9000, 12_000]
        let state = RunnerState(history: history(distances, moving: distances.map { $0 * 0.33 }), asOf: Self.asOf)
        for spec: MissionSpec in [.longRun(multiple: 1.1), .intervals(reps: 6, repDistance: 1000, maxPace: 240, maxRecovery: 120),
                                  .progression(kilometres: 7), .evenPace(minDistance: 9000, maxSpread: 10)] {
            let accepted = MissionFeatures.effectiveDistance(spec, state: state) * MissionTolerance.default.distanceFraction
            let k = distances.filter { $0 >= accepted }.count
            let expected = log((Double(k) + 0.5) / (Double(distances.count - k) + 0.5))
            #expect(abs(try value(spec, state, "reach_share_\(spec.kind.rawValue)") - expected) <= Self.tolerance,
                    "\(spec.kind.rawValue): \(k) of \(distances.count) reach \(accepted) m")
        }
    }

    @Test("the per-kind record is past_log_odds_kind in the kind's own column and 0 elsewhere")
    func perKindRecord() throws {
        let outcomes = (0..<10).map { PastOutcome(kind: .fartlek, completed: $0 < 7, decidedAt: Self.asOf - Self.day) }
        let state = RunnerState(history: [], outcomes: outcomes, asOf: Self.asOf)
        let fartlek = MissionSpec.fartlek(surges: 6, minSurge: 30)
        let shared = try value(fartlek, state, "past_log_odds_kind")
        #expect(abs(shared - log(8.0 / 4.0)) <= Self.tolerance)
        #expect(try value(fartlek, state, "past_log_odds_fartlek") == shared)
        #expect(try value(fartlek, state, "past_log_odds_hills") == 0)
        #expect(try value(.hills(minAscent: 50), state, "past_log_odds_fartlek") == 0)
    }
}
