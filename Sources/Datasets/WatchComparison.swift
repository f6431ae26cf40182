import Foundation
import RunusCore
import Tracking
import TrackFormats
import Training

/// Ours ÷ watch distance on the runners' tracks that carry a device total (record 0114).
public enum WatchComparison {
    public struct Case: Sendable { let path: String; let reference: Double; let source: String }

    /// The table of ratios (or, with `details`, one tab-separated line per run). Reads every
    /// track of `dataset/runners` that has a device total over 1 km.
    public static func run(dataset: String, details: Bool = false) throws -> String {
        let table = try ActivitiesFile(folder: dataset + "/runners", whenMissing: "pass --dataset DIR or set RUNUS_DATASETS")
        let (cRunner, cId, cSport) = (try table.column("runner"), try table.column("activity_id"), try table.column("sport"))
        let (cRef, cSource, cHas) = (try table.column("ref_distance_m"), try table.column("ref_source"), try table.column("has_track"))
        var found: [Case] = []
        for c in table.rows {
            guard c.count == table.header.count, c[cSport] == "run", c[cHas] == "1", let ref = Double(c[cRef]), ref > 1000 else { continue }
            found.append(Case(path: ActivitiesFile.trackPath(folder: dataset + "/runners", runner: c[cRunner], activity: c[cId]),
                              reference: ref, source: c[cSource]))
        }
        let cases = found
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
                func f(_ x: Double) -> String { FixedDecimals.text(x, 4) }
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
            out += ([c.path, c.source, FixedDecimals.text(c.reference, 1)] + r.map { FixedDecimals.text($0, 4) }
                    + f.map { FixedDecimals.text($0, 1) }).joined(separator: "\t") + "\n"
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
