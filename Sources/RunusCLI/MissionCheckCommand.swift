import Foundation
import RunusCore
import Datasets
import Service
import Tracking
import TrackFormats
import Missions

/// `runus mission check`: every activity of the given track files against one mission, with the
/// runner's earlier runs (`--history`) as context for the kinds that need it.
enum MissionCheckCommand {
    /// An earlier run as the multi-run kinds see it, with the grid cells it covered (explorer
    /// missions only: computing cells is skipped otherwise).
    struct HistoryRun {
        let prior: PriorRun
        let cells: Set<GridCell>
    }

    static func run(_ arguments: ParsedArguments, files: [String], output: OutputSink) throws -> ExitCode {
        guard let missionText = arguments.string("mission") else { throw UsageError("mission check needs --mission JSON") }
        guard !files.isEmpty else { throw UsageError("mission check needs at least one FILE") }
        let spec = try mission(missionText)
        let timeZone = arguments.string("time-zone")
        if let timeZone, !SystemTimeZones.isKnown(timeZone) {
            throw UsageError("--time-zone: '\(timeZone)' is not an IANA time zone (e.g. Europe/Paris)")
        }
        func offset(at instant: EpochSeconds) -> Int? {
            timeZone.flatMap { SystemTimeZones().offset(timeZone: $0, at: instant) }
        }
        var failed = false
        let historyPaths = arguments.strings("history").flatMap(TrackFiles.expand)
        var history: [HistoryRun] = []
        for path in historyPaths {
            do {
                for activity in try TrackFiles.load(path).activities {
                    let run = MissionRun(track: activity.track, metrics: activity.runMetrics())
                    guard run.metrics.profile.times.count >= 2 || run.metrics.distanceSource == .summary else { continue }
                    let cells = spec.kind == .explorer && run.hasPositions ? ExplorerGrid.cells(of: run) : []
                    history.append(HistoryRun(prior: PriorRun(metrics: run.metrics, utcOffset: offset(at: run.metrics.startTime) ?? 0),
                                              cells: cells))
                }
            } catch {
                output.err("runus mission check: history \(error)\n")
                failed = true
            }
        }
        let json = arguments.flag("json")
        if !json {
            output.out("mission: \(MissionTitle.title(for: spec))  \(spec.canonicalJSON)\n")
            if !historyPaths.isEmpty { output.out("history: \(history.count) runs from \(historyPaths.count) files\n") }
            output.out("file\tactivity\tstart_utc\tdistance_km\tfrom\tgps_km\tstatus\tprogress\tcount\n")
        }
        for path in files.flatMap(TrackFiles.expand) {
            do {
                let (_, activities) = try TrackFiles.load(path)
                for (index, activity) in activities.enumerated() {
                    let run = MissionRun(track: activity.track, metrics: activity.runMetrics())
                    let start = run.metrics.startTime
                    let context = MissionContext(
                        priorRuns: history.map(\.prior),
                        visitedCells: historyPaths.isEmpty ? nil
                            : history.filter { $0.prior.start < start }.reduce(into: Set<GridCell>()) { $0.formUnion($1.cells) },
                        utcOffset: offset(at: start))
                    let evaluation = MissionEvaluator.evaluate(spec, run: run, context: context)
                    output.out(json ? JSONWriter.string(record(path, index, spec, run, evaluation)) + "\n"
                                    : row(path, index, run, evaluation))
                }
            } catch {
                output.err("runus mission check: \(error)\n")
                failed = true
            }
        }
        return failed ? .failure : .success
    }

    /// The spec from `--mission`: JSON text, or the path of a file holding it.
    static func mission(_ text: String) throws -> MissionSpec {
        var bytes = Array(text.utf8)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        if !trimmed.hasPrefix("{") {
            guard let data = FileManager.default.contents(atPath: text) else {
                throw UsageError("--mission: '\(text.prefix(80))' is neither a JSON object nor a readable file")
            }
            bytes = [UInt8](data)
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw UsageError("--mission: \(error)") }
        do { return try MissionSpec(json: value) } catch { throw UsageError("--mission: \(error)") }
    }

    static func record(_ path: String, _ index: Int, _ spec: MissionSpec, _ run: MissionRun,
                       _ evaluation: MissionEvaluation) -> JSONValue {
        var members: [String: JSONValue] = [
            "file": .string(path), "activity_index": .number(Double(index)),
            "start_time": hasStart(run.metrics) ? .number(run.metrics.startTime) : .null,
            "distance_m": .number((run.metrics.distance * 10).rounded() / 10),
            "distance_source": .string(run.metrics.distanceSource.rawValue),
            "gps_distance_m": run.metrics.gpsDistance.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            "cannot_check": evaluation.cannotCheck.map { .string($0) } ?? .null,
            "mission": spec.json, "title": .string(MissionTitle.title(for: spec)),
        ]
        if case .object(let verdict) = evaluation.json { members.merge(verdict) { a, _ in a } }
        return .object(members)
    }

    static func row(_ path: String, _ index: Int, _ run: MissionRun, _ e: MissionEvaluation) -> String {
        let m = run.metrics
        let start = hasStart(m) ? utc(m.startTime) : "-"
        let count = e.count.map { "\($0.done) of \($0.target) \($0.unit)" } ?? "-"
        let gps = m.gpsDistance.map { String(format: "%.2f", $0 / 1000) } ?? "-"
        var out = "\(path)\t\(index)\t\(start)\t\(String(format: "%.2f", m.distance / 1000))\t\(m.distanceSource.rawValue)\t\(gps)\t\(e.status.rawValue)\t"
            + "\(Int(saturating: (e.progress * 100).rounded(.down))) %\t\(count)\n"
        for sentence in e.evidence { out += "    \(sentence)\n" }
        return out
    }

    /// Whether the record has a start: fixes or readings, or a summary's start time.
    static func hasStart(_ m: RunMetrics) -> Bool { !m.profile.times.isEmpty || m.distanceSource == .summary }

    /// "2026-05-28 20:26" (UTC).
    static func utc(_ t: EpochSeconds) -> String {
        let day = CivilDate(instant: t, utcOffset: 0)
        let minute = Int(saturating: (t - day.startInstant(utcOffset: 0)) / 60)
        return "\(day) " + String(format: "%02d:%02d", minute / 60, minute % 60)
    }
}
