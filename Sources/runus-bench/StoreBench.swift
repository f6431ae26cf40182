import Foundation
import RunusCore
import Storage
import PostgresStorage

/// `runus-bench store RUNS REPEATS` (make bench-store): `runs.ingest`'s store work on SQLite and
/// on PostgreSQL, same data, same process, interleaved passes. Each ingested run is one
/// transaction doing what `RunIngestion.ingest` asks of the store: the ingest-answer check, the
/// duplicate window read, the open offers of past days, the run with its track, the day's
/// offers, the XP award, the ledger sum and the stored answer. Passes run on one thread, then on
/// 4 threads (disjoint runners), each on an empty database; one warm-up pass each, then REPEATS
/// timed passes; medians. Needs RUNUS_TEST_POSTGRES; with RUNUS_TEST_POSTGRES_DATA and
/// RUNUS_TEST_POSTGRES_BIN it also stops and restarts the server to time requests in an outage.
struct StoreBench {
    let runs: Int
    let repeats: Int
    let uri: String
    static let runners = 40
    static let threads = 4

    /// The same synthetic runs for every pass: seeded ids, starts, distances and track bytes
    /// (6-10 KB, a 30-60 min run in the compact codec).
    let data: [RunRecord]

    init(runs: Int, repeats: Int, uri: String) {
        self.runs = runs
        self.repeats = repeats
        self.uri = uri
        var rng = SeededGenerator(seed: 26)
        data = (0..<runs).map { i in
            let user = "runner-\(i % Self.runners)"
            let start = 1_780_000_000 + Double(i / Self.runners) * 86_400 + Double(rng.int(in: 0...40_000))
            let track = (0..<rng.int(in: 6000...10_000)).map { _ in UInt8(truncatingIfNeeded: rng.int(in: 0...255)) }
            return RunRecord(id: "run-\(i)", userID: user, startTime: start, distance: 3000 + Double(rng.int(in: 0...15_000)),
                             elapsed: 1800 + Double(rng.int(in: 0...1800)), moving: 1700, elevationGain: 40, calories: 400,
                             source: "app", track: track)
        }
    }

    static let answer = String(repeating: #"{"badges_awarded":[],"missions":[],"run":{"distance_m":5012.3}}"#, count: 12)

    /// One run's ingestion, as RunIngestion drives the store.
    static func ingest(_ run: RunRecord, into store: any DatabaseStore) throws {
        try store.transaction {
            if try store.ingestAnswer(user: run.userID, runID: run.id) != nil { return }
            _ = try store.runs(user: run.userID, from: run.startTime - RunRecord.maximumStoredElapsed, to: run.endTime + 1)
            let day = CivilDate(daysSinceEpoch: Int(saturating: (run.startTime / 86_400).rounded(.down)))
            _ = try store.assignments(user: run.userID, from: day.adding(days: -60), to: day.adding(days: -1))
            guard try store.insertRun(run) else { return }
            _ = try store.assignments(user: run.userID, day: day)
            try store.insertReward(RewardEntry(userID: run.userID, time: run.startTime, xp: 50, reason: "run", ref: run.id))
            _ = try store.rewards(user: run.userID).reduce(0) { $0 + $1.xp }
            try store.recordIngestAnswer(user: run.userID, runID: run.id, answerJSON: answer)
        }
    }

    /// Ingests every run on `threads` threads (runner i on thread i mod threads); seconds.
    func pass(_ store: any DatabaseStore, threads: Int) throws -> Double {
        for r in 0..<Self.runners { try store.upsertUser(UserProfile(id: "runner-\(r)", weightKg: 70)) }
        let errors = ErrorBox()
        let start = ContinuousClock.now
        let group = DispatchGroup()
        for t in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    for (i, run) in data.enumerated() where (i % Self.runners) % threads == t { try Self.ingest(run, into: store) }
                } catch {
                    errors.set("\(error)")
                }
            }.start()
        }
        group.wait()
        let d = ContinuousClock.now - start
        if let error = errors.value { throw BenchError(error) }
        guard try store.runCount() == data.count else { throw BenchError("a pass stored \(try store.runCount()) runs of \(data.count)") }
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    func run() throws -> [String: Double] {
        var result: [String: Double] = ["runs": Double(runs), "repeats": Double(repeats), "threads": Double(Self.threads)]
        let path = NSTemporaryDirectory() + "runus-bench-store-\(getpid()).sqlite"
        func removeFile() { for s in ["", "-wal", "-shm", "-journal"] { unlink(path + s) } }
        defer { removeFile() }
        let postgres = try PostgresStore(uri: uri, configuration: .offline, log: { _ in })
        defer { try? postgres.close() }
        for threads in [1, Self.threads] {
            var times: (sqlite: [Double], postgres: [Double]) = ([], [])
            for pass in 0...repeats {  // pass 0 is the warm-up
                removeFile()
                let sqlite = try SQLiteStore(path: path, log: { _ in })
                let s = try self.pass(sqlite, threads: threads)
                try sqlite.close()
                try postgres.removeAllRecords()
                let p = try self.pass(postgres, threads: threads)
                if pass > 0 { times.sqlite.append(s); times.postgres.append(p) }
            }
            let name = threads == 1 ? "sequential" : "threads\(threads)"
            let median = { (t: [Double]) in t.sorted()[t.count / 2] }
            let (s, p) = (median(times.sqlite), median(times.postgres))
            result["\(name)_sqlite_runs_per_s"] = (Double(runs) / s).rounded()
            result["\(name)_postgres_runs_per_s"] = (Double(runs) / p).rounded()
            result["\(name)_postgres_over_sqlite"] = ((s / p) * 1000).rounded() / 1000
        }
        try postgres.removeAllRecords()
        return result
    }
}

final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: String?
    var value: String? { lock.withLock { _value } }
    func set(_ message: String) { lock.withLock { if _value == nil { _value = message } } }
}
