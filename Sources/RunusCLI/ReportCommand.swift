import Foundation
import RunusCore
import ModelStore
import Service
import Features
import Learning
import Reports
import Storage
import Training

/// `runus report`: the offline evaluation report of one model, or of two side by side.
enum ReportCommand: Command {
    static let name = "report"
    static let abstract = "Offline evaluation report of a model (or two, with --vs): HTML, Markdown or JSON."
    static let usage = "--model DIR [--vs DIR] --db PATH|URI [--from DATE --to DATE] [--labels logged|history|both] --out FILE [--format html|md|json]"
    static let discussion = """
    Evaluates on the database's labelled examples (tried missions, features as of the offer):
    those offered between --from and --to (local days, inclusive), by default the last 20% by
    time, the same held-out share as 'runus train'. With --vs, the --model model is the candidate
    and the --vs model the reference: differences are candidate minus reference, with paired
    bootstrap intervals, and a verdict line. The HTML file is self-contained (inline SVG, no
    scripts, no network). Same database, models and seed: same bytes.
    """
    static let parser = ArgumentParser(options: [
        .required("model", "DIR", help: "Model directory (model.json: logistic regression or gradient boosting)."),
        .optional("vs", "DIR", help: "Reference model directory to compare with."),
        .required("db", "PATH|URI", help: "Database with logged mission outcomes: SQLite file or postgresql:// URI."),
        .optional("from", "DATE", help: "First local day of the period, YYYY-MM-DD."),
        .optional("to", "DATE", help: "Last local day of the period, YYYY-MM-DD."),
        .required("out", "FILE", help: "Report file to write."),
        .optional("format", "FORMAT", help: "html, md or json (default: from the file extension, else html)."),
        .value("seed", "S", default: "700", help: "Seed of the bootstrap and the permutations."),
        .value("resamples", "B", default: "1000", help: "Bootstrap resamples of the headline metrics (100-100000)."),
        .value("resample", "UNIT", default: "runner", help: "Bootstrap unit: runner (cluster) or example."),
        .value("labels", "SOURCE", default: "logged", help: "Labels: \(LabelSource.names) (record 0600), as in runus train."),
        .value("people-folds", "K", default: "0", help: "Evaluate on runners held out as people instead: every example, each scored by its model's learner refitted on the other K - 1 folds of runners (2-100; 0 = off; record 0630)."),
    ])

    enum Format: String { case html, md, json }

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let out = try arguments.require("out")
        let format = try self.format(arguments.string("format"), out: out)
        var configuration = ReportConfiguration()
        configuration.seed = UInt64(try arguments.int("seed", in: 0...Int(Int32.max))!)
        configuration.resamples = try arguments.int("resamples", in: 100...100_000)!
        guard let unit = ReportConfiguration.ResampleUnit(rawValue: try arguments.require("resample")) else {
            throw UsageError("--resample: '\(try arguments.require("resample"))' is not runner or example")
        }
        configuration.resampleUnit = unit
        let from = try day(arguments, "from"), to = try day(arguments, "to")
        if (from == nil) != (to == nil) { throw UsageError("--from and --to go together") }
        if let from, let to, to < from { throw UsageError("--to \(to) is before --from \(from)") }

