import Foundation
import RunusCore
import Engine

/// Reads `../shared/datasets/runners/activities.csv` (see that folder's README): the summary
/// of every activity. Used for evaluation only; nothing read here is written into the repository.
public enum RunnersDataset {
    /// Plausible running speeds for a summary to count as a run effort, m/s (5.4–25 km/h).
    public static let speedRange = 1.5...7.0

    /// Runs with a summary distance and moving time, per runner.
    public static func runEfforts(folder: String) throws -> [String: [Effort]] {
        let file = try ActivitiesFile(folder: folder, whenMissing: "pass --dataset DIR or set RUNUS_DATASETS")
        let (path, header, lines, column) = (file.path, file.header, file.lines, file.column)
        let (cRunner, cSport, cStart, cDistance, cMoving) = (try column("runner"), try column("sport"), try column("start_utc"),
                                                            try column("distance_m"), try column("moving_time_s"))
        var out: [String: [Effort]] = [:]
        let iso = Date.ISO8601FormatStyle()
        for (n, line) in lines.enumerated() {
            let f = CSV.fields(line)
            guard f.count == header.count else { throw DatasetError("\(path):\(n + 2): \(f.count) fields, header has \(header.count)") }
            guard f[cSport] == "run", let d = Double(f[cDistance]), let t = Double(f[cMoving]), d >= 1000, t > 0,
                  speedRange.contains(d / t), let start = try? iso.parse(f[cStart]) else { continue }
            out[f[cRunner], default: []].append(Effort(time: start.timeIntervalSince1970, distance: d, duration: t))
        }
        return out
    }
}

/// `activities.csv` of a runners folder: its header and its data lines (bytes, LF-separated).
public struct ActivitiesFile {
    public let path: String
    public let header: [String]
    public let lines: [Data]

    /// Reads `folder/activities.csv`; `whenMissing` says what to do when it cannot be read.
    public init(folder: String, whenMissing: String) throws {
        path = folder + "/activities.csv"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DatasetError("cannot read \(path) (\(whenMissing))")
        }
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard !lines.isEmpty else { throw DatasetError("\(path) is empty, expected a header line") }
        header = CSV.fields(lines.removeFirst())
        self.lines = lines
    }

    /// Every data line split into fields (`CSV.fields`); a line whose field count differs from
    /// the header's is the caller's to skip.
    public var rows: [[String]] { lines.map(CSV.fields) }

    /// The track file of a row: `runners/tracks/RUNNER/ID.csv.gz` below `folder`.
    public static func trackPath(folder: String, runner: String, activity: String) -> String {
        "\(folder)/tracks/\(runner)/\(activity).csv.gz"
    }

    /// The index of the column called `name`; throws naming the file when the header lacks it.
    public func column(_ name: String) throws -> Int {
        guard let i = header.firstIndex(of: name) else { throw DatasetError("\(path): no column '\(name)' in the header") }
        return i
    }
}

/// A minimal RFC 4180 field splitter for one line of bytes (quotes and doubled quotes).
public enum CSV {
    public static func fields(_ line: some Collection<UInt8>) -> [String] {
        var fields: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var previousQuote = false
        for b in line where b != 0x0D {
            if quoted {
                if b == 0x22 { quoted = false; previousQuote = true } else { current.append(b) }
            } else if b == 0x22 {
                if previousQuote { current.append(0x22) }
                quoted = true
            } else if b == 0x2C {
                fields.append(String(decoding: current, as: UTF8.self)); current.removeAll(); previousQuote = false
            } else {
                current.append(b); previousQuote = false
            }
        }
        fields.append(String(decoding: current, as: UTF8.self))
        return fields
    }
}
