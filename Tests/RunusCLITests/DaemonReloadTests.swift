import Testing
import Foundation
import RunusCore
import Features
import Learning
import Server
import Synchronization
@testable import Service
@testable import ModelStore
@testable import RunusCLI

@Suite("daemon hot reload, token and load tool", .serialized)
struct DaemonReloadTests {
    @Test("model.reload swaps in the model on disk; a foreign schema is refused and the old model stays")
    func reloadSwaps() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        #expect(try client.call(["op": "health"])["result"]?["model_version"] == "test-1")
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "test-2"), card: "", to: daemon.dir.file("model"))
        let reloaded = try client.call(["op": "model.reload", "id": 1])
        #expect(reloaded == ["id": 1, "ok": true, "result": ["model_version": "test-2", "previous_model_version": "test-1"]])
        #expect(try client.call(["op": "health"])["result"]?["model_version"] == "test-2")
        #expect(try client.call(["op": "missions.today", "user": "runner-0001"])["result"]?["model_version"] == "test-2")

        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "alien", schemaHash: "0123456789abcdef"),
                             card: "", to: daemon.dir.file("model"))
        let refused = try client.call(["op": "model.reload"])
        #expect(refused.errorCode == "unavailable")
        #expect(refused["error"]?["message"]?.stringValue?.contains("0123456789abcdef") == true)
        #expect(try client.call(["op": "health"])["result"]?["model_version"] == "test-2")
        // Counters carry over the swap.
        #expect(try client.call(["op": "stats"])["result"]?["operations"]?["health"]?["requests"] == 3)
    }

    @Test("reloading ten times during a stream of requests fails none of them")
    func reloadDuringLoad() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let versions = (1...2).map { "test-\($0)" }
        let artifacts = try versions.map { try ProductionDaemon.artifact(version: $0) }
        // Store today's offer for both models first: two concurrent first requests for a
        // (runner, day, model) race to insert the same assignment ids (an Engine issue, reported
        // separately), which is not what this test is about.
        let warm = try daemon.client()
        for artifact in artifacts {
            try ModelFiles.write(artifact: artifact, card: "", to: daemon.dir.file("model"))
            #expect(try warm.call(["op": "model.reload"])["ok"] == true)
            #expect(try warm.call(["op": "missions.today", "user": "runner-0001"])["ok"] == true)
        }
        let clients = 4
        let stop = Atomic<Bool>(false)
        let failures = LogSink()
        let answered = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        for c in 0..<clients {
            nonisolated(unsafe) let client = try daemon.client()
            Thread.detachNewThread {
                var i = 0
                while !stop.load(ordering: .relaxed) {
                    let request: JSONValue = i % 2 == 0 ? ["op": "health", "id": .number(Double(i))]
                        : ["op": "missions.today", "user": "runner-0001", "id": .number(Double(i))]
                    do {
                        let answer = try client.call(request)
                        if answer["ok"] != true || answer["id"] != .number(Double(i)) { failures.append("client \(c): \(JSONWriter.string(answer))") }
                        answered.add(1, ordering: .relaxed)
                    } catch { failures.append("client \(c): \(error)") }
                    i += 1
                }
                done.signal()
            }
        }
        let reloader = try daemon.client()
        for round in 0..<10 {
            try ModelFiles.write(artifact: artifacts[round % 2], card: "", to: daemon.dir.file("model"))
            let answer = try reloader.call(["op": "model.reload"])
            #expect(answer["result"]?["model_version"] == .string(versions[round % 2]), "\(JSONWriter.string(answer))")
        }
        stop.store(true, ordering: .relaxed)
        for _ in 0..<clients { #expect(done.wait(timeout: .now() + 30) == .success) }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(answered.load(ordering: .relaxed) > 0)
    }

    @Test("SIGHUP reloads the model without a request")
    func sighup() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let reloader = daemon.reloader
        daemon.server.installReloadSignal { reloader.reloadLogging(trigger: "SIGHUP") }
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "test-hup"), card: "", to: daemon.dir.file("model"))
        kill(getpid(), SIGHUP)
        let client = try daemon.client()
        // The reload runs on the pool; wait for it (bounded), asking the daemon itself.
        var version: JSONValue? = nil
        for _ in 0..<500 where version != "test-hup" {
            version = try client.call(["op": "health"])["result"]?["model_version"]
            if version != "test-hup" { usleep(10_000) }
        }
        #expect(version == "test-hup")
    }

    @Test("serve refuses a non-loopback address without a token file, and a short token")
    func tokenRequired() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["serve", "--db", dir.file("x.sqlite"), "--model", dir.path, "--listen", "0.0.0.0:0"], output: out)
        #expect(code == .usage)
        #expect(out.stderr.contains("needs --token-file"))
        try writeSecret("short\n", to: dir.file("token"))
        #expect(throws: CLIError.self) { try ServeCommand.readToken(dir.file("token")) }
        try writeSecret("  0123456789abcdef0123\n", to: dir.file("token"))
        #expect(try ServeCommand.readToken(dir.file("token")) == Array("0123456789abcdef0123".utf8))
    }

    /// Issue 55 (found 2026-12-07): a 16-byte token of one repeated letter was accepted.
    @Test("serve refuses a guessable token (a repeated letter, a small alphabet) naming its estimate", arguments: [
        ("aaaaaaaaaaaaaaaa", false), ("abababababababababababababababab", false), ("password12345678", false),
        ("0000000011111111222222223333333344444444", false), ("abcdefghijklmnop", true),
        ("7c1e9f0a4b2d6e8f3a5c7b9d1e0f2a4c", true), ("q3J+v0X/9kLm2ZrT8wYbN1cF6hPsDuAe4GiKoRxVzy0=", true),
    ])
    func guessableToken(token: String, accepted: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        try writeSecret(token + "\n", to: dir.file("token"))
        if accepted {
            #expect(try ServeCommand.readToken(dir.file("token")) == Array(token.utf8))
        } else {
            #expect { try ServeCommand.readToken(dir.file("token")) } throws: { error in
                "\(error)".contains("guessable token") && "\(error)".contains("head -c 32 /dev/urandom")
            }
        }
        // The estimate: 16 distinct letters once each are exactly 64 bits; one letter is 0.
        #expect(ServeCommand.tokenEntropyBits(Array("abcdefghijklmnop".utf8)) == 64)
        #expect(ServeCommand.tokenEntropyBits(Array("aaaaaaaaaaaaaaaa".utf8)) == 0)
    }

    /// Writes `text` to `path` with mode `mode` (0600 unless told).
    func writeSecret(_ text: String, to path: String, mode: Int = 0o600) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    @Test("serve refuses a token file that group or others can access, naming the path, its mode and the fix",
          arguments: [0o644, 0o640, 0o604, 0o620, 0o660, 0o755])
    func tokenFileMode(mode: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.file("token")
        try writeSecret("0123456789abcdef0123\n", to: path, mode: mode)
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["serve", "--db", dir.file("x.sqlite"), "--model", dir.path,
                                            "--listen", "0.0.0.0:0", "--token-file", path], output: out)
        #expect(code != .success)
        let octal = "0" + String(mode, radix: 8)
        #expect(out.stderr.contains("\(path) has mode \(octal)"), "\(out.stderr)")
        #expect(out.stderr.contains("chmod 600 \(path)"), "\(out.stderr)")
        // The owner alone (read, or read and write) is accepted.
        for good in [0o600, 0o400] {
            try FileManager.default.setAttributes([.posixPermissions: good], ofItemAtPath: path)
            #expect(try ServeCommand.readToken(path) == Array("0123456789abcdef0123".utf8))
        }
    }

    @Test("runus loadtest --json reports throughput and percentiles, and counts errors")
    func loadtest() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["loadtest", "--addr", "\(daemon.address)", "--op", "health",
                                            "--connections", "4", "--duration", "0.3", "--json"], output: out)
        #expect(code == .success, "\(out.stderr)")
        let report = try JSONParser.parse(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((report["throughput_rps"]?.doubleValue ?? 0) > 0)
        #expect(report["errors"] == 0)
        let p50 = try #require(report["p50_ms"]?.doubleValue), p99 = try #require(report["p99_ms"]?.doubleValue)
        #expect(p50 <= p99 && p99 <= (report["max_ms"]?.doubleValue ?? 0))
        // Open loop at a fixed rate sends about rate × duration requests; errors are counted.
        let open = CapturedOutput()
        let failing = RunusCLI.run(arguments: ["loadtest", "--addr", "\(daemon.address)", "--op", "missions.today",
                                               "--params", #"{"user":"nobody"}"#, "--connections", "2",
                                               "--duration", "0.5", "--rate", "200", "--json"], output: open)
        #expect(failing == .failure)
        let failed = try JSONParser.parse(open.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        // 100 scheduled sends; every one answered not_found. Bound: scheduling is by clock, ±1.
        let requests = try #require(failed["requests"]?.intValue)
        #expect((99...101).contains(requests))
        #expect(failed["errors"]?.intValue == requests)
    }
}

/// Collects lines from several threads.
final class LogSink: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