        var models = [try ReportModel.load(directory: try arguments.require("model"))]
        if let vs = arguments.string("vs") { models.append(try ReportModel.load(directory: vs)) }
        if models.count == 2 && models[0].model.name == models[1].model.name {
            models = models.map { $0.renamed("\($0.model.name) \(URL(fileURLWithPath: $0.directory).lastPathComponent)") }
            if models[0].model.name == models[1].model.name { models = [models[0].renamed(models[0].model.name + " (A)"), models[1].renamed(models[1].model.name + " (B)")] }
        }
        BLASThreads.useOne()   // reproducible LR scores (record 0006)
        let dbPath = try arguments.existingDatabase("db")
        let store = try StoreOpening.open(dbPath, for: .offline)
        defer { try? store.close() }
        let folds = try arguments.int("people-folds", in: 0...100)!
        guard folds != 1 else { throw UsageError("--people-folds: 1 is not a cross-validation (0 = off, or 2-100 folds)") }
        if folds >= 2 && from != nil { throw UsageError("--people-folds evaluates every example out of fold; it takes no --from/--to") }
        let labels = try LabelsCommand.labelSource(arguments)
        // By person: every example (the period spans all days), scored out of fold.
        let wide = folds >= 2 ? (CivilDate(daysSinceEpoch: -1_000_000), CivilDate(daysSinceEpoch: 1_000_000)) : nil
        var input = try ReportData.load(store: store, from: wide?.0 ?? from, to: wide?.1 ?? to, labels: labels,
                                        resolver: SystemTimeZones(), models: models.map(\.model))
        var period = input.period
        if folds >= 2 {
            var people = PeopleValidation.Options()
            people.folds = folds
            let all = try TrainingPipeline.examples(store: store, labels: labels, resolver: SystemTimeZones()).examples
            guard all.count == input.examples.count else {
                throw CLIError("--people-folds: \(all.count) examples to cross-validate but \(input.examples.count) in the report")
            }
            var outOfFold: [[Double]] = []
            for m in models {
                let artifact = try ModelFiles.readAny(from: m.directory)
                output.err("validation by person of \(m.model.name): refitting per fold…\n")
                let cv = try PeopleValidation.crossValidate(PeopleValidation.learner(like: artifact, seed: people.seed), examples: all,
                                                            options: people, progress: { output.err("  " + $0) })
                outOfFold.append(cv.perKind)
            }
            input = input.replacingProbabilities { i in outOfFold.map { $0[i] } }
            period = "every example, scored out of fold by leave-runners-out cross-validation over \(folds) folds of runners (each model's learner refitted per fold, per-kind maps chosen on training runners; record 0630)"
        }
        let report = try ReportBuilder.build(
            examples: input.examples, recommended: folds >= 2 ? nil : input.recommended, models: models.map(\.model),
            features: folds >= 2 ? nil : input.features,
            data: .init(examples: input.examples.count, completed: input.examples.filter { $0.label == 1 }.count,
                        runners: Set(input.examples.map(\.runner)).count, firstDay: input.firstDay, lastDay: input.lastDay,
                        period: period, source: StoreOpening.shortName(dbPath, store: store)),
            configuration: configuration)
        let bytes: [UInt8]
        switch format {
        case .html: bytes = Array(ReportHTML.render(report).utf8)
        case .md: bytes = Array(ReportMarkdown.render(report).utf8)
        case .json: bytes = ReportJSON.bytes(report)
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw CLIError("cannot write the report to \(out): \(error.localizedDescription)")
        }
        output.out("wrote \(out) (\(format.rawValue)): \(report.data.examples) examples, \(report.data.runners) runners, "
                   + "\(report.data.firstDay) to \(report.data.lastDay)\n")
        if let verdict = report.verdict { output.out(verdict + "\n") }
        return .success
    }

    static func format(_ text: String?, out: String) throws -> Format {
        if let text {
            guard let f = Format(rawValue: text) else { throw UsageError("--format: '\(text)' is not html, md or json") }
            return f
        }
        if out.hasSuffix(".json") { return .json }
        if out.hasSuffix(".md") { return .md }
        // A name without an extension gets HTML; one with another extension (`x.pdf`, which
        // used to receive HTML without a word) is refused.
        let name = out.split(separator: "/").last.map(String.init) ?? out
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, !["html", "htm"].contains(name[name.index(after: dot)...].lowercased()) {
            throw UsageError("--out \(out): the report is written as .html, .md or .json (PNG: make report-png); pass --format to write another name")
        }
        return .html
    }

    static func day(_ arguments: ParsedArguments, _ name: String) throws -> CivilDate? {
        guard let text = arguments.string(name) else { return nil }
        guard let day = CivilDate(iso: text) else { throw UsageError("--\(name): '\(text)' is not a date YYYY-MM-DD") }
        return day
    }
}

extension ReportModel {
    /// A model directory read for `runus report` through the shared loader (`ModelFiles.load`).
    static func load(directory: String) throws -> ReportModel {
        try ReportModel(artifact: ModelFiles.load(from: directory).artifact, directory: directory,
                        path: directory + "/" + ModelFiles.artifactName)
    }
}
