import Foundation
import RunusCore
import Tracking
import TrackFormats

/// Reads track files from disk for the commands (the pure readers take bytes).
enum TrackFiles {
    static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot be read (missing or not a file)")
        }
        return [UInt8](data)
    }

    static func load(_ path: String) throws -> (format: TrackFileFormat, activities: [Activity]) {
        try TrackFileReader.read(try bytes(path), name: path)
    }

    /// Track files below `path` (or `path` itself), sorted.
    static func expand(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        let extensions = [".gpx", ".tcx", ".fit", ".geojson", ".json", ".csv"]
        return names.filter { n in
            let l = n.lowercased()
            return extensions.contains { l.hasSuffix($0) || l.hasSuffix($0 + ".gz") }
        }.sorted().map { (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/" + $0 }
    }
}

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
        .optional("bench-runs", "N", help: "Benchmark instead: parse (from memory, gzip excluded) + metrics N times after a warm-up; print the median as JSON."),
        .optional("bench-live", "N", help: "Benchmark the LiveTracker instead: feed the parsed tracks fix by fix N times after a warm-up; print the medians as JSON."),
        .flag("bench-live-append-only", help: "With --bench-live: time only appending every fix and one final snapshot (for profiling)."),
    ], positionals: ["FILE"], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        guard !arguments.positional.isEmpty else { throw UsageError("\(name) needs at least one FILE or DIR") }
        let weight = try arguments.double("weight", in: 1...500)
        let json = arguments.flag("json")
        if let runs = try arguments.int("bench-live", in: 1...1000) {
            output.out(try benchLive(arguments.positional.flatMap(TrackFiles.expand), runs: runs,
                                     appendOnly: arguments.flag("bench-live-append-only")) + "\n")
            return .success
        }
        if let runs = try arguments.int("bench-runs", in: 1...1000) {
            output.out(try bench(arguments.positional.flatMap(TrackFiles.expand), runs: runs) + "\n")
            return .success
        }
        let paths = arguments.positional.flatMap(TrackFiles.expand)
        let progress = paths.count > 1 && !arguments.flag("quiet") ? ProgressBar(total: paths.count, label: "files", output: output) : nil
        var failed = false
        if !json { output.out(TrackTable.header) }
        for (n, path) in paths.enumerated() {
            do {
                let (format, activities) = try TrackFiles.load(path)
                for (k, a) in activities.enumerated() {
                    let m = RunMetrics(track: a.track, weightKg: weight)
                    let parts = TrackRecord.parts(of: m)
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
            progress?.update(n + 1)
        }
        progress?.finish()
        return failed ? .failure : .success
    }

    /// Parse + RunMetrics over all files, `runs` times after one warm-up; median wall time.
    static func bench(_ paths: [String], runs: Int) throws -> String {
        let inputs: [(String, [UInt8])] = try paths.map { path in
            var bytes = try TrackFiles.bytes(path)
            if Gzip.isGzip(bytes) { bytes = try Gzip.decompress(bytes, name: path) }
            return (path, bytes)
        }
        var points = 0, checksum = 0.0
        func once(metrics: Bool) throws {
            points = 0; checksum = 0
            for (name, bytes) in inputs {
                for a in try TrackFileReader.read(bytes, name: name).activities {
                    points += a.track.points.count
                    if metrics { checksum += RunMetrics(track: a.track).distance }
                }
            }
        }
        let clock = ContinuousClock()
        func median(metrics: Bool) throws -> Double {
            try once(metrics: metrics)  // warm-up
            var times: [Double] = []
            for _ in 0..<runs {
                let d = try clock.measure { try once(metrics: metrics) }
                times.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
            return times.sorted()[times.count / 2]
        }
        let parseOnly = try median(metrics: false)
        let full = try median(metrics: true)
        let bytes = inputs.reduce(0) { $0 + $1.1.count }
        return JSONWriter.string(.object([
            "files": .number(Double(inputs.count)), "points": .number(Double(points)), "runs": .number(Double(runs)),
            "median_s": .number(full), "points_per_s": .number(Double(points) / full), "distance_sum_m": .number(checksum),
            "parse_median_s": .number(parseOnly), "parse_points_per_s": .number(Double(points) / parseOnly),
            "parse_mb_per_s": .number(Double(bytes) / parseOnly / 1e6),
        ]))
    }

    static func fmt(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return "-" }
        return String(format: "%.\(decimals)f", v)
    }
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
