import Foundation
import RunusCore
import Server
import Storage
import Testing
@testable import ModelStore
@testable import RunusCLI

/// Issue 53, item 1: `--access-log` writes one JSON line per answered request.
@Suite("the access log (issue 53)", .serialized)
struct AccessLogTests {
    @Test("one line per answer with op, request id, user, code and ms, written by the stop at the latest; refused lines too")
    func linesPerRequest() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("access-log")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        try SQLiteStore(path: db).close()
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "access-1"), card: "test", to: dir.file("model"))
        let log = dir.file("access.log")
        let daemon = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("a.sock"),
                                     extraArguments: ["--access-log", log])
        let client = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        #expect(try client.call(["op": "health", "id": 1])["ok"] == true)
        #expect(try client.call(["op": "users.get", "user": "ana", "id": 2]).errorCode == "not_found")
        #expect(try client.call(["op": "users.get", "user": .string(String(repeating: "u", count: 1000)), "id": 3]).errorCode == "not_found")
        try client.sendRaw(Array("{oops\n".utf8))
        #expect(try client.readAnswer().errorCode == "bad_json")
        #expect(try client.call(["op": "no.such"]).errorCode == "unknown_op")
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        #expect(lines.map { $0["op"] } == ["health", "users.get", "users.get", "(invalid)", "(unknown)"], "\(lines)")
        #expect(lines.map { $0["code"] } == ["ok", "not_found", "not_found", "bad_json", "unknown_op"])
        for (k, line) in lines.enumerated() {
            #expect(line["request_id"]?.stringValue?.hasSuffix(".\(k + 1)") == true, "the connection's line \(k + 1): \(line)")
        }
        #expect(lines[1]["user"] == "ana" && lines[0]["user"] == nil)
        #expect(lines[2]["user"]?.stringValue?.hasSuffix("… (1000 bytes)") == true, "a long user is quoted briefly")
        #expect(lines.allSatisfy { ($0["ms"]?.doubleValue ?? -1) >= 0 && $0["ts"]?.stringValue?.hasSuffix("Z") == true })
    }

    @Test("an access log that cannot be opened stops serve, naming the path")
    func unwritable() throws {
        let dir = TemporaryDirectory("access-log-bad")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        try SQLiteStore(path: db).close()
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "access-2"), card: "test", to: dir.file("model"))
        let out = CapturedOutput()
        let code = RunusCLI.run(arguments: ["serve", "--db", db, "--model", dir.file("model"), "--unix", dir.file("x.sock"),
                                            "--access-log", dir.file("no-such-dir/access.log")], output: out)
        #expect(code == .failure)
        #expect(out.stderr.contains("--access-log") && out.stderr.contains("no-such-dir/access.log"), "\(out.stderr)")
    }
}
