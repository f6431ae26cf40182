import Foundation
import RunusCore
import Tracking
import Missions

/// Reads the real runners of `../shared/datasets/runners/` (README there): `activities.csv` and
/// `tracks/<runner>/<id>.csv.gz` (gzip CSV `t,lat,lon,ele,hr,cad`). Test code only; the data is
/// never copied into the repository. The path comes from `RUNUS_DATASETS` or defaults to
/// `../shared/datasets` relative to the package root.
enum RealRunners {
    static let root: String = {
        if let env = ProcessInfo.processInfo.environment["RUNUS_DATASETS"], !env.isEmpty { return env + "/runners" }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent("../shared/datasets/runners").standardizedFileURL.path
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: root + "/activities.csv") }

    struct Activity: Sendable {
        let runner: String
        let id: Int
        let start: EpochSeconds
        let utcOffset: Int?
        var trackPath: String { "\(RealRunners.root)/tracks/\(runner)/\(id).csv.gz" }
    }

    /// Runs with a shipped track, per runner, in start order. Starts before 2001 (reset device
    /// clocks, README) are left out.
    static func runs() throws -> [String: [Activity]] {
        let text = try String(contentsOfFile: root + "/activities.csv", encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        let (cRunner, cID, cSport, cStart, cOffset, cStatus) = (column("runner"), column("activity_id"), column("sport"),
                                                                column("start_utc"), column("utc_offset_s"), column("track_status"))
        let isoFormatter = ISO8601DateFormatter()
        var out: [String: [Activity]] = [:]
        for line in lines {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f[cSport] == "run", f[cStatus] == "ok", let date = isoFormatter.date(from: String(f[cStart])),
                  date.timeIntervalSince1970 > 978_307_200 else { continue }
            out[String(f[cRunner]), default: []].append(Activity(
                runner: String(f[cRunner]), id: Int(f[cID])!, start: date.timeIntervalSince1970,
                utcOffset: Int(f[cOffset])))
        }
        for key in out.keys { out[key]!.sort { $0.start < $1.start } }
        return out
    }

    /// The fixes of an activity (records without a position are skipped).
    static func track(_ activity: Activity) throws -> Track {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", activity.trackPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var points: [TrackPoint] = []
        var first = true
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if first { first = false; continue }
            let f = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard f.count >= 5 else { continue }
            func number(_ i: Int) -> Double? { f[i].isEmpty ? nil : Double(String(decoding: f[i], as: UTF8.self)) }
            guard let t = number(0), let lat = number(1), let lon = number(2) else { continue }
            points.append(TrackPoint(time: t, latitude: lat, longitude: lon, elevation: number(3), heartRate: number(4)))
        }
        return Track(points: points)
    }
}

/// Walks each runner's runs in time order, building the mission context (earlier runs' summaries,
/// covered cells) as a backend would, and checks every kind's default mission (`MissionKind.example`)
/// against every run. Race kinds have no real race results and are skipped.
struct RealMissionScan {
    struct Found: Sendable { let activity: RealRunners.Activity; let evaluation: MissionEvaluation }
    var tried: [MissionKind: Int] = [:]
    var completed: [MissionKind: Int] = [:]
    var notApplicable: [MissionKind: Int] = [:]
    var first: [MissionKind: Found] = [:]
    var runs = 0

    static let kinds = MissionKind.allCases.filter { $0 != .raceFinish && $0 != .podium }

    /// `stopWhenAllFound`: stop a runner as soon as every kind has a completing run.
    mutating func scan(runner activities: [RealRunners.Activity], limit: Int = .max, stopWhenAllFound: Bool = false) throws {
        var prior: [PriorRun] = []
        var visited = Set<GridCell>()
        for activity in activities.prefix(limit) {
            let run = MissionRun(track: try RealRunners.track(activity))
            guard run.metrics.profile.times.count >= 2, run.metrics.distance >= 500 else { continue }
            runs += 1
            let context = MissionContext(priorRuns: prior, visitedCells: prior.isEmpty ? nil : visited,
                                         utcOffset: activity.utcOffset)
            for kind in Self.kinds {
                let e = MissionEvaluator.evaluate(kind.example, run: run, context: context)
                switch e.status {
                case .notApplicable: notApplicable[kind, default: 0] += 1
                case .completed:
                    tried[kind, default: 0] += 1
                    completed[kind, default: 0] += 1
                    if first[kind] == nil { first[kind] = Found(activity: activity, evaluation: e) }
                case .failed: tried[kind, default: 0] += 1
                }
            }
            prior.append(PriorRun(metrics: run.metrics, utcOffset: activity.utcOffset ?? 0))
            if run.hasPositions { visited.formUnion(ExplorerGrid.cells(of: run)) }
            if stopWhenAllFound && Self.kinds.allSatisfy({ first[$0] != nil }) { return }
        }
    }

    func table() -> String {
        var lines = ["| kind | default mission | applicable | completed | share |", "|---|---|---|---|---|"]
        for kind in Self.kinds {
            let n = tried[kind] ?? 0, c = completed[kind] ?? 0
            let share = n > 0 ? "\(Int((Double(c) / Double(n) * 100).rounded())) %" : "–"
            lines.append("| \(kind.rawValue) | \(MissionTitle.title(for: kind.example)) | \(n) | \(c) | \(share) |")
        }
        return lines.joined(separator: "\n")
    }
}
