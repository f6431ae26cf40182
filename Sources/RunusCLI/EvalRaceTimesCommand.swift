import RunusCore
import Datasets
import Engine

/// `runus eval-race-times`: our race-time predictions vs Riegel on real runners' personal bests.
enum EvalRaceTimesCommand: Command {
    static let name = "eval-race-times"
    static let abstract = "Evaluate race-time predictions against Riegel on real runners' personal bests."
    static let usage = "[--dataset DIR]"
    static let discussion = """
    Every new personal best at 5K, 10K, half or full marathon (runs within ±3 % of the distance)
    in the runners dataset is predicted from that runner's earlier runs only. Prints the mean
    absolute percentage error of our predictor and of Riegel's formula (exponent 1.06) applied to
    the runner's best earlier run, per distance and overall.
    """
    static let parser = ArgumentParser(options: [
        .optional("dataset", "DIR", help: "The runners folder (default: $RUNUS_DATASETS/runners or ../shared/datasets/runners)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let folder = Environment.runnersFolder(arguments.string("dataset"))
        let evaluation = RaceTimeEvaluation(runs: try RunnersDataset.runEfforts(folder: folder))
        func pct(_ x: Double) -> String { "\((x * 1000).rounded() / 10) %" }
        output.out("| distance | personal bests | MAPE ours | MAPE Riegel 1.06 | reduction |\n|---|---|---|---|---|\n")
        var rows = RaceTimePredictor.raceDistances.map { ($0.name, Optional($0.distance)) }
        rows.append(("all", nil))
        for (name, distance) in rows {
            let m = evaluation.meanAbsolutePercentageError(distance: distance)
            guard m.count > 0 else { continue }
            output.out("| \(name) | \(m.count) | \(pct(m.ours)) | \(pct(m.riegel)) | \(pct(1 - m.ours / m.riegel)) |\n")
        }
        return .success
    }
}
