import Testing
import Foundation
import RunusCore
import Storage
import Engine
@testable import Datasets
@testable import RunusCLI

/// The shared runners folder (datasets README), when present: `RUNUS_DATASETS` or
/// `../shared/datasets` next to the package.
enum SharedRunners {
    static let root: String = {
        if let env = ProcessInfo.processInfo.environment["RUNUS_DATASETS"], !env.isEmpty { return env + "/runners" }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent("../shared/datasets/runners").standardizedFileURL.path
    }()
    static var available: Bool { FileManager.default.fileExists(atPath: root + "/activities.csv") }
}

@Suite("runus import on the real runners")
struct RealImportTests {
    /// Skips (with this condition's comment) when ../shared/datasets is absent: the data is
    /// never part of the repository.
    @Test("a sample of one runner's tracks and summaries imports without failures; distances agree with the summaries",
          .enabled(if: SharedRunners.available, "needs ../shared/datasets/runners (RUNUS_DATASETS)"))
    func sample() throws {
        let plan = try RunnersDataset.importPlan(folder: SharedRunners.root)
        #expect(plan.failed.isEmpty)
        #expect(plan.profiles.count == 11)
        // runner_c: 6 s sampling, small tracks; the first 40 items with a track, 40 without.
        let c = plan.items.filter { $0.runner == "runner_c" }
        let tracks = c.filter { if case .datasetTrack = $0.source { return true } else { return false } }.prefix(40)
        let summaries = c.filter { if case .summary = $0.source { return true } else { return false } }.prefix(40)
        let store = try SQLiteStore(path: ":memory:")
        let report = try RunImporter(store: store).run(items: Array(tracks) + Array(summaries),
                                                     profiles: plan.profiles.filter { $0.id == "runner_c" }, progress: nil)
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(report.imported + report.skipped.values.reduce(0, +) == tracks.count + summaries.count)
        #expect(report.importedTracks >= 35)
        // Our track distance against the platform's summary distance: the median ratio is near 1
        // (README: device totals differ from haversine sums by ~2 % at the median; 5 % allowed).
        var ratios: [Double] = []
        for item in tracks {
            guard case .datasetTrack(_, let summary?) = item.source, let runID = item.runID, let run = try store.run(user: item.runner, id: runID) else { continue }
            ratios.append(run.distance / summary.distance)
        }
        ratios.sort()
        let median = try #require(ratios.isEmpty ? nil : ratios[ratios.count / 2])
        #expect(abs(median - 1) < 0.05, "median ours/summary \(median)")
    }
}
