import Foundation
import RunusCore
import Tracking
import TrackFormats
import Engine

/// What a dataset row says about an activity without reading its track: the platform's summary.
public struct ImportSummary: Sendable, Equatable {
    /// Start, Unix seconds.
    public var start: EpochSeconds
    /// Distance in metres, > 0.
    public var distance: Meters
    /// Moving time in seconds, > 0 (the platform's own definition).
    public var moving: Seconds
    /// Elapsed time in seconds; the moving time when the summary has none.
    public var elapsed: Seconds
}

/// One unit of import work: a track file of one runner, a dataset track (with its summary as a
/// fallback), or a dataset summary without a track.
public struct ImportItem: Sendable {
    public enum Source: Sendable {
        /// A file whose activities become runs (ids from the content hash, record 0601).
        case file(path: String)
        /// A dataset track, its sport already known to be a run; the summary, when there is one,
        /// is stored instead if the track has no usable fixes or starts before 2001.
        case datasetTrack(path: String, summary: ImportSummary?)
        /// A dataset activity with a summary and no track: stored as a summary-only run.
        case summary(ImportSummary)
    }

    public let runner: UserID
    public let source: Source
    /// The stored run id when it is known before reading (dataset rows), else nil.
    public let runID: String?
    /// Names the item in messages: the file path, or "runner_b activity 12".
    public let name: String
    /// Body mass for calories, kg; nil when unknown.
    public var weightKg: Double? = nil

    public init(runner: UserID, source: Source, runID: String?, name: String, weightKg: Double? = nil) {
        self.runner = runner; self.source = source; self.runID = runID; self.name = name; self.weightKg = weightKg
    }
}

/// What one item gave: runs to store, reasons for skipping, failures.
public enum ImportResult: Sendable {
    case run(RunRecord, points: Int)
    /// Already in the database: nothing read beyond what the id needed.
    case present
    case skipped(reason: String)
    case failed(name: String, message: String)
}

/// Turns items into run records. Pure apart from reading the item's file; safe to call from
/// several threads at once.
public enum ImportConversion {
    /// Where imported runs come from (`RunRecord.source`).
    public static let source = "import"

    /// Runs starting before this instant are skipped: device clocks reset to 1970, 1989 (the FIT
    /// epoch) or 2000 (datasets README, record 0601). 2001-01-01T00:00:00Z, Unix seconds.
    public static let earliestStart: EpochSeconds = 978_307_200

    public static let bogusClockReason = "start before 2001 (device clock reset)"

    /// The results of one item. `existing` holds the run ids already stored for the runner (by
    /// their bytes).
    public static func convert(_ item: ImportItem, existing: Set<ExactText>) -> [ImportResult] {
        if let id = item.runID, existing.contains(ExactText(id)) { return [.present] }
        switch item.source {
        case .summary(let summary):
            guard let id = item.runID else { return [missingRunID(item)] }
            return [summaryRun(summary, id: id, runner: item.runner)]
        case .datasetTrack(let path, let summary):
            guard let id = item.runID else { return [missingRunID(item)] }
            do {
                let bytes = try TrackFiles.bytes(path)
                let activities = try TrackFileReader.read(bytes, name: path).activities
                guard let first = activities.first else { return [.failed(name: path, message: "no activity in the file")] }
                let result = trackRun(first.track, id: id, runner: item.runner, weightKg: item.weightKg)
                if case .run? = result { return [result!] }
                // A track too short, or with a broken clock (times counted from 0), while the
                // row's own start is valid: the summary is the better record of the run.
                if let summary { return [summaryRun(summary, id: id, runner: item.runner)] }
                return [result ?? .skipped(reason: "track has fewer than 2 usable fixes")]
            } catch {
                return [.failed(name: item.name, message: "\(error)")]
            }
        case .file(let path):
            return convertFile(path, item: item, existing: existing)
        }
    }

    /// A dataset row or summary without a run id (the readers always give one): a failure
    /// naming the item, never a trap.
    static func missingRunID(_ item: ImportItem) -> ImportResult {
        .failed(name: item.name, message: "item '\(item.name)' of runner '\(item.runner)' has no run id")
    }

