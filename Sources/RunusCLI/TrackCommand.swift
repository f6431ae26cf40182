import Foundation
import RunusCore
import Datasets
import Tracking
import TrackFormats

/// `runus track FILE|DIR…`: reads track files in any supported format and prints one record per
/// activity with our metrics (Tracking's RunMetrics) next to the device's own totals: a table for
/// people, or with `--json` one object per line with stable snake_case keys (docs/track-json.md).
/// With more than one file a progress bar goes to stderr (`--quiet` turns it off).
enum TrackCommand: Command {
    static let name = "track"
    static let abstract = "Read GPX/TCX/FIT/GeoJSON/CSV track files (gzip too) and print each activity's run record."
    static let usage = "[--json] [--weight KG] [--quiet] FILE|DIR..."
    static let parser = ArgumentParser(options: [
        .flag("json", help: "One JSON object per activity and line (snake_case keys, docs/track-json.md)."),
        .optional("weight", "KG", help: "Body mass in kg for calories."),
        .flag("quiet", help: "No progress bar on stderr."),
    ], positionals: ["FILE"], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        guard !arguments.positional.isEmpty else { throw UsageError("\(name) needs at least one FILE or DIR") }
        let weight = try arguments.double("weight", in: 1...500)
        let json = arguments.flag("json")
        let paths = arguments.positional.flatMap(TrackFiles.expand)
        // Redrawn in place on a terminal, a line per tenth in a log (no carriage returns).
        let progress = paths.count > 1 && !arguments.flag("quiet")
            ? ProgressOutput(label: "files", output: output, interactive: ProgressOutput.isTerminal(output)) : nil
        var failed = false
        if !json { output.out(TrackTable.header) }
        for (n, path) in paths.enumerated() {
            do {
                let (format, activities) = try TrackFiles.load(path)
                for (k, a) in activities.enumerated() {
                    let m = a.runMetrics(weightKg: weight)
                    let parts = m.mergedActivityParts
                    if json {
                        output.out(JSONWriter.string(TrackRecord.json(path: path, index: k, format: format, activity: a, metrics: m, parts: parts)) + "\n")
                    } else {
                        output.out(TrackTable.row(path: path, index: k, format: format, activity: a, metrics: m, parts: parts))
                    }
                }
            } catch {
                output.err((progress == nil ? "" : "\n") + "runus \(name): \(error)\n")
                failed = true
            }
            progress?.update(done: n + 1, total: paths.count)
        }
        progress?.finish()
        return failed ? .failure : .success
    }

    static func fmt(_ v: Double, _ decimals: Int) -> String { FixedDecimals.text(v, decimals) }
}


/// `runus metrics`: the name `runus track` had before 0.2, kept so scripts keep working.
enum MetricsAliasCommand: Command {
    static let name = "metrics"
    static let abstract = "Same as 'track' (its former name)."
    static let usage = TrackCommand.usage
    static let parser = TrackCommand.parser
    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        try TrackCommand.run(arguments, output: output)
    }
}
