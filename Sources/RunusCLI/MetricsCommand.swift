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
        }.sorted().map { path + "/" + $0 }
    }
}

/// `runus metrics FILE…`: reads track files in any supported format and prints one record per
/// activity with our metrics (Tracking's RunMetrics) next to the device's own totals.
enum MetricsCommand: Command {
    static let name = "metrics"
    static let abstract = "Read GPX/TCX/FIT/GeoJSON/CSV track files (gzip too) and print their metrics."
    static let usage = "[--json] [--weight KG] FILE|DIR..."
    static let parser = ArgumentParser(options: [
        .flag("json", help: "One JSON object per activity and line (snake_case keys)."),
        .optional("weight", "KG", help: "Body mass in kg for calories."),
        .optional("bench-runs", "N", help: "Benchmark instead: parse (from memory, gzip excluded) + metrics N times after a warm-up; print the median as JSON."),
        .optional("bench-live", "N", help: "Benchmark the LiveTracker instead: feed the parsed tracks fix by fix N times after a warm-up; print the medians as JSON."),
    ], positionals: ["FILE"], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        guard !arguments.positional.isEmpty else { throw UsageError("metrics needs at least one FILE") }
        let weight = try arguments.double("weight", in: 1...500)
        let json = arguments.flag("json")
        if let runs = try arguments.int("bench-live", in: 1...1000) {
            output.out(try benchLive(arguments.positional.flatMap(TrackFiles.expand), runs: runs) + "\n")
            return .success
        }
        if let runs = try arguments.int("bench-runs", in: 1...1000) {
            output.out(try bench(arguments.positional.flatMap(TrackFiles.expand), runs: runs) + "\n")
            return .success
        }
        var failed = false
        if !json { output.out("file\tactivity\tformat\tsport\tpoints\tdistance_m\telapsed_s\tmoving_s\tascent_m\tavg_hr\tdevice_distance_m\n") }
        for path in arguments.positional.flatMap(TrackFiles.expand) {
            do {
                let (format, activities) = try TrackFiles.load(path)
                for (k, a) in activities.enumerated() {
                    let m = RunMetrics(track: a.track, weightKg: weight)
                    let object = record(path: path, index: k, format: format, activity: a, metrics: m)
                    if json {
                        output.out(JSONWriter.string(object) + "\n")
                    } else {
                        let d = a.deviceTotals.distance.map { fmt($0, 1) } ?? "-"
                        output.out("\(path)\t\(k)\t\(format.rawValue)\t\(a.sport ?? "-")\t\(a.track.points.count)\t\(fmt(m.distance, 1))\t\(fmt(m.elapsed, 0))\t\(fmt(m.moving, 0))\t\(fmt(m.elevationGain, 1))\t\(m.averageHeartRate.map { fmt($0, 1) } ?? "-")\t\(d)\n")
                    }
                }
            } catch {
                output.err("runus metrics: \(error)\n")
                failed = true
            }
        }
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

    static func record(path: String, index: Int, format: TrackFileFormat, activity a: Activity, metrics m: RunMetrics) -> JSONValue {
        func opt(_ v: Double?) -> JSONValue { v.map { .number($0) } ?? .null }
        let t = a.deviceTotals
        return .object([
            "file": .string(path), "activity_index": .number(Double(index)), "format": .string(format.rawValue),
            "sport": a.sport.map { .string($0) } ?? .null, "points": .number(Double(a.track.points.count)),
            "records": .number(Double(a.recordCount)), "segments": .number(Double(a.segmentStarts.count)),
            "distance_m": .number(m.distance), "elapsed_s": .number(m.elapsed), "moving_s": .number(m.moving),
            "avg_pace_s_per_km": opt(m.averagePace), "ascent_m": .number(m.elevationGain),
            "descent_m": .number(m.elevationLoss), "kcal": opt(m.calories), "avg_hr": opt(m.averageHeartRate),
            "device": .object([
                "distance_m": opt(t.distance), "timer_s": opt(t.timerTime), "elapsed_s": opt(t.elapsedTime),
                "moving_s": opt(t.movingTime), "ascent_m": opt(t.ascent), "descent_m": opt(t.descent),
                "avg_hr": opt(t.averageHeartRate), "max_hr": opt(t.maximumHeartRate), "kcal": opt(t.calories),
            ]),
        ])
    }

    static func fmt(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return "-" }
        return String(format: "%.\(decimals)f", v)
    }
}

