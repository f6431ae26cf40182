import RunusCore
import Service
import Training

/// `runus eval-weekly`: how well the weekly-volume forecast foretells runners' weeks, for several
/// recency half-lives of the run days' distances (record 0655).
enum EvalWeeklyCommand: Command {
    static let name = "eval-weekly"
    static let abstract = "Score the weekly-volume forecast on a store's histories."
    static let usage = "--db PATH|URI [--half-lives H,H,...] [--spreads S,S,...] [--breaks RULE,RULE,...] [--model DIR]"
    static let discussion = """
    At every local day with a run (after 28 days of record, with the whole week in the record),
    each week-long weekly volume the daily policy could offer that day is forecast as of the
    day's start and checked against the week's runs (did the week reach the accepted target by
    Sunday?). Prints a Markdown table per recency half-life of the run days' distances (weeks
    at which a day counts half; none: every day the same): log loss, Brier score, mean forecast
    and share that came true, over all forecasts and over those inside the policy's band; then
    the first half-life's reliability bins. The shipped half-life is
    WeeklyVolumeForecast.recencyHalfLifeWeeks. --model DIR shrinks the day chances toward that
    model's schedule prior (record 0668), as the daemon serving it does.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to read: SQLite file or postgresql:// URI."),
        .value("half-lives", "H,H,...", default: "3,none,1,2,4,8", help: "Recency half-lives to score, weeks (each in (0, 10000] or none, at most 20)."),
        .value("spreads", "S,S,...", default: "0", help: "Log standard deviations of a week's factor to score (each in [0, 2], at most 20)."),
        .value("breaks", "RULE,RULE,...", default: EvalStreaksCommand.breakDefault, help: "Break rules of the day chances to score (as eval-streaks)."),
        .optional("model", "DIR", help: "Model directory whose schedule prior the day chances shrink toward (record 0668); without: none."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let halfLives = try EvalStreaksCommand.list(arguments, "half-lives", unit: "weeks", allowsNone: true)
        let spreads = try arguments.require("spreads").split(separator: ",", omittingEmptySubsequences: false).map { part -> Double in
            guard let x = Double(part), x.isFinite, x >= 0, x <= 2 else {
                throw UsageError("--spreads: '\(part.prefix(40))' is not a number in [0, 2]")
            }
            return x
        }
        guard (1...20).contains(spreads.count) else { throw UsageError("--spreads: 1 to 20 values, not \(spreads.count)") }
        let breaks = try EvalStreaksCommand.rules(arguments, "breaks")
        let prior = try EvalStreaksCommand.modelPrior(arguments)
        let store = try StoreOpening.open(try arguments.existingDatabase("db"), for: .offline)
        defer { try? store.close() }
        let calibration = try WeeklyVolumeCalibration(store: store, halfLives: halfLives, spreads: spreads, breaks: breaks,
                                                      prior: prior, resolver: SystemTimeZones())
        output.out("runners: \(calibration.runners)\nschedule prior: \(prior)\n\n" + calibration.table())
        return .success
    }
}
