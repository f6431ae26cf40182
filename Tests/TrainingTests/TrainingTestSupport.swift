import Foundation
import RunusCore
import Engine
import Simulation
import Storage
import Learning

/// A simulated database written as `runus simulate` writes one (same runners, runs and offers in
/// runner order), in a fresh directory under /tmp removed by `cleanup()`.
struct SimulatedStore {
    let directory: String
    let store: SQLiteStore

    init(runners: Int, days: Int, seed: UInt64, name: String = #function) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        directory = NSTemporaryDirectory() + "runus-training-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory + "/sim.sqlite")
        let configuration = SimulationConfiguration(runners: runners, days: days, seed: seed)
        try store.transaction {
            for i in 0..<runners {
                let runner = RunnerSimulator.simulate(runner: i, configuration: configuration)
                try store.upsertUser(runner.profile)
                for run in runner.runs { try store.insertRun(run) }
                for offer in runner.assignments { try store.insertAssignment(offer) }
            }
        }
    }

    func cleanup() {
        try? store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// UTC offsets from the system's zone database, as the CLI's resolver gives them.
struct SystemZones: UTCOffsetResolver {
    func offset(timeZone: String, at instant: EpochSeconds) -> Int? {
        TimeZone(identifier: timeZone)?.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
    }
}

/// The repository's root (models/default lives there).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The schedule prior of the shipped models/default (record 0668), what the daemon serving it
/// forecasts streaks and weekly volumes with; `SchedulePrior.none` when it has none.
func shippedSchedulePrior() throws -> SchedulePrior {
    guard let data = FileManager.default.contents(atPath: repositoryRoot + "/models/default/model.json") else {
        throw CocoaError(.fileNoSuchFile)
    }
    return try AnyModelArtifact.decode([UInt8](data)).schedulePrior ?? .none
}
