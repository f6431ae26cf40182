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
    static let usage = "list | show NAME | promote NAME | rollback | compare --db PATH|URI [--labels SOURCE] [--people-folds K] MODEL_DIR… [--models DIR]"
    static let discussion = """
    Each model is a directory in the registry (default models/) with model.json and MODEL_CARD.md,
    e.g. written by 'runus train --out models/NAME'. 'promote NAME' checks that the model loads
    with this build's feature schema and records it in models/promotions.json (history kept);
    'rollback' restores the promotion before it ('default' when none is left). 'runus serve'
    without --model serves the promoted model; send {"op":"model.reload"} (or SIGHUP) to a
    running daemon to switch. 'compare' scores the given model directories and two baselines
    (per-kind base rate, Riegel rule) on the database's time-split test slice and prints test
    AUC, log loss and ECE overall and per mission kind (docs/decisions/0613). With --people-folds
    K it also validates each model's learner (lr or gbdt, with the model's l2 and learning rate)
    on runners held out as whole people: leave-runners-out cross-validation over K folds, refitted
    per fold on the other runners with every choice made on them, overall and per kind, before and
    after per-kind calibration (docs/decisions/0630, 0631).
    """
    static let parser = ArgumentParser(options: [
        .value("models", "DIR", default: "models", help: "Model registry directory."),
        .optional("db", "PATH|URI", help: "compare, promote: database (SQLite file or postgresql:// URI) whose examples are split and scored."),
        .flag("force", help: "promote: promote although the candidate scores worse than the served model on the test slice."),
        .value("train-fraction", "F", default: "0.8", help: "compare: share of examples, by time, before the test slice (as in train)."),
        .value("labels", "SOURCE", default: "logged", help: "compare: labels \(LabelSource.names), as given to train (record 0600)."),
        .value("people-folds", "K", default: "0", help: "compare: also leave-runners-out cross-validation over K folds of people (2-100; 0 = off; record 0630)."),
        .value("seed", "S", default: "1", help: "compare --people-folds: seed of the runner hash (as train --seed)."),
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
            if arguments.string("db") != nil {
                try checkNotWorse(rest[0], registry: registry, arguments: arguments, output: output)
            } else {
                output.err("models promote: not compared with the served model (pass --db PATH to see both on the same test slice)\n")
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
            let store = try StoreOpening.open(db, for: .offline)
            defer { try? store.close() }
            output.err("reading labelled examples from \(db)…\n")
            let slice = try testSlice(store, arguments)
            let loadedModels = try rest.map { try ModelFiles.load(from: $0) }
            let models = loadedModels.map { loaded in
                ModelComparison.Candidate(name: "\(loaded.artifact.kindName) \(loaded.artifact.modelVersion)", scorer: loaded.scorer)
            }
            output.out(try ModelComparison(slice, models: models).markdown())
            let folds = try arguments.int("people-folds", in: 0...100)!
            guard folds != 1 else { throw UsageError("--people-folds: 1 is not a cross-validation (0 = off, or 2-100 folds)") }
            if folds >= 2 {
                var people = PeopleValidation.Options()
                people.folds = folds
                people.seed = try arguments.int("seed", in: 0...Int(Int32.max))!
                let examples = slice.split.beforeTest + slice.split.test
                for loaded in loadedModels {
                    let learner = PeopleValidation.learner(like: loaded.artifact, seed: people.seed)
                    output.err("validation by person of \(loaded.artifact.kindName) \(loaded.artifact.modelVersion): refitting per fold…\n")
                    let cv = try PeopleValidation.crossValidate(learner, examples: examples, options: people, progress: { output.err("  " + $0) })
                    output.out("\n## \(loaded.artifact.kindName) (\(learner.name) refitted per fold like \(loaded.artifact.modelVersion))\n\n" + (try cv.markdown()))
                }
            }
        default:
            throw UsageError("models: unknown action '\(action)', expected list, show, promote, rollback or compare")
        }
        return .success
    }

    /// The test slice of `--db` as `train` made it (`--train-fraction`, `--labels`).
    static func testSlice(_ store: any DatabaseStore, _ arguments: ParsedArguments) throws -> ModelComparison.TestSlice {
        BLASThreads.useOne()
        return try ModelComparison.TestSlice(store: store, trainFraction: try arguments.double("train-fraction", in: 0.5...0.95)!,
                                             labels: try LabelsCommand.labelSource(arguments), resolver: SystemTimeZones())
    }

    /// Prints the candidate and the served model on `--db`'s test slice; refuses (unless
    /// `--force`) a candidate whose overall log loss there is higher: the proper scoring rule
    /// the cards lead with (record 0614). `models compare` could show a model worse and
    /// `promote` would serve it without a word.
    static func checkNotWorse(_ name: String, registry: ModelsRegistry, arguments: ParsedArguments, output: OutputSink) throws {
        let db = try arguments.existingDatabase("db")
        let store = try StoreOpening.open(db, for: .offline)
        defer { try? store.close() }
        output.err("reading labelled examples from \(db)…\n")
        let slice = try testSlice(store, arguments)
        let served = try registry.servedName()
        let candidate = try ModelFiles.load(from: registry.root + "/" + name)
        let current = try ModelFiles.load(from: try registry.servedDirectory())
        let names = (candidate: "candidate \(name) (\(candidate.artifact.modelVersion))", served: "served \(served) (\(current.artifact.modelVersion))")
        let comparison = try ModelComparison(slice, models: [
            ModelComparison.Candidate(name: names.candidate, scorer: candidate.scorer),
            ModelComparison.Candidate(name: names.served, scorer: current.scorer),
        ])
        output.out(comparison.markdown())
        let overall = comparison.rows.filter { $0.scope == "all" }
        guard let a = overall.first(where: { $0.name == names.candidate }), let b = overall.first(where: { $0.name == names.served }) else { return }
        if a.logLoss > b.logLoss, !arguments.flag("force") {
            throw CLIError("models promote: \(name) scores worse than the served \(served) on the test slice of \(db) "
                           + "(log loss \(TrainingPipeline.rounded(a.logLoss, 4)) against \(TrainingPipeline.rounded(b.logLoss, 4))); "
                           + "pass --force to promote it anyway")
        }
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
