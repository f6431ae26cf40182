import Testing
import RunusCore
import Missions
@testable import Features
#if canImport(Glibc)
import Glibc
#endif

/// Schema v7's start-share terms (record 0653): how many of the last 20 local starts fall in the
/// window an early-bird or night-owl mission asks for, by the check's own rule.
@Suite("start share features")
struct StartShareFeatureTests {
    static let tolerance = 1e-12
    /// Midnight UTC of a Monday.
    static let monday: EpochSeconds = 1_780_272_000

    /// One 5 km run a day at each local clock time (minutes after midnight), in order.
    func runs(_ minutes: [Int], utcOffset: Int) -> [RunRecord] {
        minutes.enumerated().map { i, minute in
            RunRecord(id: "r\(i)", userID: "u", startTime: Self.monday + Double(i) * 86_400 + Double(minute * 60 - utcOffset),
                      distance: 5000, elapsed: 1700, moving: 1650, elevationGain: 20, source: "test")
        }
    }

    func value(_ spec: MissionSpec, _ state: RunnerState, _ name: String) throws -> Double {
        let names = MissionFeatures.schema.features.map(\.name)
        return MissionFeatures.vector(spec, state: state)[try #require(names.firstIndex(of: name))]
    }

    @Test("the check's window: an early bird from 03:00 to before its minute, a night owl from its minute to before 03:00")
    func windows() {
        let early = MissionSpec.earlyBird(beforeMinute: 420, minDistance: 3000)
        let late = MissionSpec.nightOwl(afterMinute: 1200, minDistance: 3000)
        #expect(MissionEvaluator.startFits(early, minute: 179) == false)
        #expect(MissionEvaluator.startFits(early, minute: 180) == true)
        #expect(MissionEvaluator.startFits(early, minute: 419) == true)
        #expect(MissionEvaluator.startFits(early, minute: 420) == false)
        #expect(MissionEvaluator.startFits(late, minute: 1199) == false)
        #expect(MissionEvaluator.startFits(late, minute: 1200) == true)
        #expect(MissionEvaluator.startFits(late, minute: 179) == true)
        #expect(MissionEvaluator.startFits(late, minute: 180) == false)
        #expect(MissionEvaluator.startFits(.distance(minDistance: 5000), minute: 300) == nil)
    }

    @Test("a runner who runs at 06:30 on weekdays and 10:00 on Sundays: the share counts the starts, the mean hour cannot")
    func bimodalRunner() throws {
        let offset = 9 * 3600
        // 25 days: the first five fall out of the 20-run window.
        let minutes = (0..<25).map { $0 % 7 == 6 ? 600 : 390 }
        let history = runs(minutes, utcOffset: offset)
        let state = RunnerState(history: history, asOf: Self.monday + 26 * 86_400, utcOffset: offset)
        #expect(state.recentStartMinutes == Array(minutes.suffix(20)))
        let sundays = minutes.suffix(20).filter { $0 == 600 }.count
        let early = try value(.earlyBird(beforeMinute: 420, minDistance: 3000), state, "start_share_early_bird")
        #expect(abs(early - log((Double(20 - sundays) + 0.5) / (Double(sundays) + 0.5))) < Self.tolerance)
        // Before 06:30 nothing fits: the lowest log odds of 20 runs.
        let tooEarly = try value(.earlyBird(beforeMinute: 390, minDistance: 3000), state, "start_share_early_bird")
        #expect(abs(tooEarly - log(0.5 / 20.5)) < Self.tolerance)
        // Other kinds read 0 in both columns.
        #expect(try value(.earlyBird(beforeMinute: 420, minDistance: 3000), state, "start_share_night_owl") == 0)
        #expect(try value(.distance(minDistance: 5000), state, "start_share_early_bird") == 0)
    }

    @Test("a night owl's window wraps past midnight; the UTC offset places the starts")
    func nightOwl() throws {
        let offset = -5 * 3600
        let minutes = [1290, 1320, 30, 150, 200, 1100]  // 21:30, 22:00, 00:30, 02:30 fit; 03:20, 18:20 do not
        let state = RunnerState(history: runs(minutes, utcOffset: offset), asOf: Self.monday + 7 * 86_400, utcOffset: offset)
        let late = try value(.nightOwl(afterMinute: 1260, minDistance: 3000), state, "start_share_night_owl")
        #expect(abs(late - log(4.5 / 2.5)) < Self.tolerance)
        // Read in UTC, the same runs start five hours later: 02:30, 03:00, 05:30, 07:30, 08:20, 23:20.
        let utc = RunnerState(history: runs(minutes, utcOffset: offset), asOf: Self.monday + 7 * 86_400, utcOffset: 0)
        #expect(abs(try value(.nightOwl(afterMinute: 1260, minDistance: 3000), utc, "start_share_night_owl") - log(2.5 / 4.5)) < Self.tolerance)
    }

    @Test("without history the terms are 0 (even odds)")
    func noHistory() throws {
        let state = RunnerState(history: [], asOf: Self.monday)
        #expect(state.recentStartMinutes.isEmpty)
        #expect(try value(.earlyBird(beforeMinute: 420, minDistance: 3000), state, "start_share_early_bird") == 0)
        #expect(try value(.nightOwl(afterMinute: 1260, minDistance: 3000), state, "start_share_night_owl") == 0)
    }

    /// Runs at each clock time (minutes after local midnight) covering each distance (metres).
    func runs(_ minutes: [Int], distances: [Double], utcOffset: Int) -> [RunRecord] {
        zip(minutes, distances).enumerated().map { i, md in
            RunRecord(id: "r\(i)", userID: "u", startTime: Self.monday + Double(i) * 86_400 + Double(md.0 * 60 - utcOffset),
                      distance: md.1, elapsed: 1700, moving: 1650, elevationGain: 20, source: "test")
        }
    }

    @Test("schema v12's run shares count the starts in the window that also covered 99 % of the distance (record 0659)")
    func runShares() throws {
        // 06:30 starts of 3, 5.94 (99 % of 6) and 8 km, a 10:00 start of 8 km, 22:00 starts of 4 and 7 km.
        let minutes = [390, 390, 390, 600, 1320, 1320]
        let distances = [3000.0, 5940, 8000, 8000, 4000, 7000]
        let state = RunnerState(history: runs(minutes, distances: distances, utcOffset: 0), asOf: Self.monday + 7 * 86_400)
        #expect(state.recentStartDistances == distances)
        let early = MissionSpec.earlyBird(beforeMinute: 420, minDistance: 6000)
        // Three starts fit the window, two of them the distance.
        #expect(abs(try value(early, state, "run_share_early_bird") - log(2.5 / 4.5)) < Self.tolerance)
        #expect(abs(try value(early, state, "start_share_early_bird") - log(3.5 / 3.5)) < Self.tolerance)
        let late = MissionSpec.nightOwl(afterMinute: 1260, minDistance: 5000)
        #expect(abs(try value(late, state, "run_share_night_owl") - log(1.5 / 5.5)) < Self.tolerance)
        #expect(try value(early, state, "run_share_night_owl") == 0 && (try value(.distance(minDistance: 5000), state, "run_share_early_bird")) == 0)
        // A stored distance that is not a number covers nothing; no history reads 0.
        let hostile = RunnerState(history: runs([390, 390], distances: [.nan, 7000], utcOffset: 0), asOf: Self.monday + 3 * 86_400)
        #expect(hostile.recentStartDistances == [0, 7000])
        #expect(abs(try value(early, hostile, "run_share_early_bird") - log(1.5 / 1.5)) < Self.tolerance)
        #expect(try value(early, RunnerState(history: [], asOf: Self.monday), "run_share_early_bird") == 0)
    }
}
