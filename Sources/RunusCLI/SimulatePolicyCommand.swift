import ModelStore
import Simulation
import Training

/// `runus simulate-policy`: replays today's-missions policy on simulated runners (known truth).
enum SimulatePolicyCommand: Command {
    static let name = "simulate-policy"
    static let abstract = "Replay the daily mission policy on simulated runners and report realised completion."
    static let usage = "--model DIR [--runners N] [--days D] [--seed S]"
    static let discussion = """
    Simulated runners (docs/simulation.md) receive the missions TodayPolicy picks with the given
    model instead of the exploring policy, try one on each run day, and succeed according to the
    true behaviour model. Prints, overall and per kind, how many were tried, the realised
    completion rate, the mean predicted probability and the mean true probability, against the
    target band 0.65-0.85.
    """
    static let parser = ArgumentParser(options: [
        .required("model", "DIR", help: "Model directory holding model.json (logistic regression or gradient boosting)."),
        .value("runners", "N", default: "100", help: "Number of runners (1-10000)."),
        .value("days", "D", default: "90", help: "Number of days (1-3650)."),
        .value("seed", "S", default: "7", help: "Random seed."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let scorer = try ModelFiles.load(from: try arguments.require("model")).scorer
        guard let seed = UInt64(try arguments.require("seed")) else { throw UsageError("--seed: not an unsigned integer") }
        let configuration = SimulationConfiguration(runners: try arguments.int("runners", in: 1...10_000)!,
                                                    days: try arguments.int("days", in: 1...3650)!, seed: seed)
        output.out(PolicySimulation.run(configuration, scorer: scorer).markdown())
        return .success
    }
}
