import RunusCore
import Features
import Service
import Training

/// `runus eval-streaks`: how well the streak forecast's day chances foretell runners' next days,
/// for several prior weights and recency half-lives (record 0650).
enum EvalStreaksCommand: Command {
    static let name = "eval-streaks"
    static let abstract = "Score the streak forecast on a store's histories for several prior weights."
    static let usage = "--db PATH|URI [--weights W,W,...] [--half-lives H,H,...] [--break-days G,G,...]"
    static let discussion = """
    At every local day with a run (after 28 days of record), the forecast that the runner also
    runs on each of the next 1 ... 6 days (a streak needing that many more days) is checked
    against the days they ran. Prints a Markdown table per prior weight (days of the class's
    share a weekday's share is shrunk by): log loss, Brier score, mean forecast, share that came
    true, for every pair of a prior weight and a half-life (weeks at which a week counts half;
    none: every week the same). The shipped pair is StreakForecast.priorWeight and
    StreakForecast.recencyHalfLifeWeeks.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to read: SQLite file or postgresql:// URI."),
        .value("weights", "W,W,...", default: "4,8,16,32", help: "Prior weights to score, days (each in (0, 10000], at most 20)."),
        .value("half-lives", "H,H,...", default: "none,1,2,3,4,8", help: "Recency half-lives to score, weeks (each in (0, 10000] or none, at most 20)."),
        .value("break-days", "G,G,...", default: breakDefault, help: "Days without a run in a row that the shares leave out as a break, each a whole number in 2 ... 84, or none (the active-week rule)."),
    ])
    static let breakDefault = StreakForecast.breakGapDays.map(String.init) ?? "none"

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let weights = try list(arguments, "weights", unit: "days", allowsNone: false).compactMap { $0 }
        let halfLives = try list(arguments, "half-lives", unit: "weeks", allowsNone: true)
        let store = try StoreOpening.open(try arguments.existingDatabase("db"), for: .offline)
        defer { try? store.close() }
        let breakDays = try days(arguments, "break-days")
        let calibration = try StreakCalibration(store: store, weights: weights, halfLives: halfLives, breakDays: breakDays,
                                                resolver: SystemTimeZones())
        output.out("runners: \(calibration.runners)\n\n" + calibration.table())
        return .success
    }

    /// The comma-separated break lengths of option `name`: 1 to 20, each a whole number of days
    /// in 2 … `RunnerState.runDayWindow`, or `none` (nil).
    static func days(_ arguments: ParsedArguments, _ name: String) throws -> [Int?] {
        let window = RunnerState.runDayWindow
        return try list(arguments, name, unit: "days", allowsNone: true).map { x -> Int? in
            guard let x else { return nil }
            guard x >= 2, x <= Double(window), let n = Int(exactly: x) else {
                throw UsageError("--\(name): \(x) is not a whole number of days in 2 ... \(window)")
            }
            return n
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
