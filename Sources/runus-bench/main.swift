// runus-bench: the track benchmarks of `make bench` (scripts/bench_gpx.py runs them next to gpxpy).
// Release builds only; each mode times a warm-up and RUNS passes and prints medians as one JSON
// object on stdout (docs/performance/live-tracker.md says what each figure is).
//
//   runus-bench live RUNS FILE...                the LiveTracker modes, the daemon's race configuration first
//   runus-bench live --append-only RUNS FILE...  appending every fix and one final snapshot only (for profilers)
//   runus-bench metrics RUNS FILE...             parse from memory (gzip excluded) + RunMetrics
//   runus-bench store RUNS REPEATS               runs.ingest's store work, SQLite vs PostgreSQL (StoreBench)
import Foundation

func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: runus-bench live [--append-only] RUNS FILE...
               runus-bench metrics RUNS FILE...
               runus-bench store RUNS REPEATS    (needs RUNUS_TEST_POSTGRES: make bench-store)
        RUNS: timed passes after one warm-up, 1...1000; FILE: GPX, TCX, FIT, GeoJSON or CSV, gzip too.

        """.utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { usage() }
arguments.removeFirst()
if mode == "store" {
    let environment = ProcessInfo.processInfo.environment
    guard arguments.count == 2, let runs = Int(arguments[0]), (100...1_000_000).contains(runs),
          let repeats = Int(arguments[1]), (1...100).contains(repeats) else { usage() }
    guard let uri = environment["RUNUS_TEST_POSTGRES"], !uri.isEmpty else {
        FileHandle.standardError.write(Data("runus-bench store: RUNUS_TEST_POSTGRES is unset (run it through scripts/with-postgres.sh)\n".utf8))
        exit(2)
    }
    do {
        var result = try StoreBench(runs: runs, repeats: repeats, uri: uri).run()
        if let data = environment["RUNUS_TEST_POSTGRES_DATA"], let bin = environment["RUNUS_TEST_POSTGRES_BIN"] {
            result.merge(try OutageBench(uri: uri, data: data, bin: bin).run()) { $1 }
        }
        print(BenchInputs.json(result))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("runus-bench: \(error)\n".utf8))
        exit(1)
    }
}
let appendOnly = mode == "live" && arguments.first == "--append-only"
if appendOnly { arguments.removeFirst() }
guard let runs = arguments.first.flatMap({ Int($0) }), (1...1000).contains(runs), arguments.count >= 2 else { usage() }
let files = Array(arguments.dropFirst())

do {
    let inputs = try BenchInputs(paths: files)
    let result: [String: Double]
    switch mode {
    case "live": result = try LiveBench(inputs: inputs, runs: runs).run(appendOnly: appendOnly)
    case "metrics": result = try MetricsBench(inputs: inputs, runs: runs).run()
    default: usage()
    }
    print(BenchInputs.json(result))
} catch {
    FileHandle.standardError.write(Data("runus-bench: \(error)\n".utf8))
    exit(1)
}
