import RunusCore
import Features
import Service
import Training
import ModelStore

/// `runus eval-streaks`: how well the streak forecast's day chances foretell runners' next days,
/// for several prior weights, recency half-lives and break rules (records 0650, 0660).
enum EvalStreaksCommand: Command {
    static let name = "eval-streaks"
    static let abstract = "Score the streak forecast on a store's histories for several prior weights."
    static let usage = "--db PATH|URI [--weights W,W,...] [--half-lives H,H,...] [--breaks RULE,RULE,...] [--model DIR]"
    static let discussion = """
    At every local day with a run (after 28 days of record), the forecast that the runner also
    runs on each of the next 1 ... 6 days (a streak needing that many more days) is checked
    against the days they ran. Prints a Markdown table per prior weight (days of the class's
    share a weekday's share is shrunk by): log loss, Brier score, mean forecast, share that came
    true, for every prior weight, half-life (weeks at which a week counts half; none: every week
    the same) and break rule (how days the runner could not run are left out of the shares).
    The shipped ones are StreakForecast.priorWeight, StreakForecast.recencyHalfLifeWeeks and
    StreakForecast.breakRule (records 0650, 0660). --model DIR shrinks every class share toward
    that model's schedule prior (record 0668), as the daemon serving it does.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to read: SQLite file or postgresql:// URI."),
        .value("weights", "W,W,...", default: "4,8,16,32", help: "Prior weights to score, days (each in (0, 10000], at most 20)."),
        .value("half-lives", "H,H,...", default: "none,1,2,3,4,8", help: "Recency half-lives to score, weeks (each in (0, 10000] or none, at most 20)."),
        .value("breaks", "RULE,RULE,...", default: breakDefault, help: "Break rules to score, at most 20: weeks (7-day windows without a run), gap:G (G days without a run, 2 ... 84) or chain:P:L (a break starts after an active day with chance P in (0, 0.5] and lasts L days on average, 1 ... 365)."),
        .optional("model", "DIR", help: "Model directory whose schedule prior the forecasts shrink toward (record 0668); without: none."),
    ])
    static let breakDefault = StreakForecast.breakRule.description

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let weights = try list(arguments, "weights", unit: "days", allowsNone: false).compactMap { $0 }
        let halfLives = try list(arguments, "half-lives", unit: "weeks", allowsNone: true)
        let breaks = try rules(arguments, "breaks")
        let prior = try modelPrior(arguments)
        let store = try StoreOpening.open(try arguments.existingDatabase("db"), for: .offline)
        defer { try? store.close() }
        let calibration = try StreakCalibration(store: store, weights: weights, halfLives: halfLives, breaks: breaks,
                                                prior: prior, resolver: SystemTimeZones())
        output.out("runners: \(calibration.runners)\nschedule prior: \(prior)\n\n" + calibration.table())
        return .success
    }

    /// The schedule prior of `--model DIR` (`SchedulePrior.none` without the option or when the
    /// model has none), read before the store so that a bad directory fails at once.
    static func modelPrior(_ arguments: ParsedArguments) throws -> SchedulePrior {
        guard let directory = arguments.string("model") else { return .none }
        return try ModelFiles.readAny(from: directory).schedulePrior ?? .none
    }

    /// The comma-separated break rules of option `name` (`BreakRule.init(parsing:)`): 1 to 20.
    static func rules(_ arguments: ParsedArguments, _ name: String) throws -> [BreakRule] {
        let parts = try arguments.require(name).split(separator: ",", omittingEmptySubsequences: false)
        guard (1...20).contains(parts.count) else { throw UsageError("--\(name): 1 to 20 rules, not \(parts.count)") }
        return try parts.map { part in
            guard let rule = BreakRule(parsing: part) else {
                throw UsageError("--\(name): '\(part.prefix(40))' is not weeks, gap:G (G in 2 ... \(RunnerState.runDayWindow)) "
                                 + "or chain:P:L (P in (0, 0.5], L in 1 ... 365 days)")
            }
            return rule
        }
    }

    /// The comma-separated numbers of option `name`: 1 to 20, each in (0, 10000], or `none`
    /// (nil) when `allowsNone`.
    static func list(_ arguments: ParsedArguments, _ name: String, unit: String, allowsNone: Bool) throws -> [Double?] {
        let parts = try arguments.require(name).split(separator: ",", omittingEmptySubsequences: false)
        guard (1...20).contains(parts.count) else { throw UsageError("--\(name): 1 to 20 values, not \(parts.count)") }
        return try parts.map { part -> Double? in
            if allowsNone, part == "none" { return nil }
            guard let x = Double(part), x.isFinite, x > 0, x <= 10_000 else {
                throw UsageError("--\(name): '\(part.prefix(40))' is not a number of \(unit) in (0, 10000]\(allowsNone ? " or none" : "")")
            }
            return x
        }
    }
}
