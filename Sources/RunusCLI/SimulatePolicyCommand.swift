import ModelStore
import Simulation
import Training

/// `runus simulate-policy`: replays today's-missions policy on simulated runners (known truth).
enum SimulatePolicyCommand: Command {
    static let name = "simulate-policy"
    static let abstract = "Replay the daily mission policy on simulated runners and report realised completion."
    static let usage = "--model DIR [--runners N] [--days D] [--seed S] [--db PATH|URI [--force]]"
    static let discussion = """
    Simulated runners (docs/simulation.md) receive the missions TodayPolicy picks with the given
    model instead of the exploring policy, try one on each run day, and succeed according to the
    true behaviour model. Prints, overall and per kind, how many were tried, the realised
    completion rate, the mean predicted probability and the mean true probability, against the
    target band 0.65-0.85. With --db, the replay is also written to a database as `runus
    simulate` writes one (runners, runs, the policy's offers with their outcomes and true
    probabilities), for `runus report`, `labels` or `train` to read; the same rules apply (a
    file is built aside and renamed into place; a postgresql:// URI must name an empty database
    unless --force).
    """
    static let parser = ArgumentParser(options: [
        .required("model", "DIR", help: "Model directory holding model.json (logistic regression or gradient boosting)."),
        .value("runners", "N", default: "100", help: "Number of runners (1-10000)."),
        .value("days", "D", default: "90", help: "Number of days (1-3650)."),
        .value("seed", "S", default: "7", help: "Random seed."),
        .optional("db", "PATH|URI", help: "Also write the replay here: a new SQLite file, or a postgresql:// URI of an empty database."),
        .flag("force", help: "With --db: replace the file (a URI: delete every record first)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let scorer = try ModelFiles.load(from: try arguments.require("model")).scorer
        guard let seed = UInt64(try arguments.require("seed")) else { throw UsageError("--seed: not an unsigned integer") }
        let configuration = SimulationConfiguration(runners: try arguments.int("runners", in: 1...10_000)!,
                                                    days: try arguments.int("days", in: 1...3650)!, seed: seed)
        guard let db = arguments.string("db") else {
            if arguments.flag("force") { throw UsageError("--force: only with --db") }
            output.out(PolicySimulation.run(configuration, scorer: scorer).markdown())
            return .success
        }
        var runners: [SimulatedRunner] = []
        let (summary, written) = try SimulateCommand.write(configuration, to: db, force: arguments.flag("force"), progress: nil,
                                                           simulate: PolicySimulation.simulator(configuration, scorer: scorer),
                                                           written: { runners += $0 })
        output.out(PolicySimulation(runners: runners).markdown())
        output.out("\nwrote \(written): \(summary.runners) runners, \(summary.runs) runs, \(summary.assignments) mission offers "
                   + "(\(summary.decided) tried: \(summary.completed) completed), seed \(seed)\n")
        return .success
    }
}
