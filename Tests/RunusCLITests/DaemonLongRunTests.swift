import Testing
import Foundation
import RunusCore
import Server
@testable import ModelStore
@testable import RunusCLI

/// What a daemon accumulates over a long run must not grow with its traffic. Found by the
/// fuzzing campaign: the event loop read the reload handler on every wake-up, and each read left
/// it one re-abstraction thunk deeper (record 0540's campaign: SIGSEGV at shutdown after
/// 1,000,000 lines, when the chain was released; SIGHUP would have overflowed the stack too).
/// The daemon runs with a 512 KiB stack so that a chain of a few thousand shows in seconds.
@Suite("daemon over a long run", .serialized)
struct DaemonLongRunTests {
    @Test("6,000 pipelined offloaded requests, then SIGHUP and SIGTERM: the daemon reloads and exits 0 on a small stack")
    func wakeUpsLeaveNothingBehind() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("long-run")
        defer { dir.cleanup() }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "long-1"), card: "test", to: dir.file("model"))
        let socket = dir.file("d.sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -s 512 && exec \"$0\" serve --db \"$1\" --create --model \"$2\" --unix \"$3\"",
                             executable, dir.file("db.sqlite"), dir.file("model"), socket]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var banner = ""
        while !banner.contains("listening") {
            let data = output.fileHandleForReading.availableData
            try #require(!data.isEmpty, "runus serve exited before listening: \(banner)")
            banner += String(decoding: data, as: UTF8.self)
        }
        let client = try LineClient(address: .unix(path: socket), timeout: .seconds(30))
        _ = try client.call(["op": "users.upsert", "id": 0, "user": "u", "time_zone": "UTC"])
        // runs.get is offloaded: every answer comes back through a wake-up of its loop.
        for batch in 0..<30 {
            for k in 0..<200 { try client.send(["op": "runs.get", "id": .number(Double(batch * 200 + k)), "user": "u", "run_id": "none"]) }
            for _ in 0..<200 { #expect(try client.readAnswer()["ok"] == .bool(false)) }
        }
        kill(process.processIdentifier, SIGHUP)
        // The reload is logged by the daemon; a model.reload answer proves the daemon still serves.
        #expect(try client.call(["op": "model.reload", "id": 1]) ["ok"] == .bool(true))
        client.close()
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        try #require(!process.isRunning, "runus serve did not exit within 60 s of SIGTERM")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "runus serve ended with \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus)")
    }
}
