import Foundation
import RunusCore
import Tracking
import TrackFormats
import Training

/// `runus reference-check`: the reference-suite table (every row of reference/expected.csv with
/// our value, the expected value and pass/fail) and, with `--runners`, the watch-total
/// comparison on the real runners' tracks.
enum ReferenceCheckCommand: Command {
    static let name = "reference-check"
    static let abstract = "Compare our readers and metrics with the reference suites and the watches' totals."
    static let usage = "[--dataset DIR] [--runners] [--summary]"
    static let parser = ArgumentParser(options: [
        .optional("dataset", "DIR", help: "The shared datasets folder (default: $RUNUS_DATASETS or ../shared/datasets)."),
        .flag("runners", help: "Compare distances with the watches' totals on runners/ instead."),
        .flag("summary", help: "Print only the summary."),
        .flag("cuts", help: "Count the run activities of runners/ whose track loses a vehicle part (speed rule or classifier), by runner."),
        .flag("details", help: "With --runners: one tab-separated line per run (ratios and track features) instead of the table."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let dataset = arguments.string("dataset") ?? ProcessInfo.processInfo.environment["RUNUS_DATASETS"] ?? "../shared/datasets"
        if arguments.flag("cuts") {
            let text = String(decoding: try TrackFiles.bytes(dataset + "/runners/activities.csv"), as: UTF8.self)
            var lines = text.split(separator: "\n")
            let header = ReferenceCheck.cells(lines.removeFirst())
            func col(_ name: String) -> Int { header.firstIndex(of: name)! }
            let paths: [String] = lines.compactMap { line in
                let c = ReferenceCheck.cells(line)
                guard c.count == header.count, c[col("sport")] == "run", c[col("has_track")] == "1" else { return nil }
                return "\(dataset)/runners/tracks/\(c[col("runner")])/\(c[col("activity_id")]).csv.gz"
            }
            let r: [Int] = ParallelMap.map(count: paths.count) { i in
                guard let bytes = try? TrackFiles.bytes(paths[i]),
                      let a = try? TrackFileReader.read(bytes, name: paths[i]).activities.first else { return -1 }
                let t = a.track.cleaned()
                guard t.points.count >= 2 else { return 0 }
                let rule = t.vehicleSpeedRule().contains(true)
                let any = t.vehicleSegments().contains(true)
                return any ? (rule ? 2 : 1) : 0
            }
            output.out("runs \(paths.count) unreadable \(r.filter { $0 < 0 }.count) withVehicle \(r.filter { $0 > 0 }.count) withRule \(r.filter { $0 == 2 }.count)\n")
            var byRunner: [String: Int] = [:]
            for (i, v) in r.enumerated() where v > 0 { byRunner[String(paths[i].split(separator: "/").dropLast().last!), default: 0] += 1 }
            output.out("\(byRunner.sorted { $0.key < $1.key })\n")
            return .success
        }
        if arguments.flag("runners") {
            output.out(try WatchComparison.run(dataset: dataset, details: arguments.flag("details"), output: output))
            return .success
        }
        let rows = try ReferenceCheck.check(dataset: dataset)
        if !arguments.flag("summary") { output.out(ReferenceCheck.markdown(rows) + "\n") }
        output.out(ReferenceCheck.summary(rows))
        return .success
    }
}

/// Ours ÷ watch distance on the runners' tracks that carry a device total (record 0114).
enum WatchComparison {
    struct Case: Sendable { let path: String; let reference: Double; let source: String }

    static func run(dataset: String, details: Bool = false, output: OutputSink) throws -> String {
        let text = String(decoding: try TrackFiles.bytes(dataset + "/runners/activities.csv"), as: UTF8.self)
        var lines = text.split(separator: "\n")
        let header = ReferenceCheck.cells(lines.removeFirst())
        func col(_ name: String) -> Int { header.firstIndex(of: name)! }
        let (cRunner, cId, cSport, cRef, cSource, cHas) = (col("runner"), col("activity_id"), col("sport"), col("ref_distance_m"), col("ref_source"), col("has_track"))
        var found: [Case] = []
        for line in lines {
            let c = ReferenceCheck.cells(line)
            guard c.count == header.count, c[cSport] == "run", c[cHas] == "1", let ref = Double(c[cRef]), ref > 1000 else { continue }
            found.append(Case(path: "\(dataset)/runners/tracks/\(c[cRunner])/\(c[cId]).csv.gz", reference: ref, source: c[cSource]))
        }
        let cases = found
        output.err("reading \(cases.count) tracks…\n")
        // Variants of our metric, to show which rule moves the tails (diagnostic, record 0114).
        // The definition before records 0150/0151: per-fix auto-pause, distance only while moving.
        let previous = MetricsConfiguration(maxAcceleration: .infinity, pauseWindowHalfWidth: 0, jitterRadius: 0, distanceOnlyWhileMoving: true)
        let variants: [(String, MetricsConfiguration)] = [
            ("ours (RunMetrics default)", .default),
            ("ours, distance only while moving", MetricsConfiguration(distanceOnlyWhileMoving: true)),
            ("ours without the jitter filter", MetricsConfiguration(jitterRadius: 0)),
            ("ours without the acceleration filter", MetricsConfiguration(maxAcceleration: .infinity)),
            ("ours without acceleration filter and vehicle parts", MetricsConfiguration(maxAcceleration: .infinity, vehicleSpeed: 1e9, classifyActivities: false)),
            ("ours, jitter radius 3 m", MetricsConfiguration(jitterRadius: 3)),
            ("ours, jitter radius 8 m", MetricsConfiguration(jitterRadius: 8)),
            ("ours without the vehicle speed rule", MetricsConfiguration(vehicleMinDuration: .infinity)),
            ("ours without the classifier's vehicle parts", MetricsConfiguration(classifyActivities: false)),
            ("ours without vehicle parts (rule and classifier)", MetricsConfiguration(vehicleSpeed: 1e9, classifyActivities: false)),
            ("cleaned steps only (no jitter filter, no vehicle parts)",
             MetricsConfiguration(maxAcceleration: .infinity, jitterRadius: 0, vehicleSpeed: 1e9, classifyActivities: false)),
            ("before 0150/0151 (per-fix pause, distance while moving)", previous),
        ]
        let results: [[Double]?] = ParallelMap.map(count: cases.count) { i in
            guard let bytes = try? TrackFiles.bytes(cases[i].path),
                  let activity = try? TrackFileReader.read(bytes, name: cases[i].path).activities.first else { return nil }
            var ratios = variants.map { RunMetrics(track: activity.track, configuration: $0.1).distance / cases[i].reference }
            var naive = 0.0
            let p = activity.track.points
            for k in p.indices.dropFirst() {
                naive += haversine(p[k - 1].latitude, p[k - 1].longitude, p[k].latitude, p[k].longitude)
            }
            ratios.append(naive / cases[i].reference)
            return ratios
        }
        let names = variants.map(\.0) + ["naive haversine sum"]
        if details { return detailLines(cases: cases, results: results, names: names) }
        var out = "Distance ÷ watch distance, runs with a device total > 1 km (p10, p50, p90, p90 − p10)\n"
        out += "| source | n | variant | p10 | p50 | p90 | p90 − p10 |\n|---|---|---|---|---|---|---|\n"
        let sources = ["all"] + Array(Set(cases.map { $0.source })).sorted()
        for source in sources {
            let rows = zip(cases, results).compactMap { (c, r) in source == "all" || c.source == source ? r : nil }
            guard !rows.isEmpty else { continue }
            for (v, name) in names.enumerated() {
                let sorted = rows.map { $0[v] }.sorted()
                func q(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
                func f(_ x: Double) -> String { TrackCommand.fmt(x, 4) }
                out += "| \(source) | \(rows.count) | \(name) | \(f(q(0.1))) | \(f(q(0.5))) | \(f(q(0.9))) | \(f(q(0.9) - q(0.1))) |\n"
            }
        }
        out += "unreadable tracks: \(results.filter { $0 == nil }.count) of \(cases.count)\n"
        return out
    }

    /// One line per run: the case, its ratios, and features of its track (diagnostic).
    static func detailLines(cases: [Case], results: [[Double]?], names: [String]) -> String {
        var out = (["path", "source", "watch_m"] + names + ["points", "median_dt_s", "gap_s_over_10s", "elapsed_s", "moving_s"]).joined(separator: "\t") + "\n"
        let features: [[Double]?] = ParallelMap.map(count: cases.count) { i in
            guard results[i] != nil, let bytes = try? TrackFiles.bytes(cases[i].path),
                  let activity = try? TrackFileReader.read(bytes, name: cases[i].path).activities.first else { return nil }
            let p = activity.track.cleaned().points
            let dts = zip(p.dropFirst(), p).map { $0.time - $1.time }.sorted()
            let gaps = dts.filter { $0 > 10 }.reduce(0, +)
            let m = RunMetrics(track: activity.track)
            return [Double(p.count), dts.isEmpty ? 0 : dts[dts.count / 2], gaps, m.elapsed, m.moving]
        }
        for (i, c) in cases.enumerated() {
            guard let r = results[i], let f = features[i] else { continue }
            out += ([c.path, c.source, TrackCommand.fmt(c.reference, 1)] + r.map { TrackCommand.fmt($0, 4) }
                    + f.map { TrackCommand.fmt($0, 1) }).joined(separator: "\t") + "\n"
        }
        return out
    }

    /// Haversine distance in metres on a sphere of radius 6,371,008.8 m (the naive baseline).
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, d = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * d / 2), 2) + cos(lat1 * d) * cos(lat2 * d) * pow(sin((lon2 - lon1) * d / 2), 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }

}
