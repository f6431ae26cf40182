import RunusCore
import Service
import Storage
import Training

/// `runus labels`: how many labelled examples each mission kind gets, and how often they were
/// completed (the per-kind base rate), from logged outcomes, history or both (record 0600;
/// counted by `LabelCounts`).
enum LabelsCommand: Command {
    static let name = "labels"
    static let abstract = "Count labelled examples and base rates per mission kind (logged outcomes, history labels)."
    static let usage = "--db PATH|URI [--labels logged|history|both]"
    static let discussion = """
    History labels: before each run with at least one earlier run, every candidate mission the
    runner could have been given from the past alone, checked against that run (completed 1,
    failed 0, not applicable dropped). Runs without a track label only the kinds a summary
    decides (distance, duration). Prints a tab-separated table: kind, examples, completed,
    base rate, examples from summary-only runs, runs and runners with a label.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to read: SQLite file or postgresql:// URI."),
        .value("labels", "SOURCE", default: "history", help: "Which labels: \(LabelSource.names)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let store = try StoreOpening.open(try arguments.existingDatabase("db"), for: .offline)
        defer { try? store.close() }
        let source = try labelSource(arguments)
        let progress = ProgressOutput(label: "labels", output: output, interactive: ProgressOutput.isTerminal(output))
        let counts = try LabelCounts(store: store, source: source, resolver: SystemTimeZones(), progress: progress)
        output.out(counts.table())
        return .success
    }

    /// `--labels`, checked.
    static func labelSource(_ arguments: ParsedArguments) throws -> LabelSource {
        let text = try arguments.require("labels")
        guard let source = LabelSource(rawValue: text) else {
            throw UsageError("--labels: '\(text.prefix(40))' is not one of \(LabelSource.names)")
        }
        return source
    }
}
