import RunusCore
import Missions
import Storage

/// `runus labels`: how many labelled examples each mission kind gets, and how often they were
/// completed (the per-kind base rate), from logged outcomes, history or both (record 0600).
enum LabelsCommand: Command {
    static let name = "labels"
    static let abstract = "Count labelled examples and base rates per mission kind (logged outcomes, history labels)."
    static let usage = "--db PATH [--labels logged|history|both]"
    static let discussion = """
    History labels: before each run with at least one earlier run, every candidate mission the
    runner could have been given from the past alone, checked against that run (completed 1,
    failed 0, not applicable dropped). Runs without a track label only the kinds a summary
    decides (distance, duration). Prints a tab-separated table: kind, examples, completed,
    base rate, examples from summary-only runs, runs and runners with a label.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH", help: "Database to read."),
        .value("labels", "SOURCE", default: "history", help: "Which labels: \(LabelSource.names)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let store = try SQLiteStore(path: try arguments.require("db"))
        let source = try labelSource(arguments)
        let progress = ImportProgress(label: "labels", output: output, interactive: ImportProgress.isTerminal(output))
        var rows: [Row] = []
        switch source {
        case .logged:
            rows = try TrainingPipeline.examples(store: store).examples.map { Row(kind: $0.kind, label: $0.label, runID: nil,
                                                                                   user: $0.userID, summary: false) }
        case .history, .both:
            let history = try HistoryLabelling.labels(store: store, progress: progress)
            rows = history.labels.map { Row(kind: $0.example.kind, label: $0.example.label, runID: $0.runID,
                                            user: $0.example.userID, summary: history.summaryRuns.contains($0.runID)) }
            if source == .both {
                rows += try TrainingPipeline.examples(store: store).examples.map {
                    Row(kind: $0.kind, label: $0.label, runID: nil, user: $0.userID, summary: false)
                }
            }
        }
        output.out(table(rows, source: source))
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

    struct Row {
        let kind: MissionKind
        let label: Double
        /// The run a history label was checked against; nil for logged outcomes.
        let runID: String?
        let user: UserID
        let summary: Bool
    }

    static func table(_ rows: [Row], source: LabelSource) -> String {
        var text = "labels: \(source.rawValue)\nkind\texamples\tcompleted\tbase_rate\tfrom_summary\truns\trunners\n"
        func line(_ name: String, _ group: [Row]) -> String {
            let completed = group.reduce(0) { $0 + ($1.label == 1 ? 1 : 0) }
            let rate = group.isEmpty ? "-" : "\((Double(completed) / Double(group.count) * 1000).rounded() / 1000)"
            let runs = Set(group.compactMap(\.runID)).count
            return "\(name)\t\(group.count)\t\(completed)\t\(rate)\t\(group.filter(\.summary).count)\t\(runs)\t\(Set(group.map(\.user)).count)\n"
        }
        let byKind = Dictionary(grouping: rows, by: \.kind)
        for kind in MissionKind.allCases where byKind[kind] != nil { text += line(kind.rawValue, byKind[kind]!) }
        text += line("all", rows)
        return text
    }
}
