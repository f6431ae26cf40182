import Foundation
import Testing
import RunusCore
import Synchronization

/// The short, seeded slice of `make fuzz` that `make test` runs (record 0540): `runus-fuzz`, built
/// next to this test bundle, drives the `runus` built there (a `ChildDaemon` of its own: a
/// child process on a Unix socket, restarted never: the first trap ends the slice). It fails on
/// a trap, a hang, an answer that breaks the envelope or the closed set of codes, an answer out
/// of order or with the wrong id, an `internal` error, or a broken expectation (a request the
/// protocol says succeeds, a run that must come back as sent). On a trap its output holds the
/// minimized reproducer and var/fuzz/slice-protocol the last lines of every connection.
@Suite("fuzz slice", .serialized)
struct FuzzSliceTests {
    static let bundleDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func executable(_ name: String) -> String? {
        let path = bundleDirectory.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs `executable` with `arguments`; its standard output, and its status (killed after
    /// `limit`: a stuck fuzzer must fail the test, not stall the suite).
    static func run(_ executable: String, _ arguments: [String], limit: Duration = .seconds(600)) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OPENBLAS_NUM_THREADS"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let collected = Mutex(Data())
        let reader = Thread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0 = data }
        }
        reader.start()
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { usleep(50_000) }
        if process.isRunning {
            Issue.record("\(executable) \(arguments.first ?? "") still running after \(limit): killed")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        while !reader.isFinished { usleep(10_000) }
        return (String(decoding: collected.withLock { $0 }, as: UTF8.self), process.terminationStatus)
    }

    static func summary(_ path: String) throws -> JSONValue {
        try JSONParser.parse([UInt8](try #require(FileManager.default.contents(atPath: path), "no summary at \(path)")))
    }

    static func count(_ v: JSONValue, _ key: String) -> Int { v[key]?.intValue ?? -1 }

    @Test("10,000 seeded protocol lines (tracks at a fifth of their length) on 8 pipelined connections: no trap, no hang, every answer valid, in order, as expected")
    func protocolSlice() throws {
        let runus = try #require(Self.executable("runus"), "no runus next to the test bundle: run 'swift build' first")
        let fuzz = try #require(Self.executable("runus-fuzz"), "no runus-fuzz next to the test bundle: run 'swift build' first")
        let out = Self.repository.appendingPathComponent("var/fuzz/slice-protocol").path
        try? FileManager.default.removeItem(atPath: out)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let db = out + "/simulated.sqlite"
        let simulate = try Self.run(runus, ["simulate", "--db", db, "--runners", "5", "--days", "14", "--seed", "1", "--quiet"])
        try #require(simulate.status == 0, "runus simulate failed: \(simulate.output)")
        // 10,000 lines: 20,000 cost ~50 s of CPU on a debug build, too close to the minute the
        // slice may take with the file half (record 0540).
        let lines = 10_000
        let (output, _) = try Self.run(fuzz, [
            "protocol", "--runus", runus, "--model", Self.repository.appendingPathComponent("models/default").path,
            "--db-template", db, "--simulated-runners", "5", "--lines", "\(lines)", "--connections", "8", "--seed", "1",
            "--out", out, "--summary-json", out + "/summary.json", "--restart", "no", "--answer-timeout", "30", "--scale", "0.2",
        ])
        let s = try Self.summary(out + "/summary.json")
        let report = output.count > 12_000 ? String(output.suffix(12_000)) : output
        #expect(Self.count(s, "traps") == 0, "the daemon died; reproducer and dump below\n\(report)")
        #expect(Self.count(s, "hangs") == 0, "the daemon stopped answering\n\(report)")
        #expect(Self.count(s, "protocol_violations") == 0, "answers broke the envelope, the codes or the order\n\(report)")
        #expect(Self.count(s, "internal_errors") == 0, "internal errors\n\(report)")
        #expect(Self.count(s, "expectation_failures") == 0, "answers other than the protocol promises\n\(report)")
        #expect(Self.count(s, "line_limit_probes_failed") == 0, "line_too_long probe\n\(report)")
        #expect(Self.count(s, "traps") > 0 || Self.count(s, "lines_sent") == lines)
        // Not asserted: pipelined reads that ran before the write ahead of them on the same
        // connection (`ordering`). The protocol promises answers in order, not effects; which
        // one it means is the protocol owner's call (record 0540). Reported here when seen.
        if Self.count(s, "ordering_findings") > 0 { print("fuzz slice: \(Self.count(s, "ordering_findings")) ordering findings (see record 0540)") }
    }

    @Test("500 mutated track files (up to 256 KiB) through the reader, metrics and mission checks: no crash, no hang")
    func filesSlice() throws {
        let fuzz = try #require(Self.executable("runus-fuzz"), "no runus-fuzz next to the test bundle: run 'swift build' first")
        let out = Self.repository.appendingPathComponent("var/fuzz/slice-files").path
        try? FileManager.default.removeItem(atPath: out)
        // The shared datasets when RUNUS_DATASETS names them, else the synthetic seeds alone.
        var arguments = ["files", "--count", "500", "--seed", "1", "--out", out, "--summary-json", out + "/summary.json",
                         "--file-timeout", "30", "--max-file-bytes", "\(256 << 10)"]
        if let datasets = ProcessInfo.processInfo.environment["RUNUS_DATASETS"], FileManager.default.fileExists(atPath: datasets) {
            arguments += ["--datasets", datasets]
        }
        let (output, _) = try Self.run(fuzz, arguments)
        let s = try Self.summary(out + "/summary.json")
        #expect(s["files"]?.intValue == 500, "\(output.suffix(4000))")
        #expect(s["crashes"]?.arrayValue?.isEmpty == true, "\(output.suffix(8000))")
        #expect(s["hangs"]?.arrayValue?.isEmpty == true, "\(output.suffix(8000))")
    }
}


