import Foundation
import RunusCore
import Tracking
import TrackFormats

/// The run record's distance against the watch's own on the reference suites' running files
/// (record 0116): before (the GPS sum only, what a file without readings or positions gave) and
/// after (the device's readings where sound, the file's totals where there is nothing else).
public enum DeviceDistanceComparison {
    /// One running activity of a reference file.
    public struct Row: Sendable {
        public let file: String
        public let activityIndex: Int
        public let format: TrackFileFormat
        /// Fixes with a position and device distance readings.
        public let fixes: Int, readings: Int
        /// Median seconds between consecutive fixes; nil with fewer than 2.
        public let medianInterval: Seconds?
        /// The watch's own distance (FIT session, TCX laps, Garmin-GPX extensions), metres.
        public let watch: Meters
        /// The record before (GPS sum only) and after (record 0116), metres.
        public let before: Meters, after: Meters
        public let source: DistanceSource
        /// Why the readings were not used, when there were some.
        public let note: String?

        /// Signed error of `distance` against the watch, percent.
        public func error(_ distance: Meters) -> Double { (distance - watch) / watch * 100 }
    }

    /// The reference files (reference/files.csv, formats FIT, TCX and GPX) read, and the
    /// running activities among them with a watch distance over 0; plus the time reading every
    /// listed file took, seconds (the median of `repeats` passes).
    public static func rows(dataset: String, repeats: Int = 5) throws -> (rows: [Row], readSeconds: Seconds) {
        let folder = dataset + "/reference/"
        let text = String(decoding: try TrackFiles.bytes(folder + "files.csv"), as: UTF8.self)
        // A file two suites share is listed once per suite (fitparse and fitdecode): read once.
        var seen = Set<String>()
        let files: [String] = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).dropFirst().compactMap { line in
            let c = ReferenceCheck.cells(line)
            guard c.count >= 5, ["fit", "tcx", "gpx"].contains(c[3]), seen.insert(c[0]).inserted else { return nil }
            return c[0]
        }
        let contents = try files.map { try TrackFiles.bytes(folder + $0) }
        var times: [Seconds] = []
        for _ in 0..<max(1, repeats) {
            let start = ContinuousClock.now
            for (name, bytes) in zip(files, contents) { _ = try? TrackFileReader.read(bytes, name: name) }
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        let before = MetricsConfiguration(useDeviceDistance: false)
        var rows: [Row] = []
        for (name, bytes) in zip(files, contents) {
            guard let (format, activities) = try? TrackFileReader.read(bytes, name: name) else { continue }
            for (k, a) in activities.enumerated() {
                guard isRunning(a.sport, file: name), let watch = a.deviceTotals.distance, watch > 0 else { continue }
                let old = RunMetrics(track: a.track, configuration: before)
                let new = a.runMetrics()
                let p = a.track.cleaned().points
                let gaps = zip(p.dropFirst(), p).map { $0.time - $1.time }.sorted()
                rows.append(Row(file: name, activityIndex: k, format: format, fixes: a.track.points.count,
                                readings: a.track.deviceDistances.count, medianInterval: gaps.isEmpty ? nil : gaps[gaps.count / 2],
                                watch: watch, before: old.distance, after: new.distance, source: new.distanceSource,
                                note: new.deviceDistanceNote))
            }
        }
        return (rows, times[times.count / 2])
    }

    /// A run by the file's sport (`running`, `run`, FIT `running`), or, for a file that names
    /// none (a GPX file), by its folder (`/runs/`).
    static func isRunning(_ sport: String?, file: String) -> Bool {
        guard let sport else { return file.contains("/runs/") }
        return sport.hasPrefix("run")
    }

    /// The table (one line per activity) and the summary: median and largest |error| and the
    /// count within `tolerancePercent`, before and after; then the reading time.
    public static func report(_ rows: [Row], readSeconds: Seconds, files: Int? = nil, tolerancePercent: Double = 0.5) -> String {
        func f(_ x: Double, _ d: Int) -> String { FixedDecimals.text(x, d) }
        var out = "| file | act | format | fixes | readings | median fix interval s | watch m | before m | before error % | after m | after error % | source | note |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        for r in rows {
            out += "| \(r.file) | \(r.activityIndex) | \(r.format.rawValue) | \(r.fixes) | \(r.readings) | "
                + "\(r.medianInterval.map { f($0, 1) } ?? "–") | \(f(r.watch, 1)) | \(f(r.before, 1)) | \(f(r.error(r.before), 2)) | "
                + "\(f(r.after, 1)) | \(f(r.error(r.after), 2)) | \(r.source.rawValue) | \(r.note ?? "") |\n"
        }
        out += "\n| record | runs | median abs error % | max abs error % | within \(f(tolerancePercent, 1)) % |\n|---|---|---|---|---|\n"
        for (label, pick) in [("before (GPS sum only)", { (r: Row) in r.before }), ("after (record 0116)", { (r: Row) in r.after })] {
            let errors = rows.map { abs($0.error(pick($0))) }.sorted()
            let median = errors.isEmpty ? 0 : errors.count % 2 == 1 ? errors[errors.count / 2]
                : (errors[errors.count / 2 - 1] + errors[errors.count / 2]) / 2
            out += "| \(label) | \(rows.count) | \(f(median, 2)) | \(f(errors.last ?? 0, 2)) | \(errors.filter { $0 <= tolerancePercent }.count) |\n"
        }
        out += "\nreading every reference FIT, TCX and GPX file: \(f(readSeconds * 1000, 1)) ms (median of passes)\n"
        return out
    }
}
