import Testing
import Foundation
import RunusCore
import Server
import Storage
@testable import Service
@testable import ModelStore
@testable import RunusCLI

/// `runus serve` as a child process, killed during a stream of `runs.ingest` (SIGKILL: a crash;
/// SIGTERM: a graceful stop), then restarted on the same database. A write is acknowledged only
/// after its transaction commits (DESIGN.md, record 0400), so every run whose answer arrived
/// must be there, and the answers must be the same when the runs are sent again.
@Suite("daemon crash and restart", .serialized)
struct DaemonCrashTests {
    /// The `runus` executable this test build made: it sits next to the test bundle.
    static let executable: String? = {
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = tests.deletingLastPathComponent().appendingPathComponent("runus").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }()

    /// Runs sent before the kill, in batches of `batch` pipelined requests.
    static let acknowledgedBeforeKill = 24
    static let batch = 8

    /// Run `i`: 2 km at 3 m/s, one point every 5 s, two hours after run i-1.
    static func ingest(_ i: Int) -> JSONValue {
        let start = 1_790_000_000 + Double(i) * 7200
        var lat = 37.5
        let points: [JSONValue] = (0..<134).map { k in
            defer { lat += 15.0 / 111_200 }
            return [.number(start + Double(k) * 5), .number(lat), .number(127.0), .number(40)]
        }
        return ["op": "runs.ingest", "id": .number(Double(i)), "user": "crash", "run_id": .string("run-\(i)"),
                "points": .array(points)]
    }

    @Test("kill -9 during runs.ingest, restart: acknowledged runs survive, the file is intact, answers repeat; then SIGTERM loses none")
    func killDuringIngest() throws {
        let executable = try #require(Self.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("crash")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        do {
            let store = try SQLiteStore(path: db)
            try store.upsertUser(UserProfile(id: "crash", weightKg: 70, timeZone: "UTC"))
            try store.close()
        }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "crash-1"), card: "test", to: dir.file("model"))

        // 1. Stream, then SIGKILL with a batch in flight.
        var answers: [Int: [UInt8]] = [:]  // run index -> the answer line received
        var next = 0
        let first = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("s1.sock"))
        try Self.stream(to: first, from: &next, answers: &answers, thenSignal: SIGKILL)
        #expect(first.wait() == .signalled(SIGKILL))
        try Self.checkFile(db, holds: answers.keys)

        // 2. Restart on the same file: the acknowledged runs answer the same bytes; the others
        //    are ingested now (or were, before the kill).
        let second = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("s2.sock"))
        let again = try LineClient(address: .unix(path: second.socket), timeout: .seconds(30))
        for i in 0..<next {
            try again.send(Self.ingest(i))
            let line = try #require(try again.readLine())
            if let before = answers[i] {
                #expect(line == before, "run \(i): the answer after the restart differs")
            } else {
                #expect(try JSONParser.parse(line)["ok"] == true)
                answers[i] = line
            }
        }
        let got = try again.call(["op": "runs.get", "user": "crash", "run_id": "run-0"])
        #expect((got["result"]?["run"]?["splits"]?.arrayValue?.count ?? 0) >= 1, "\(JSONWriter.string(got).prefix(300))")
        let history = try again.call(["op": "history", "user": "crash", "from": "2026-09-01", "to": "2026-09-30"])
        #expect(history["result"]?["runs"]?.arrayValue?.count == next, "a run is missing or stored twice")
        again.close()

        // 3. More runs, then SIGTERM with a batch in flight: a clean exit, and every request it
        //    read was answered and is in the file.
        let sentBefore = next
        try Self.stream(to: second, from: &next, answers: &answers, thenSignal: SIGTERM)
        #expect(second.wait() == .exited(0), "SIGTERM should stop the daemon cleanly")
        #expect(next > sentBefore)
        try Self.checkFile(db, holds: answers.keys)
    }

    /// Sends batches of pipelined runs.ingest requests (runs `next`, `next`+1, …) until
    /// `acknowledgedBeforeKill` more are answered, sends one more batch, signals the daemon
    /// without waiting, and collects the answers that still arrive.
    static func stream(to daemon: ChildDaemon, from next: inout Int, answers: inout [Int: [UInt8]],
                       thenSignal signal: Int32) throws {
        let client = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        defer { client.close() }
        func sendBatch() throws {
            for i in next..<(next + batch) { try client.send(ingest(i)) }
            next += batch
        }
        var signalled = false
        func record(_ line: [UInt8]) throws {
            let answer = try JSONParser.parse(line)
            // After SIGTERM, a line received but not started is answered `unavailable`
            // (record 0558): not acknowledged, so not expected in the file.
            let refusedByStop = signalled && answer.errorCode == "unavailable"
                && answer["error"]?["message"]?.stringValue?.hasPrefix("the daemon is stopping") == true
            #expect(answer["ok"] == true || refusedByStop, "\(String(decoding: line.prefix(300), as: UTF8.self))")
            if answer["ok"] == true, let i = answer["id"]?.intValue { answers[i] = line }
        }
        let target = answers.count + acknowledgedBeforeKill
        while answers.count < target {
            try sendBatch()
            for _ in 0..<batch { try record(try #require(try client.readLine())) }
        }
        try sendBatch()
        daemon.signal(signal)
        signalled = true
        // Answers written before the end were acknowledged too.
        while let line = try? client.readLine() { try record(line) }
    }

    /// `PRAGMA integrity_check` says ok, and every acknowledged run is stored.
    static func checkFile(_ path: String, holds acknowledged: Dictionary<Int, [UInt8]>.Keys) throws {
        let store = try SQLiteStore(path: path)
        defer { try? store.close() }
        let check = try store.connection.withStatement("PRAGMA integrity_check") { statement -> String in
            _ = try statement.step()
            return statement.string(at: 0)
        }
        #expect(check == "ok")
        for i in acknowledged.sorted() {
            #expect(try store.run(user: "crash", id: "run-\(i)") != nil, "run \(i) was acknowledged but is not in the database")
        }
    }
}

/// A `runus serve` child process on a Unix socket, ready when constructed.
final class ChildDaemon {
    enum Status: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    let process = Process()
    let socket: String
    /// What the daemon printed up to its `listening` line.
    private(set) var startup = ""

    init(executable: String, db: String, model: String, socket: String, extraArguments: [String] = []) throws {
        self.socket = socket
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--db", db, "--model", model, "--unix", socket] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment["OPENBLAS_NUM_THREADS"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it says so (it flushes the line); EOF first means it died.
        var text = ""
        while !text.contains("listening") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                process.waitUntilExit()
                throw CLIError("runus serve exited before listening (status \(process.terminationStatus)): \(text)")
            }
            text += String(decoding: data, as: UTF8.self)
        }
        startup = text
    }

    /// The `--metrics-listen` port the daemon printed (`metrics on http://HOST:PORT/metrics`).
    var metricsPort: UInt16? {
        guard let r = startup.range(of: "metrics on http://") else { return nil }
        let rest = startup[r.upperBound...].prefix { $0 != "/" }
        return rest.split(separator: ":").last.flatMap { UInt16($0) }
    }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// A `/proc/<pid>/status` figure in bytes (`VmRSS`, `VmHWM`: the peak); nil when unreadable.
    func memory(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// The exit status; a daemon still running after `limit` is killed and reported (a hang
    /// must fail the test, not stall the suite).
    func wait(limit: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) -> Status {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("runus serve did not exit within \(limit)", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}
