import Dispatch
import RunusCore
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
    static let usage = "--db PATH [--runners N] [--days D] [--seed S] [--start YYYY-MM-DD] [--force]"
    static let discussion = """
    Runners have profiles, abilities that follow a fitness-fatigue model, habits, GPS tracks with
    noise, stops, dropouts and drives, and one mission offered per day by an exploring policy.
    Outcomes follow a stated behaviour model (docs/simulation.md); the true completion probability
    is stored next to each tried mission for evaluation only. The same options give a
    byte-identical file. The database is written beside PATH and renamed into place when complete.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH", help: "Database file to create."),
        .value("runners", "N", default: "200", help: "Number of runners (1-100000)."),
        .value("days", "D", default: "180", help: "Number of days (1-3650)."),
        .value("seed", "S", default: "1", help: "Random seed (unsigned 64-bit)."),
        .value("start", "YYYY-MM-DD", default: "2026-06-01", help: "First simulated day."),
        .flag("force", help: "Replace PATH if it exists."),
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
        if access(path, F_OK) == 0, !arguments.flag("force") {
            throw CLIError("\(path) exists; pass --force to replace it")
        }
        let configuration = SimulationConfiguration(runners: runners, days: days, seed: seed, startDay: start)
        let progress = arguments.flag("quiet") ? nil
            : ProgressOutput(label: "simulating", output: output, interactive: ProgressOutput.isTerminal(output))
        let summary = try write(configuration, to: path, progress: progress)
        output.out("""
        wrote \(path): \(summary.runners) runners, \(summary.runs) runs, \(summary.assignments) mission offers \
        (\(summary.decided) tried: \(summary.completed) completed), seed \(seed)

        """)
        return .success
    }

    struct Summary { var runners = 0, runs = 0, assignments = 0, decided = 0, completed = 0 }

    /// Simulates in batches (runners in parallel on all cores, each from its own random stream)
    /// and writes the batches in runner order, so the file does not depend on thread timing.
    static func write(_ configuration: SimulationConfiguration, to path: String, progress: ProgressOutput?) throws -> Summary {
        let temporary = path + ".partial"
        unlink(temporary)
        var summary = Summary()
        do {
            let store = try SQLiteStore(path: temporary)
            let batchSize = 32
            var first = 0
            while first < configuration.runners {
                let count = min(batchSize, configuration.runners - first)
                let base = first
                let results = ParallelMap.map(count: count) { i in
                    RunnerSimulator.simulate(runner: base + i, configuration: configuration)
                }
                try store.transaction {
                    for runner in results {
                        try store.upsertUser(runner.profile)
                        for run in runner.runs { try store.insertRun(run) }
                        for a in runner.assignments { try store.insertAssignment(a) }
                        summary.runners += 1
                        summary.runs += runner.runs.count
                        summary.assignments += runner.assignments.count
                        summary.decided += runner.assignments.filter { $0.status == .completed || $0.status == .failed }.count
                        summary.completed += runner.assignments.filter { $0.status == .completed }.count
                    }
                }
                first += count
                progress?.update(done: first, total: configuration.runners)
            }
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
}
