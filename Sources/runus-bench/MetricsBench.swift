import RunusCore
import Tracking
import TrackFormats

/// Batch metrics as `runus track` computes them: the files parsed from memory and each activity's
/// `RunMetrics`, against the parse alone (scripts/bench_gpx.py sets it next to gpxpy's parse and
/// metrics of the same files).
struct MetricsBench {
    let inputs: BenchInputs
    let runs: Int

    func run() throws -> [String: Double] {
        var points = 0, distanceSum = 0.0
        func once(metrics: Bool) throws {
            points = 0; distanceSum = 0
            for (name, bytes) in inputs.files {
                for a in try TrackFileReader.read(bytes, name: name).activities {
                    points += a.track.points.count
                    if metrics { distanceSum += RunMetrics(track: a.track).distance }
                }
            }
        }
        let parseOnly = try BenchInputs.median(runs: runs) { try once(metrics: false) }
        let full = try BenchInputs.median(runs: runs) { try once(metrics: true) }
        let n = Double(points)
        return [
            "files": Double(inputs.files.count), "points": n, "runs": Double(runs),
            "median_s": full, "points_per_s": n / full, "distance_sum_m": distanceSum,
            "parse_median_s": parseOnly, "parse_points_per_s": n / parseOnly,
            "parse_mb_per_s": Double(inputs.byteCount) / parseOnly / 1e6,
        ]
    }
}
