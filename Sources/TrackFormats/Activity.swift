import RunusCore
import Tracking

/// The file formats `TrackFileReader` reads.
public enum TrackFileFormat: String, Sendable, CaseIterable {
    case gpx, tcx, fit, geojson, csv
}

/// Totals a device or exporter wrote into the file (FIT session, TCX laps, Garmin-GPX top-level
/// `<extensions>`): the watch's own figures, for comparison with ours. Every field is `nil`
/// when the file does not carry it.
public struct DeviceTotals: Sendable, Equatable {
    /// Distance in metres, ≥ 0.
    public var distance: Meters?
    /// Timer (recording, auto-pause excluded) time in seconds, ≥ 0.
    public var timerTime: Seconds?
    /// Elapsed time from start to end in seconds, ≥ 0.
    public var elapsedTime: Seconds?
    /// Moving time in seconds, ≥ 0 (Garmin-GPX only).
    public var movingTime: Seconds?
    /// Total climb and descent in metres, ≥ 0.
    public var ascent: Meters?
    public var descent: Meters?
    /// Average and maximum heart rate in bpm, typically 30...230.
    public var averageHeartRate: Double?
    public var maximumHeartRate: Double?
    /// Average and maximum cadence as the file states it (FIT: cycles per minute, i.e. strides
    /// per minute for running; TCX: rpm), typically 0...250.
    public var averageCadence: Double?
    public var maximumCadence: Double?
    /// Energy in kcal, ≥ 0.
    public var calories: Double?
    /// Start instant, Unix seconds.
    public var startTime: EpochSeconds?

    public init() {}

    /// True when no total is present.
    public var isEmpty: Bool { self == DeviceTotals() }
}

/// One activity read from a file: its fixes, where each recorded segment starts, and the
/// device's totals. A GPX file gives one activity (all its tracks and segments); TCX one per
/// `<Activity>`; FIT one per session (a triathlon gives several).
public struct Activity: Sendable {
    /// Sport as the file names it, lower case (`running`, `cycling`, `biking`…), or `nil`.
    public var sport: String?
    /// Fixes with a position, in file order (a fix without a time has `time` = NaN), and the
    /// device's distance readings of every record that has one (FIT `record.distance`, TCX
    /// `Trackpoint/DistanceMeters`), positioned or not, in file order (record 0116).
    public var track: Track
    /// Index in `track.points` of the first fix of each recorded segment (GPX `<trkseg>`, TCX
    /// `<Track>`, a FIT timer stop/start is not split); always starts with 0 when non-empty.
    public var segmentStarts: [Int]
    /// Records read, including those without a position (indoor, GPS not yet fixed), ≥ 0.
    public var recordCount: Int
    /// Totals the device wrote; empty when the file has none.
    public var deviceTotals: DeviceTotals
    /// Per-lap totals (FIT lap messages, TCX `<Lap>`), in file order.
    public var laps: [DeviceTotals]

    public init(sport: String? = nil, track: Track = Track(points: []), segmentStarts: [Int] = [],
                recordCount: Int = 0, deviceTotals: DeviceTotals = DeviceTotals(), laps: [DeviceTotals] = []) {
        self.sport = sport
        self.track = track
        self.segmentStarts = segmentStarts
        self.recordCount = recordCount
        self.deviceTotals = deviceTotals
        self.laps = laps
    }
}

/// Why a track file could not be read.
public enum TrackReadProblem: String, Sendable, Equatable {
    /// The bytes end before the structure does (truncated download, cut file).
    case truncated
    /// A header is not what the format requires (FIT header, gzip header).
    case header
    /// A checksum does not match the bytes (FIT CRC, gzip CRC).
    case checksum
    /// The bytes are present but malformed (bad XML, bad number, unknown definition).
    case malformed
    /// The file is well formed but holds no activity we can use (no session, no track).
    case unsupported
    /// The input would expand past the reader's limits (a gzip decompression bomb, record 0112).
    case tooLarge = "too_large"
}

/// A track file that could not be read: names the file, the byte offset (and line for text
/// formats), and what was found against what was expected.
public struct TrackReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name the caller gave (usually the path).
    public let file: String
    /// Byte offset in the (decompressed) input where the problem was found, ≥ 0.
    public let offset: Int
    /// 1-based line for text formats, `nil` for binary ones.
    public let line: Int?
    public let problem: TrackReadProblem
    public let message: String

    public init(file: String, offset: Int, line: Int? = nil, problem: TrackReadProblem, message: String) {
        self.file = file
        self.offset = offset
        self.line = line
        self.problem = problem
        self.message = message
    }

    public var description: String {
        let place = line.map { "line \($0), byte \(offset)" } ?? "byte \(offset)"
        return "\(file): \(place): \(message)"
    }
}

/// Internal error thrown by the readers before the file name and line are attached.
struct ReadFailure: Error {
    let offset: Int
    let problem: TrackReadProblem
    let message: String

    init(_ problem: TrackReadProblem, at offset: Int, _ message: String) {
        self.problem = problem
        self.offset = offset
        self.message = message
    }

    /// The public error, with the 1-based line computed from `bytes` when `text` is true.
    func named(_ file: String, bytes: [UInt8], text: Bool) -> TrackReadError {
        var line: Int? = nil
        if text {
            var n = 1
            let end = min(offset, bytes.count)
            var i = 0
            while i < end { if bytes[i] == 10 { n += 1 }; i += 1 }
            line = n
        }
        return TrackReadError(file: file, offset: offset, line: line, problem: problem, message: message)
    }
}
