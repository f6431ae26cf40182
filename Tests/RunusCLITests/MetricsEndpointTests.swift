import Foundation
import RunusCore
import Server
import Storage
import Testing
@testable import ModelStore
@testable import PostgresStorage
@testable import RunusCLI

/// Issue 53, item 1: `--metrics-listen` serves Prometheus text that Debian's `promtool check
/// metrics` accepts, `/healthz`, and a `/readyz` that follows the store.
@Suite("metrics, health and readiness over HTTP (issue 53)", .serialized)
struct MetricsEndpointTests {
    /// One HTTP/1.1 GET on 127.0.0.1:`port`: the status code and the body.
    static func get(_ path: String, port: UInt16, method: String = "GET") throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } } == 0)
        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        try #require(request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    /// `promtool check metrics` on `text`: its exit status and what it printed; nil when
    /// promtool is not installed and this is not CI (`make test` installs it).
    static func promtool(_ text: String) throws -> (status: Int32, output: String)? {
        let path = "/usr/bin/promtool"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("promtool is missing: make test installs Debian's prometheus") }
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }

    @Test("after load, /metrics passes promtool check metrics and counts what was asked; /healthz and /readyz answer 200; other paths 404, POST 405")
    func promtoolOnLiveMetrics() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let dir = TemporaryDirectory("metrics")
        defer { dir.cleanup() }
        let db = dir.file("d.sqlite")
        try SQLiteStore(path: db).close()
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "metrics-1"), card: "test", to: dir.file("model"))
        let daemon = try ChildDaemon(executable: executable, db: db, model: dir.file("model"), socket: dir.file("m.sock"),
                                     extraArguments: ["--metrics-listen", "127.0.0.1:0"])
        let port = try #require(daemon.metricsPort, "no metrics line in: \(daemon.startup)")
        let client = try LineClient(address: .unix(path: daemon.socket), timeout: .seconds(30))
        for k in 0..<20 { #expect(try client.call(["op": "health", "id": .number(Double(k))])["ok"] == true) }
        #expect(try client.call(["op": "users.get", "user": "nobody"]).errorCode == "not_found")
        #expect(try client.call(["op": "no.such.op"]).errorCode == "unknown_op")
        try client.sendRaw(Array("{not json\n".utf8))
        #expect(try client.readAnswer().errorCode == "bad_json")

        let (status, body) = try Self.get("/metrics", port: port)
        #expect(status == 200)
        #expect(body.contains("runus_requests_total{op=\"health\"} 20"), "\(body.prefix(2000))")
        #expect(body.contains("runus_request_errors_total{op=\"users.get\",code=\"not_found\"} 1"))
        #expect(body.contains("runus_request_errors_total{op=\"(unknown)\",code=\"unknown_op\"} 1"))
        #expect(body.contains("runus_request_errors_total{op=\"(invalid)\",code=\"bad_json\"} 1"))
        #expect(body.contains("runus_request_duration_seconds_count{op=\"health\"} 20"))
        #expect(body.contains("runus_model_info{version=\"metrics-1\"} 1"))
        #expect(body.contains("runus_connections 1") && body.contains("runus_race_rooms 0"))
        if let (code, printed) = try Self.promtool(body) {
            #expect(code == 0 && printed.isEmpty, "promtool check metrics: status \(code): \(printed)")
        }
        #expect(try Self.get("/healthz", port: port) == (200, "ok\n"))
        #expect(try Self.get("/readyz", port: port) == (200, "ready\n"))
        #expect(try Self.get("/nope", port: port).status == 404)
        #expect(try Self.get("/metrics", port: port, method: "POST").status == 405)
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
    }

    @Test("/readyz goes unready while the PostgreSQL server is gone and ready again once it is back")
    func readinessFollowsPostgres() throws {
        let executable = try #require(DaemonCrashTests.executable, "no runus executable next to the test bundle: run 'swift build' first")
        let (base, drop) = try ReplicaDaemonTests.schemaURI()
        defer { drop() }
        let dir = TemporaryDirectory("readyz")
        defer { dir.cleanup() }
        // As the outage test does: the daemon reaches the server through a link of its own.
        let info = try PostgresConnectionInfo(uri: base, connectTimeout: 5)
        let host = try #require(info.parameters.first { $0.0 == "host" }?.1)
        let link = dir.file(".s.PGSQL.5432")
        #expect(symlink(host + "/.s.PGSQL.5432", link) == 0)
        let name = "readyz_" + String(getpid())
        let uri = base + "&application_name=\(name)&host=\(dir.path)"
        try ModelFiles.write(artifact: try ProductionDaemon.artifact(version: "readyz-1"), card: "test", to: dir.file("model"))
        let daemon = try ChildDaemon(executable: executable, db: uri, model: dir.file("model"), socket: dir.file("d.sock"),
                                     extraArguments: ["--metrics-listen", "127.0.0.1:0"])
        defer { daemon.signal(SIGKILL) }
        let port = try #require(daemon.metricsPort, "no metrics line in: \(daemon.startup)")
        #expect(try Self.get("/readyz", port: port).status == 200)
        let admin = try PGConnection.connect(info, timeout: 5, requestTimeout: 30, statementTimeout: 30, idleInTransactionTimeout: 60)
        unlink(link)
        _ = try admin.run(PGQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [.text]),
                          [.text(name)])
        func waitFor(_ status: Int) throws -> (status: Int, body: String) {
            let deadline = ContinuousClock.now + .seconds(30)
            var last = try Self.get("/readyz", port: port)
            while last.status != status, ContinuousClock.now < deadline {
                usleep(100_000)
                last = try Self.get("/readyz", port: port)
            }
            return last
        }
        let down = try waitFor(503)
        #expect(down.status == 503 && down.body.hasPrefix("not ready: the store does not answer"), "\(down)")
        #expect(try Self.get("/healthz", port: port).status == 200, "the process lives while the store is gone")
        #expect(symlink(host + "/.s.PGSQL.5432", link) == 0)
        #expect(try waitFor(200).status == 200, "ready again once the server is back")
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == .exited(0))
    }
}
