import RunusCore
import Datasets
import Service
import Storage

/// `runus import`: real run histories into a database, from track files of one runner or from a
/// runners dataset folder (records 0601-0603).
enum ImportCommand: Command {
    static let name = "import"
    static let abstract = "Import run histories: track files of one runner, or a runners dataset folder."
    static let usage = "--db PATH|URI [--runner ID] [--time-zone TZ] FILE|DIR... | --db PATH|URI --dataset DIR"
    static let discussion = """
    Files (GPX, TCX, FIT, GeoJSON, CSV; gzip too) hold one runner's activities: runs are stored
    with the metrics runs.ingest computes (vehicle parts removed), other sports are skipped. An
    activity without a sport is a run when the activity classifier says most of it was running.
    A dataset folder (runners.csv, activities.csv, tracks/<runner>/<id>.csv.gz) gives every
    runner's runs; a run without a track is stored from its summary (distance, moving and
    elapsed time). Runs starting before 2001 (reset device clocks) are skipped.
    Importing the same files again changes nothing: run ids come from the file's content
    (files) or from runner and activity id (dataset), and stored runs are not read again.
    Runners that do not exist yet are created (dataset: time zone from their usual UTC offset);
    existing profiles are left as they are. A file that cannot be read fails alone; the
    summary lists it, and the exit code is 1 when any item failed.
    """
    static let parser = ArgumentParser(options: [
        .required("db", "PATH|URI", help: "Database to import into: SQLite file (created when absent) or postgresql:// URI."),
        .value("runner", "ID", default: "imported", help: "Runner the files belong to (files only)."),
        .value("time-zone", "TZ", default: "UTC", help: "IANA time zone of a runner created by a file import."),
        .optional("dataset", "DIR", help: "Import a runners dataset folder instead of files."),
        .optional("batch", "N", help: "Items parsed in parallel per write transaction (default 64)."),
    ], positionals: ["FILE"], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let dbPath = try arguments.require("db")
        let items: [ImportItem]
        let profiles: [UserProfile]
        var preSkipped: [String: Int] = [:]
        var preFailed: [(name: String, message: String)] = []
        if let folder = arguments.string("dataset") {
            guard arguments.positional.isEmpty else { throw UsageError("--dataset takes no FILE arguments") }
            let plan = try RunnersDataset.importPlan(folder: folder)
            (items, profiles, preSkipped, preFailed) = (plan.items, plan.profiles, plan.skipped, plan.failed)
        } else {
            guard !arguments.positional.isEmpty else { throw UsageError("import needs FILE or DIR arguments, or --dataset DIR") }
            let runner = try arguments.require("runner")
            guard !runner.isEmpty, runner.utf8.count <= 128 else {
                throw UsageError("--runner: '\(runner.prefix(40))' must be 1 to 128 bytes")
            }
            let zone = try arguments.require("time-zone")
            guard let offset = SystemTimeZones().offset(timeZone: zone, at: 0) else {
                throw UsageError("--time-zone: '\(zone.prefix(60))' is not an IANA time zone (e.g. \"Europe/Paris\")")
            }
            items = arguments.positional.flatMap(TrackFiles.expand).map { path in
                ImportItem(runner: runner, source: .file(path: path), runID: nil, name: path)
            }
            profiles = [UserProfile(id: runner, timeZone: zone, utcOffsetSeconds: offset)]
        }
        var importer = RunImporter(store: try StoreOpening.open(dbPath, for: .offline))
        if let batch = try arguments.int("batch", in: 1...100_000) { importer.batchSize = batch }
        let progress = ProgressOutput(label: "import", output: output, interactive: ProgressOutput.isTerminal(output))
        var report = try importer.run(items: items, profiles: profiles, progress: progress)
        for (reason, n) in preSkipped { report.skipped[reason, default: 0] += n }
        report.failed = preFailed + report.failed
        try importer.store.close()
        output.out(summary(report))
        return report.failed.isEmpty ? .success : .failure
    }

    /// The summary lines: imported, already present, skipped by reason, failed by item.
    static func summary(_ r: ImportReport) -> String {
        var text = "imported \(r.imported) runs (\(r.importedTracks) with a track, \(r.importedSummaries) summary-only; "
            + "\(r.points) fixes), \(r.usersCreated) new runner\(r.usersCreated == 1 ? "" : "s")\n"
        text += "already imported: \(r.alreadyPresent)\n"
        let skipped = r.skipped.values.reduce(0, +)
        text += "skipped: \(skipped)\n"
        for (reason, n) in r.skipped.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            text += "  \(n)\t\(reason)\n"
        }
        text += "failed: \(r.failed.count)\n"
        for f in r.failed { text += "  " + (f.message.hasPrefix(f.name) ? f.message : "\(f.name): \(f.message)") + "\n" }
        return text
    }
}