    /// Every activity of a file of one runner: runs are kept, other sports skipped.
    public static func convertFile(_ path: String, item: ImportItem, existing: Set<ExactText>) -> [ImportResult] {
        do {
            var bytes = try TrackFiles.bytes(path)
            if Gzip.isGzip(bytes) { bytes = try Gzip.decompress(bytes, name: path) }
            let hash = contentHash(bytes)
            if existing.contains(ExactText(fileRunID(runner: item.runner, hash: hash, activity: 0))) { return [.present] }
            let activities = try TrackFileReader.read(bytes, name: path).activities
            guard !activities.isEmpty else { return [.failed(name: path, message: "no activity in the file")] }
            return activities.enumerated().map { k, activity in
                let id = fileRunID(runner: item.runner, hash: hash, activity: k)
                switch sportDecision(activity) {
                case .run:
                    return trackRun(activity.track, id: id, runner: item.runner, weightKg: item.weightKg)
                        ?? .skipped(reason: "track has fewer than 2 usable fixes")
                case .notRun(let reason):
                    return .skipped(reason: reason)
                }
            }
        } catch {
            return [.failed(name: path, message: "\(error)")]
        }
    }

    /// The stored id of activity `k` of a file: the file's content hash (decompressed bytes),
    /// so the same file imported again, gzipped or not, under any name, is the same run.
    public static func fileRunID(runner: UserID, hash: String, activity k: Int) -> String {
        "import-\(hash)" + (k == 0 ? "" : "-\(k)")
    }

    /// The stored id of a dataset activity.
    public static func datasetRunID(runner: UserID, activityID: String) -> String {
        "dataset-\(activityID)"
    }

    /// FNV-1a 64 of the bytes, as 16 hex digits.
    public static func contentHash(_ bytes: [UInt8]) -> String { FNV1a.hex(of: bytes) }

    /// A run built from a track exactly as `runs.ingest` builds it (RunIngestion: metrics with
    /// vehicle parts removed, the track as given in compact form), with source "import".
    /// Nil when the track has fewer than 2 usable fixes. Fixes without a finite time or position
    /// are dropped first (they carry nothing the metrics could use, and the codec stores finite
    /// values only); non-finite elevations, heart rates and cadences become absent.
    public static func trackRun(_ raw: Track, id: String, runner: UserID, weightKg: Double?) -> ImportResult? {
        let track = sanitized(raw)
        let metrics = RunMetrics(track: track, weightKg: weightKg)
        guard metrics.profile.times.count >= 2, metrics.elapsed > 0 else { return nil }
        guard metrics.startTime >= earliestStart else { return .skipped(reason: bogusClockReason) }
        let run = RunRecord(id: id, userID: runner, startTime: metrics.startTime, distance: metrics.distance,
                            elapsed: metrics.elapsed, moving: metrics.moving, elevationGain: metrics.elevationGain,
                            calories: metrics.calories, source: source, track: CompactTrackCodec.encode(track))
        return .run(run, points: track.points.count)
    }

    /// A summary-only run: the summary's distance, moving and elapsed time, no climb, no track.
    public static func summaryRun(_ s: ImportSummary, id: String, runner: UserID) -> ImportResult {
        guard s.start >= earliestStart else { return .skipped(reason: bogusClockReason) }
        return .run(RunRecord(id: id, userID: runner, startTime: s.start, distance: s.distance, elapsed: s.elapsed,
                              moving: s.moving, elevationGain: 0, calories: nil, source: source, track: nil), points: 0)
    }

    public static func sanitized(_ track: Track) -> Track {
        func finite(_ x: Double?) -> Double? { x.flatMap { $0.isFinite ? $0 : nil } }
        var points: [TrackPoint] = []
        points.reserveCapacity(track.points.count)
        for var p in track.points where p.time.isFinite && p.latitude.isFinite && p.longitude.isFinite
            && abs(p.time) < 1e11 && abs(p.latitude) <= 90 && abs(p.longitude) <= 360 {
            p.elevation = finite(p.elevation); p.heartRate = finite(p.heartRate); p.cadence = finite(p.cadence)
            points.append(p)
        }
        return Track(points: points)
    }
}
