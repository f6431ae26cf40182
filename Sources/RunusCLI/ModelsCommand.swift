import Foundation
import RunusCore
import ModelStore
import Service
import Storage
import Learning
import Training

/// `runus models list|show|promote|rollback|compare`: the model registry (`ModelsRegistry`) and
/// the comparison table of models and baselines on one time split.
enum ModelsCommand: Command {
    static let name = "models"
    static let abstract = "List, show, promote, roll back and compare trained models in the registry (models/)."
    static let usage = "list | show NAME | promote NAME | rollback | compare --db PATH [--labels SOURCE] MODEL_DIR… [--models DIR]"
    static let discussion = """
    Each model is a directory in the registry (default models/) with model.json and MODEL_CARD.md,
    e.g. written by 'runus train --out models/NAME'. 'promote NAME' checks that the model loads
    with this build's feature schema and records it in models/promotions.json (history kept);
    'rollback' restores the promotion before it ('default' when none is left). 'runus serve'
    without --model serves the promoted model; send {"op":"model.reload"} (or SIGHUP) to a
    running daemon to switch. 'compare' scores the given model directories and two baselines
    (per-kind base rate, Riegel rule) on the database's time-split test slice and prints test
    AUC, log loss and ECE overall and per mission kind (docs/decisions/0613).
    """
    static let parser = ArgumentParser(options: [
        .value("models", "DIR", default: "models", help: "Model registry directory."),
        .optional("db", "PATH", help: "compare: database whose examples are split and scored."),
        .value("train-fraction", "F", default: "0.8", help: "compare: share of examples, by time, before the test slice (as in train)."),
        .value("labels", "SOURCE", default: "logged", help: "compare: labels \(LabelSource.names), as given to train (record 0600)."),
    ], positionals: ["ACTION", "ARGS..."], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        guard let action = arguments.positional.first else { throw UsageError("models: an action is needed: list, show, promote, rollback or compare") }
        let rest = Array(arguments.positional.dropFirst())
        let registry = ModelsRegistry(root: try arguments.require("models"))
        switch action {
        case "list":
            output.out(try list(registry))
        case "show":
            guard rest.count == 1 else { throw UsageError("models show: one model name expected, got \(rest.count)") }
            output.out(try show(registry, rest[0]))
        case "promote":
            guard rest.count == 1 else { throw UsageError("models promote: one model name expected, got \(rest.count)") }
            guard ModelsRegistry.isModelName(rest[0]) else {
                throw UsageError("models promote: '\(rest[0])' is not a model name (a directory in \(registry.root))")
            }
            let loaded = try registry.promote(rest[0], at: SystemClock().now())
            output.out("promoted \(rest[0]) (\(loaded.artifact.modelVersion)); a running daemon switches on model.reload or SIGHUP\n")
        case "rollback":
            guard rest.isEmpty else { throw UsageError("models rollback: takes no argument") }
            let (from, to) = try registry.rollback(at: SystemClock().now())
            output.out("rolled back \(from); serving \(to) after model.reload or SIGHUP\n")
        case "compare":
            guard arguments.string("db") != nil else { throw UsageError("models compare: --db PATH is required") }
            let db = try arguments.existingDatabase("db")
            guard !rest.isEmpty else { throw UsageError("models compare: at least one MODEL_DIR expected") }
            let trainFraction = try arguments.double("train-fraction", in: 0.5...0.95)!
            BLASThreads.useOne()
            let store = try SQLiteStore(path: db)
            output.err("reading labelled examples from \(db)…\n")
            let slice = try ModelComparison.TestSlice(store: store, trainFraction: trainFraction,
                                                      labels: try LabelsCommand.labelSource(arguments), resolver: SystemTimeZones())
            let models = try rest.map { directory in
                let loaded = try ModelFiles.load(from: directory)
                return ModelComparison.Candidate(name: "\(loaded.artifact.kindName) \(loaded.artifact.modelVersion)", scorer: loaded.scorer)
            }
            output.out(try ModelComparison(slice, models: models).markdown())
        default:
            throw UsageError("models: unknown action '\(action)', expected list, show, promote, rollback or compare")
        }
        return .success
    }

    static func list(_ registry: ModelsRegistry) throws -> String {
        let served = try registry.servedName()
        var out = "| | name | kind | version | calibration | test AUC | test ECE |\n|---|---|---|---|---|---|---|\n"
        for e in try registry.entries() {
            let mark = e.name == served ? "*" : ""
            guard let a = e.artifact else {
                out += "| \(mark) | \(e.name) | unreadable | \(e.problem ?? "") | | | |\n"
                continue
            }
            let auc = a.metrics["test_auc"].map { TrainingPipeline.rounded($0) } ?? ""
            let ece = a.metrics["test_ece"].map { TrainingPipeline.rounded($0) } ?? ""
            out += "| \(mark) | \(e.name) | \(a.kindName) | \(a.modelVersion) | \(a.calibrationMethod) | \(auc) | \(ece) |\n"
        }
        return out + "\n* served: \(served)\n"
    }

    static func show(_ registry: ModelsRegistry, _ name: String) throws -> String {
        let directory = registry.root + "/" + name
        let artifact = try ModelFiles.readAny(from: directory)
        var out = JSONWriter.string(artifact.info.removingKey("features")) + "\n\n"
        if let card = FileManager.default.contents(atPath: directory + "/" + ModelFiles.cardName) {
            out += String(decoding: card, as: UTF8.self)
        }
        return out
    }
}

extension JSONValue {
    fileprivate func removingKey(_ key: String) -> JSONValue {
        guard var members = objectValue else { return self }
        members[key] = nil
        return .object(members)
    }
}
