import Foundation
import RunusCore
import Datasets
import Tracking
import TrackFormats
import Training

/// `runus reference-check`: the reference-suite table (every row of reference/expected.csv with
/// our value, the expected value and pass/fail) and, with `--runners`, the watch-total
/// comparison on the real runners' tracks; with `--device-distance`, the run record's distance
/// against the watch's own on the reference suites' running files (record 0116).
enum ReferenceCheckCommand: Command {
    static let name = "reference-check"
    static let abstract = "Compare our readers and metrics with the reference suites and the watches' totals."
    static let usage = "[--dataset DIR] [--runners | --device-distance] [--summary]"
    static let parser = ArgumentParser(options: [
        .optional("dataset", "DIR", help: "The shared datasets folder (default: $RUNUS_DATASETS or ../shared/datasets)."),
        .flag("runners", help: "Compare distances with the watches' totals on runners/ instead."),
        .flag("summary", help: "Print only the summary."),
        .flag("cuts", help: "Count the run activities of runners/ whose track loses a vehicle part (speed rule or classifier), by runner."),
        .flag("details", help: "With --runners: one tab-separated line per run (ratios and track features) instead of the table."),
        .flag("device-distance", help: "The run record's distance against the watch's own on the reference running files, before and after record 0116."),
    ])

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        let dataset = Environment.datasets(arguments.string("dataset"))
        if arguments.flag("cuts") {
            let table = try ActivitiesFile(folder: dataset + "/runners", whenMissing: "pass --dataset DIR or set RUNUS_DATASETS")
            let (cSport, cHas) = (try table.column("sport"), try table.column("has_track"))
            let (cRunner, cID) = (try table.column("runner"), try table.column("activity_id"))
            let paths: [String] = table.rows.compactMap { c in
                guard c.count == table.header.count, c[cSport] == "run", c[cHas] == "1" else { return nil }
                return ActivitiesFile.trackPath(folder: dataset + "/runners", runner: c[cRunner], activity: c[cID])
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
        if arguments.flag("device-distance") {
            let (rows, seconds) = try DeviceDistanceComparison.rows(dataset: dataset)
            output.out(DeviceDistanceComparison.report(rows, readSeconds: seconds))
            return .success
        }
        if arguments.flag("runners") {
            output.err("reading the runners' tracks with a device total…\n")
            output.out(try WatchComparison.run(dataset: dataset, details: arguments.flag("details")))
            return .success
        }
        let rows = try ReferenceCheck.check(dataset: dataset)
        if !arguments.flag("summary") { output.out(ReferenceCheck.markdown(rows) + "\n") }
        output.out(ReferenceCheck.summary(rows))
        return .success
    }
}
