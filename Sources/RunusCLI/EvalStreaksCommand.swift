import RunusCore
import Service
import Training

/// `runus eval-streaks`: how well the streak forecast's day chances foretell runners' next days,
/// for several prior weights (record 0650).
enum EvalStreaksCommand: Command {
    static let name = "eval-streaks"
    static let abstract = "Score the streak forecast on a store's histories for several prior weights."
    static let usage = "--db PATH|URI [--weights W,W,...]"
    static let discussion = """
    At every local day with a run (after 28 days of record), the forecast that the runner also
    runs on each of the next 1 ... 6 days (a streak needing that many more days) is checked
    against the days they ran. Prints a Markdown table per prior weight (days of the class's
    share a weekday's share is shrunk by): log loss, Brier score, mean forecast, share that came
    true. The shipped weight is StreakForecast.priorWeight.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to read: SQLite file or postgresql:// URI."),
        .value("weights", "W,W,...", default: "1,2,4,8,16,32", help: "Prior weights to score, days (each > 0 and finite, at most 20)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let text = try arguments.require("weights")
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...20).contains(parts.count) else { throw UsageError("--weights: 1 to 20 weights, not \(parts.count)") }
        let weights = try parts.map { part -> Double in
            guard let w = Double(part), w.isFinite, w > 0, w <= 10_000 else {
                throw UsageError("--weights: '\(part.prefix(40))' is not a number of days in (0, 10000]")
            }
            return w
        }
        let store = try StoreOpening.open(try arguments.existingDatabase("db"), for: .offline)
        defer { try? store.close() }
        let calibration = try StreakCalibration(store: store, weights: weights, resolver: SystemTimeZones())
        output.out("runners: \(calibration.runners)\n\n" + calibration.table())
        return .success
    }
}
