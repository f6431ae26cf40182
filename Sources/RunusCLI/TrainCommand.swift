import Foundation
import RunusCore
import ModelStore
import Service
import Storage
import Learning
import Training
import Features

/// `runus train`: fits the mission model on a database and writes an artifact directory.
enum TrainCommand: Command {
    static let name = "train"
    static let abstract = "Train the mission model (logistic regression or gradient-boosted trees) on a database."
    static let usage = "--db PATH|URI --out DIR [--model lr|gbdt] [--l2 L] [--offset-penalty auto|F] [--train-fraction F] [--validation-fraction V] [--calibration M] [--init lr|none] [--refit yes|no] [--labels logged|history|both] [--seed S] [--people-folds K [--people-inner-folds J] [--kind-calibration yes|no]] [--schedule-prior auto|none] [--card-note FILE]"
    static let discussion = """
    Examples are tried missions (completed or failed) with as-of features from earlier runs,
    split by time (docs/decisions/0610): the last part of the period is the test slice; before
    it, gbdt keeps a validation slice for tuning, early stopping and calibration. lr (the default,
    what models/default is) trains on everything before the test slice. A per-runner leakage
    check refuses a split where a test example predates that runner's training rows. Writes
    DIR/model.json and DIR/MODEL_CARD.md; the same database and options give identical files.
    --people-folds K adds validation on runners held out as whole people (docs/decisions/0630):
    leave-runners-out cross-validation over K folds, every choice made on each fold's training
    runners, shown in the card next to the time split; --kind-calibration yes then stores
    per-kind maps fitted on the runners' out-of-fold scores (docs/decisions/0631).
    --schedule-prior auto (the default) learns what the streak and weekly-volume forecasts
    shrink a runner's weekday shares toward: the store's pooled shares of usual and other
    weekdays, counting for a weight of days chosen by leave-runners-out cross-validation of the
    streak forecast's log loss (docs/decisions/0668); none keeps each runner's own record only.
    --card-note FILE ends the card with a "Why this model" section holding the file's text
    (UTF-8 Markdown, at most 16 KiB): `make model` says there why LR is the shipped default.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to train on: SQLite file or postgresql:// URI."),
        .required("out", "DIR", help: "Directory to write model.json and MODEL_CARD.md into."),
        .value("model", "KIND", default: "lr", help: "Model kind: lr (logistic regression) or gbdt (gradient-boosted trees)."),
        .value("l2", "L", default: "1", help: "lr, and gbdt's initial model: L2 penalty λ (> 0; scikit-learn C = 1/λ)."),
        .value("offset-penalty", "auto|F", default: "auto", help: "lr: factor on λ for schema v15's per-kind terms (>= 1), or auto: chosen from 1, 10, 100, 1000, 10000 on training runners held out as people (record 0666)."),
        .value("train-fraction", "F", default: "0.8", help: "Share of examples, by time, before the test slice (0.5-0.95)."),
        .value("validation-fraction", "V", default: "0.15", help: "gbdt: share of all examples, the latest before the test slice, for validation (0.05-0.4)."),
        .value("calibration", "M", default: "auto", help: "gbdt: auto, platt, isotonic or none (fitted on the validation slice)."),
        .value("init", "MODEL", default: "lr", help: "gbdt: boost from an L2 logistic regression (penalty --l2) fitted on the training slice (lr), or from the average label (none); record 0617."),
        .value("refit", "yes|no", default: "yes", help: "gbdt: after choosing on validation, refit the LR and that many trees on training + validation (record 0617)."),
        .value("seed", "S", default: "1", help: "Seed recorded in the artifact (gbdt: also the binning sample's)."),
        .value("num-leaves", "LIST", default: "7,15,31", help: "gbdt: comma-separated num_leaves values tried (2-1024; record 0612)."),
        .value("min-data-in-leaf", "LIST", default: "20,100", help: "gbdt: comma-separated min_data_in_leaf values tried (>= 1)."),
        .value("learning-rate", "R", default: "0.05", help: "gbdt: shrinkage per tree (0.001-1)."),
        .value("labels", "SOURCE", default: "logged", help: "Labels: \(LabelSource.names) (record 0600)."),
        .value("people-folds", "K", default: "0", help: "Also validate on runners held out as people: K folds (2-100) of leave-runners-out cross-validation; 0 = off (record 0630)."),
        .value("people-inner-folds", "J", default: "3", help: "With --people-folds: folds of each fold's training runners whose out-of-fold scores fit the per-kind maps (2-20); 0 = the validation runners' scores (record 0631)."),
        .value("kind-calibration", "yes|no", default: "no", help: "With --people-folds: store per-kind calibration maps fitted on out-of-fold scores (record 0631)."),
        .value("schedule-prior", "auto|none", default: "auto", help: "Learn the streak and weekly-volume forecasts' prior from the store's runners, its weight chosen by leave-runners-out cross-validation (auto), or store none (record 0668)."),
        .optional("card-note", "FILE", help: "Markdown file (UTF-8, at most 16 KiB) whose text ends the model card under \"Why this model\"."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let dbPath = try arguments.existingDatabase("db")
        let out = try arguments.require("out")
        let kind = try arguments.require("model")
        guard kind == "lr" || kind == "gbdt" else {
            throw UsageError("--model: '\(kind)' is not a model kind (known: lr, gbdt)")
        }
        let trainFraction = try arguments.double("train-fraction", in: 0.5...0.95)!
        let seed = try arguments.int("seed", in: 0...Int(Int32.max))!
        let peopleOptions = try Self.peopleOptions(arguments, seed: seed)
        let note = try cardNote(arguments)
        let learnPrior = try arguments.require("schedule-prior")
        guard learnPrior == "auto" || learnPrior == "none" else {
            throw UsageError("--schedule-prior: '\(learnPrior)' is not auto or none")
        }
        BLASThreads.useOne()  // bit-for-bit reproducible fits (record 0006)
        let store = try StoreOpening.open(dbPath, for: .offline)
        defer { try? store.close() }
        output.err("reading labelled examples from \(dbPath)…\n")
        let progress = ProgressOutput(label: "history labels", output: output, interactive: ProgressOutput.isTerminal(output))
        let labels = try LabelsCommand.labelSource(arguments)
        let data = try TrainingPipeline.examples(store: store, labels: labels, resolver: SystemTimeZones(), progress: progress)
        // Imported histories have runs but no logged outcomes: say where the labels are.
        if labels == .logged, data.examples.count < TrainingSplit.minimumExamples, case let runs = try store.runCount(), runs > 0 {
            throw CLIError("\(dbPath): only \(data.examples.count) logged outcomes (tried missions) for \(runs) runs; "
                           + "an imported history has none: train on labels from the runs themselves with --labels history")
        }
        output.err("training on \(data.examples.count) labelled examples from \(data.runners) runners (\(kind); BLAS kernel \(BLASThreads.kernel), 1 thread)\n")
        if kind == "gbdt" {
            var options = TrainingPipeline.BoostingOptions()
            options.trainFraction = trainFraction
            options.validationFraction = try arguments.double("validation-fraction", in: 0.05...0.4)!
            guard options.validationFraction < trainFraction - 0.1 else {
                throw UsageError("--validation-fraction: \(options.validationFraction) leaves too little to train on before --train-fraction \(trainFraction)")
            }
            options.calibration = try choice(arguments, "calibration", TrainingPipeline.CalibrationChoice.self)
            options.seed = seed
            options.gridLeaves = try intList(arguments, "num-leaves", 2...1024)
            options.gridMinData = try intList(arguments, "min-data-in-leaf", 1...1_000_000)
            options.learningRate = try arguments.double("learning-rate", in: 0.001...1)!
            options.initModel = try choice(arguments, "init", TrainingPipeline.InitialScore.self)
            options.l2 = try arguments.double("l2", in: 1e-9...1e9)!
            let refit = try arguments.require("refit")
            guard refit == "yes" || refit == "no" else { throw UsageError("--refit: '\(refit)' is not yes or no") }
            options.refit = refit == "yes"
            let result = try TrainingPipeline.trainBoosting(examples: data.examples, runners: data.runners, sources: data.sources,
                                                            options: options, progress: { output.err($0) })
            let people = try byPeople(.gbdt(options), data.examples, people: peopleOptions, output: output)
            var artifact = result.artifact.with(calibration: result.artifact.calibration, metrics: people?.metrics ?? [:])
            if let kind = people?.kindCalibration { artifact = try artifact.with(kindCalibration: kind) }
            let prior = try schedulePrior(learnPrior == "auto", store: store, seed: seed, output: output)
            artifact = artifact.with(schedulePrior: prior?.prior, metrics: prior?.metrics ?? [:])
            try ModelFiles.write(bytes: artifact.encode(), card: ModelCard.markdown(result, options: options) + (prior?.markdown() ?? "")
                                 + (people?.card ?? "") + note, to: out)
            output.err("leakage check passed: no test example predates its runner's training rows (\(result.split.runnersInTrainAndTest) runners on both sides)\n")
            output.out(summary(out, result.artifact.modelVersion, result.test, calibration: result.artifact.calibration?.method ?? "none"))
            return .success
        }
        var options = TrainingPipeline.Options()
        options.l2 = try arguments.double("l2", in: 1e-9...1e9)!
        if try arguments.require("offset-penalty") != "auto" {
            options.offsetPenalty = try arguments.double("offset-penalty", in: 1...1e9)
        }
        options.trainFraction = trainFraction
        options.seed = seed
        let result = try TrainingPipeline.train(examples: data.examples, runners: data.runners, sources: data.sources, options: options)
        var artifact = result.artifact
        let people = try byPeople(.lr(options), data.examples, people: peopleOptions, output: output)
        if let people { artifact = try artifact.with(kindCalibration: people.kindCalibration, metrics: people.metrics) }
        let prior = try schedulePrior(learnPrior == "auto", store: store, seed: seed, output: output)
        artifact = try artifact.with(schedulePrior: prior?.prior, metrics: prior?.metrics ?? [:])
        try ModelFiles.write(artifact: artifact, card: ModelCard.markdown(result, options: options) + (prior?.markdown() ?? "")
                             + (people?.card ?? "") + note, to: out)
        output.err("leakage check passed: no test example predates its runner's training rows (\(result.split.runnersInTrainAndTest) runners on both sides)\n")
        output.out(summary(out, result.artifact.modelVersion, result.test, calibration: nil))
        return .success
    }

    /// The card section of `--card-note FILE` (`ModelCard.noteSection`), "" without the option.
    /// Read before any training, so that a bad note fails in a second, not after the fit.
    static func cardNote(_ arguments: ParsedArguments) throws -> String {
        guard let path = arguments.string("card-note") else { return "" }
        guard let file = FileHandle(forReadingAtPath: path) else { throw CLIError("--card-note: cannot open '\(path)'") }
        defer { try? file.close() }
        guard let data = try? file.read(upToCount: ModelCard.noteMaximumBytes + 1) ?? Data() else {
            throw CLIError("--card-note: cannot read '\(path)' (a directory?)")
        }
        do {
            return try ModelCard.noteSection([UInt8](data), source: path)
        } catch let error as ModelCard.NoteError {
            throw CLIError("--card-note: \(error.description)")
        }
    }

    /// With `learn`, the store's schedule prior (record 0668), over `SchedulePriorFit.defaultFolds`
    /// folds of people whatever --people-folds says (the card's time-split part and the prior do
    /// not depend on the by-person validation); nil without.
    static func schedulePrior(_ learn: Bool, store: any EngineStore, seed: Int, output: OutputSink) throws -> SchedulePriorFit? {
        guard learn else { return nil }
        output.err("schedule prior: streak forecasts of runners held out as people…\n")
        let fit = try SchedulePriorFit(store: store, resolver: SystemTimeZones(), folds: SchedulePriorFit.defaultFolds, seed: seed)
        output.err("schedule prior: \(fit.prior) (\(fit.anchors) anchor days of \(fit.runners) runners)\n")
        return fit
    }

    /// `--people-folds` and `--kind-calibration`; nil when off.
    static func peopleOptions(_ arguments: ParsedArguments, seed: Int) throws -> PeopleValidation.Options? {
        let folds = try arguments.int("people-folds", in: 0...100)!
        let kind = try arguments.require("kind-calibration")
        guard kind == "yes" || kind == "no" else { throw UsageError("--kind-calibration: '\(kind)' is not yes or no") }
        guard folds != 1 else { throw UsageError("--people-folds: 1 is not a cross-validation (0 = off, or 2-100 folds)") }
        guard folds >= 2 else {
            if kind == "yes" { throw UsageError("--kind-calibration yes needs --people-folds K (per-kind maps are fitted on runners held out)") }
            return nil
        }
        var options = PeopleValidation.Options()
        options.folds = folds
        options.seed = seed
        options.kindCalibration = kind == "yes"
        let inner = try arguments.int("people-inner-folds", in: 0...20)!
        guard inner != 1 else { throw UsageError("--people-inner-folds: 1 is not a cross-fit (0 = the validation runners, or 2-20 folds)") }
        options.innerFolds = inner
        return options
    }

    /// What the validation by person adds to a trained model: its card section, its metrics
    /// and (with --kind-calibration yes) the per-kind maps.
    struct PeopleAddition {
        let card: String
        let metrics: [String: Double]
        let kindCalibration: KindCalibration?
    }

    /// Runs the leave-runners-out cross-validation of `learner` (nil when `people` is nil). The
    /// served maps are fitted on every runner's out-of-fold shared probability, the shrinkage
    /// chosen by cross-fitting over the same folds of people (record 0631).
    static func byPeople(_ learner: PeopleValidation.Learner, _ examples: [LabelledExample], people: PeopleValidation.Options?,
                         output: OutputSink) throws -> PeopleAddition? {
        guard let people else { return nil }
        output.err("validation by person: \(people.folds) folds of runners (\(learner.name))\n")
        let cv = try PeopleValidation.crossValidate(learner, examples: examples, options: people, progress: { output.err("  " + $0) })
        var card = "\n## Held out as people (docs/decisions/0630)\n\n" + (try cv.markdown())
        var kind: KindCalibration? = nil
        if people.kindCalibration {
            let choice = try KindCalibration.choose(shared: cv.shared, labels: examples.map(\.label), kinds: examples.map(\.kind.rawValue),
                                                    groups: examples.map { cv.foldOf[$0.userID] ?? 0 }, grid: people.shrinkageGrid)
            kind = choice.calibration
            let losses = choice.losses.map { "\($0.shrinkage.isFinite ? TrainingPipeline.rounded($0.shrinkage) : "∞") \(TrainingPipeline.rounded($0.logLoss, 4))" }
            card += "\nServed per-kind calibration (docs/decisions/0631): fitted on all \(cv.runners) runners' out-of-fold scores; "
                + "shrinkage λ chosen by cross-fitting over the \(cv.folds) folds of people (mean log loss by λ: \(losses.joined(separator: ", "))): "
                + (kind.map { "λ = \(TrainingPipeline.rounded($0.shrinkage)), maps for \($0.maps.count) kinds. The time-split figures above are the model's without them." }
                   ?? "the shared map won; no per-kind maps stored.") + "\n"
        }
        output.err("by person: " + (try cv.figures(kindCalibrated: false).first.map { "AUC \($0.auc.map { TrainingPipeline.rounded($0) } ?? "–"), ECE \(TrainingPipeline.rounded($0.ece))" } ?? "") + "\n")
        return PeopleAddition(card: card, metrics: try cv.metrics(), kindCalibration: kind)
    }

    static func summary(_ out: String, _ version: String, _ t: TrainingPipeline.Evaluation, calibration: String?) -> String {
        let f = { (x: Double) in TrainingPipeline.rounded(x) }
        var line = "wrote \(out)/model.json (\(version)): test AUC \(f(t.auc)), "
            + "log loss \(f(t.logLoss)), Brier \(f(t.brier)), ECE \(f(t.ece)) on \(t.rows) held-out examples"
        if let mae = t.maeTrue { line += ", mean |p - p_true| \(f(mae))" }
        if let calibration { line += "; calibration \(calibration)" }
        return line + "\n"
    }

    static func intList(_ arguments: ParsedArguments, _ name: String, _ range: ClosedRange<Int>) throws -> [Int] {
        let text = try arguments.require(name)
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0.map(range.contains) == true }) else {
            throw UsageError("--\(name): '\(text.prefix(40))' is not a comma-separated list of whole numbers in \(range.lowerBound)...\(range.upperBound)")
        }
        return values.map { $0! }
    }

    /// `--name`, one of `T`'s raw values.
    static func choice<T: RawRepresentable & CaseIterable>(_ arguments: ParsedArguments, _ name: String, _: T.Type) throws -> T
        where T.RawValue == String {
        let text = try arguments.require(name)
        guard let value = T(rawValue: text) else {
            throw UsageError("--\(name): '\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
