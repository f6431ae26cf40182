import RunusCore
import Storage
import Learning

/// `runus train`: fits the mission model on a database and writes an artifact directory.
enum TrainCommand: Command {
    static let name = "train"
    static let abstract = "Train the mission model (L2 logistic regression) on a database."
    static let usage = "--db PATH --out DIR [--model lr] [--l2 L] [--train-fraction F] [--seed S]"
    static let discussion = """
    Examples are tried missions (completed or failed) with as-of features from earlier runs.
    The first part of the period trains, the rest tests (time split). Writes DIR/model.json and
    DIR/MODEL_CARD.md; the same database and options give identical files.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH", help: "Database to train on."),
        .required("out", "DIR", help: "Directory to write model.json and MODEL_CARD.md into."),
        .value("model", "KIND", default: "lr", help: "Model kind: lr."),
        .value("l2", "L", default: "1", help: "L2 penalty λ (> 0; scikit-learn C = 1/λ)."),
        .value("train-fraction", "F", default: "0.8", help: "Share of examples, by time, used for training (0.5-0.95)."),
        .value("seed", "S", default: "1", help: "Seed recorded in the artifact."),
        .value("labels", "SOURCE", default: "logged", help: "Labels: \(LabelSource.names) (record 0600)."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let dbPath = try arguments.require("db")
        let out = try arguments.require("out")
        guard try arguments.require("model") == "lr" else {
            throw UsageError("--model: '\(try arguments.require("model"))' is not available yet (known: lr)")
        }
        var options = TrainingPipeline.Options()
        options.l2 = try arguments.double("l2", in: 1e-9...1e9)!
        options.trainFraction = try arguments.double("train-fraction", in: 0.5...0.95)!
        options.seed = try arguments.int("seed", in: 0...Int(Int32.max))!
        BLASThreads.useOne()  // bit-for-bit reproducible fits (record 0006)
        let store = try SQLiteStore(path: dbPath)
        let progress = ImportProgress(label: "history labels", output: output, interactive: ImportProgress.isTerminal(output))
        let (examples, runners, sources) = try TrainingPipeline.examples(store: store, labels: try LabelsCommand.labelSource(arguments),
                                                                         progress: progress)
        output.err("training on \(examples.count) labelled examples from \(runners) runners (BLAS kernel \(BLASThreads.kernel), 1 thread)\n")
        let result = try TrainingPipeline.train(examples: examples, runners: runners, sources: sources, options: options)
        try ModelFiles.write(artifact: result.artifact, card: ModelCard.markdown(result, options: options), to: out)
        let t = result.test
        var line = "wrote \(out)/model.json (\(result.artifact.modelVersion)): test AUC \(rounded(t.auc)), "
            + "log loss \(rounded(t.logLoss)), Brier \(rounded(t.brier)), ECE \(rounded(t.ece)) on \(t.rows) held-out examples"
        if let mae = t.maeTrue { line += ", mean |p - p_true| \(rounded(mae))" }
        output.out(line + "\n")
        return .success
    }

    static func rounded(_ x: Double) -> String { "\((x * 1000).rounded() / 1000)" }
}
