import Testing
import RunusCore
import Tracking
@testable import Missions

/// Real runs either side of a boundary, found with `runus mission check` over runner_b's
/// history (its first 40 tracks): each pair is a completion and a near miss of the same default
/// mission, with the reason in the table. Reads only these six track files.
@Suite("Real runs just inside and just outside a mission", .enabled(if: RealRunners.available, "real runners dataset not found"))
struct RealNearMissTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let kind: MissionKind
        let activity: Int
        let expected: MissionStatusResult
        /// The evidence sentence that decides it (a substring), and why.
        let decisive: String
        let why: String
        var testDescription: String { "\(kind.rawValue) runner_b #\(activity) \(expected.rawValue): \(why)" }
    }

    static let cases: [Case] = [
        Case(kind: .loop, activity: 393, expected: .completed, decisive: "finished 69 m from the start",
             why: "a 10.5 km loop closing 69 m from its start, inside the 100 m limit"),
        Case(kind: .loop, activity: 450, expected: .failed, decisive: "finished 105 m from the start",
             why: "a 13.3 km loop closing 105 m away: 5 m over the limit, and the gap has no GPS slack"),
        // Moving time per half follows records 0151/0152 (smoothed auto-pause, acceleration filter).
        Case(kind: .negativeSplit, activity: 420, expected: .completed, decisive: "first half 35:27, second half 35:20",
             why: "11.5 km with the second half 7 s faster"),
        Case(kind: .negativeSplit, activity: 454, expected: .failed, decisive: "first half 28:53, second half 29:39",
             why: "9.3 km with the second half 46 s slower"),
        Case(kind: .intervals, activity: 621, expected: .completed, decisive: "4 of 4 reps",
             why: "4 reps of 400 m between 3:44 and 4:18/km, rests under 1:30"),
        Case(kind: .intervals, activity: 624, expected: .failed, decisive: "a rest of 6:31 over the 3:00 limit restarted the count",
             why: "3 fast reps; the nearest fast stretch outside them is 6:31 away: 3 of 4 reps (record 0217)"),
    ]

    /// runner_b's runs, read once for all cases (activities.csv has 13,483 rows).
    static let runnerB: [RealRunners.Activity] = RealRunners.available ? ((try? RealRunners.runs())?["runner_b"] ?? []) : []

    @Test("the verdict and the evidence that decides it", arguments: cases)
    func nearMiss(_ c: Case) throws {
        let activity = try #require(Self.runnerB.first { $0.id == c.activity }, "runner_b #\(c.activity) not in the dataset")
        let e = MissionEvaluator.evaluate(c.kind.example, track: try RealRunners.track(activity),
                                          context: MissionContext(utcOffset: activity.utcOffset))
        #expect(e.status == c.expected, "\(e.evidence)")
        #expect(e.evidence.contains { $0.contains(c.decisive) }, "\(e.evidence)")
    }
}
