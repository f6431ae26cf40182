import Dispatch
import RunusCore
import Engine
import Simulation
import Storage
#if canImport(Glibc)
import Glibc
#endif
import Training

/// `runus simulate`: writes a database of simulated runners with known ground truth.
enum SimulateCommand: Command {
    static let name = "simulate"
    static let abstract = "Create a database of simulated runners, runs and mission outcomes."
    static let usage = "--db PATH|URI [--runners N] [--days D] [--seed S] [--start YYYY-MM-DD] [--force]"
    static let discussion = """
    Runners have profiles, abilities that follow a fitness-fatigue model, habits, GPS tracks with
    noise, stops, dropouts and drives, and one mission offered per day by an exploring policy.
    Outcomes follow a stated behaviour model (docs/simulation.md); the true completion probability
    is stored next to each tried mission for evaluation only. The same options give a
    byte-identical file. The database is written beside PATH and renamed into place when complete.
    A postgresql:// URI writes into that database instead, which must be empty (--force deletes
    every record in it first).
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database file to create, or postgresql:// URI of an empty database."),
        .value("runners", "N", default: "200", help: "Number of runners (1-100000)."),
        .value("days", "D", default: "180", help: "Number of days (1-3650)."),
        .value("seed", "S", default: "1", help: "Random seed (unsigned 64-bit)."),
        .value("start", "YYYY-MM-DD", default: "2026-06-01", help: "First simulated day."),
        .flag("force", help: "Replace PATH if it exists (a URI: delete every record first)."),
        .flag("quiet", help: "No progress on stderr."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let path = try arguments.require("db")
        let runners = try arguments.int("runners", in: 1...100_000)!
        let days = try arguments.int("days", in: 1...3650)!
        let seedText = try arguments.require("seed")
        guard let seed = UInt64(seedText) else { throw UsageError("--seed: '\(seedText)' is not an unsigned 64-bit integer") }
        let startText = try arguments.require("start")
        guard let start = CivilDate(iso: startText) else { throw UsageError("--start: '\(startText)' is not a date YYYY-MM-DD") }
        let configuration = SimulationConfiguration(runners: runners, days: days, seed: seed, startDay: start)
        let progress = arguments.flag("quiet") ? nil
            : ProgressOutput(label: "simulating", output: output, interactive: ProgressOutput.isTerminal(output))
        let (summary, written) = try write(configuration, to: path, force: arguments.flag("force"), progress: progress)
        output.out("""
        wrote \(written): \(summary.runners) runners, \(summary.runs) runs, \(summary.assignments) mission offers \
        (\(summary.decided) tried: \(summary.completed) completed), seed \(seed)

        """)
        return .success
    }

    struct Summary { var runners = 0, runs = 0, assignments = 0, decided = 0, completed = 0 }

    /// Writes the simulation to `--db`; returns the summary and where it went (for a server,
    /// without credentials).
    /// - Parameter simulate: runner `i`'s simulation (default: the exploring baseline policy).
    ///   Called in parallel; each runner draws from its own random stream.
    /// - Parameter written: sees each batch of runners once it is stored, in runner order.
    static func write(_ configuration: SimulationConfiguration, to argument: String, force: Bool,
                      progress: ProgressOutput?, simulate: (@Sendable (Int) -> SimulatedRunner)? = nil,
                      written: ([SimulatedRunner]) -> Void = { _ in }) throws -> (Summary, String) {
        let simulate = simulate ?? { RunnerSimulator.simulate(runner: $0, configuration: configuration) }
        switch StoreLocation(argument) {
        case .sqlite(let path):
            if access(path, F_OK) == 0, !force { throw CLIError("\(path) exists; pass --force to replace it") }
            return (try write(configuration, to: path, progress: progress, simulate: simulate, written: written), path)
        case .postgres:
            // No file to build aside and rename: the database must be empty, or emptied (--force).
            let store = try StoreOpening.open(argument, for: .offline)
            defer { try? store.close() }
            let totals = try store.totals()
            if !totals.isEmpty {
                guard force else {
                    throw CLIError("\(store.location) holds \(totals.users) users and \(totals.runs) runs; pass --force to delete every record first")
                }
                try store.removeAllRecords()
            }
            let summary = try fill(store, configuration, progress: progress, simulate: simulate, written: written)
            progress?.finish()
            return (summary, store.location)
        }
    }

    /// Simulates into a new SQLite file beside `path`, renamed into place when complete.
    static func write(_ configuration: SimulationConfiguration, to path: String, progress: ProgressOutput?,
                      simulate: @Sendable (Int) -> SimulatedRunner, written: ([SimulatedRunner]) -> Void) throws -> Summary {
        let temporary = path + ".partial"
        unlink(temporary)
        let summary: Summary
        do {
            let store = try SQLiteStore(path: temporary)
            summary = try fill(store, configuration, progress: progress, simulate: simulate, written: written)
            try store.close()
        } catch {
            unlink(temporary)
            throw error
        }
        progress?.finish()
        guard rename(temporary, path) == 0 else {
            throw CLIError("cannot move \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        return summary
    }

    /// Simulates in batches (runners in parallel on all cores, each from its own random stream)
    /// and writes the batches in runner order, so the file does not depend on thread timing.
    static func fill(_ store: any DatabaseStore, _ configuration: SimulationConfiguration, progress: ProgressOutput?,
                     simulate: @Sendable (Int) -> SimulatedRunner, written: ([SimulatedRunner]) -> Void) throws -> Summary {
        var summary = Summary()
        let batchSize = 32
        var first = 0
        while first < configuration.runners {
            let count = min(batchSize, configuration.runners - first)
            let base = first
            // Each run's digest is kept with it (record 0648), computed here on every core rather
            // than by the first daemon to read the runner.
            let simulated = ParallelMap.map(count: count) { i in
                let runner = simulate(base + i)
                return (runner, runner.runs.map(RunDigests.stored(for:)))
            }
            let results = simulated.map(\.0)
            // The body only writes: a server store may run it again (TransactionalStore).
            try store.transaction {
                for (runner, digests) in simulated {
                    try store.upsertUser(runner.profile)
                    for run in runner.runs { try store.insertRun(run) }
                    try store.storeRunDigests(digests)
                    for a in runner.assignments { try store.insertAssignment(a) }
                }
            }
            for runner in results {
                summary.runners += 1
                summary.runs += runner.runs.count
                summary.assignments += runner.assignments.count
                summary.decided += runner.assignments.filter { $0.status == .completed || $0.status == .failed }.count
                summary.completed += runner.assignments.filter { $0.status == .completed }.count
            }
            written(results)
            first += count
            progress?.update(done: first, total: configuration.runners)
        }
        return summary
    }
}
