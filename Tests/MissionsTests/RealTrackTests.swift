import Foundation
import Testing
import RunusCore
import Tracking
import Missions

/// Real runners' tracks (`../shared/datasets/runners/`, see RealRunners). Skipped when the data
/// is absent: the dataset is evaluation data and is not part of the repository.
@Suite("Missions on real runners' tracks", .enabled(if: RealRunners.available, "real runners dataset not found"))
struct RealTrackTests {
    /// Single-run kinds that runner_b first completes late in a long history, found by
    /// `make missions-table` (its "[first]" lines); checked here without scanning up to them.
    static let pinned: [(kind: MissionKind, activity: Int)] = [
        (.hills, 524), (.intervals, 621), (.nightOwl, 624), (.evenPace, 883),
    ]

    /// For every kind but the race kinds (no real race results), a real run that completes the
    /// default mission, with the verdict printed with its evidence. Multi-run kinds are found by
    /// scanning histories in order with the context a backend would build (runner_a's 3 runs,
    /// runner_b's first 35); the pinned ones are checked on their own.
    @Test("every non-race kind is completed by at least one real run, with its evidence")
    func oneRealRunPerKind() throws {
        let runs = try RealRunners.runs()
        var scan = RealMissionScan()
        try scan.scan(runner: runs["runner_a"] ?? [])
        try scan.scan(runner: runs["runner_b"] ?? [], limit: 35)
        var found = scan.first
        for (kind, id) in Self.pinned {
            guard let activity = runs["runner_b"]?.first(where: { $0.id == id }) else {
                Issue.record("runner_b #\(id) is not in the dataset"); continue
            }
            let e = MissionEvaluator.evaluate(kind.example, track: try RealRunners.track(activity),
                                              context: MissionContext(utcOffset: activity.utcOffset))
            #expect(e.status == .completed, "\(kind.rawValue) on runner_b #\(id): \(e.evidence)")
            if found[kind] == nil { found[kind] = RealMissionScan.Found(activity: activity, evaluation: e) }
        }
        for kind in RealMissionScan.kinds {
            guard let f = found[kind] else {
                Issue.record("\(kind.rawValue): no completing real run found"); continue
            }
            print("[real] \(kind.rawValue): \(f.activity.runner) #\(f.activity.id): " + f.evaluation.evidence.joined(separator: "; "))
            #expect(f.evaluation.status == .completed && !f.evaluation.evidence.isEmpty)
        }
    }

    /// The table of the report: every run of every runner against each kind's default mission.
    /// Long (all 3,300 real run tracks): run with `make missions-table` (release build).
    @Test("table by kind of real runs completing the default mission",
          .enabled(if: ProcessInfo.processInfo.environment["RUNUS_MISSIONS_TABLE"] == "1", "set RUNUS_MISSIONS_TABLE=1"))
    func table() throws {
        var scan = RealMissionScan()
        for (_, activities) in try RealRunners.runs().sorted(by: { $0.key < $1.key }) {
            try scan.scan(runner: activities)
        }
        print("\(scan.runs) real runs (≥ 500 m) of \(try RealRunners.runs().count) runners\n" + scan.table())
        for kind in RealMissionScan.kinds {
            if let f = scan.first[kind] {
                print("[first] \(kind.rawValue): \(f.activity.runner) #\(f.activity.id): " + f.evaluation.evidence.joined(separator: "; "))
            }
        }
    }
}
