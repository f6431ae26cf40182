import Foundation
import RunusCore
import Synchronization
import Testing
@testable import Server

struct Boom: Error {}

/// Collects log lines from the server's threads.
final class LogSink: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A server on 127.0.0.1:0 and a fresh Unix socket under /tmp, running `run()` on its own
/// thread, with a few operations: health, echo (returns the request), missing (not_found),
/// crash (throws a non-RequestError).
final class TestServer: Sendable {
    let server: LineServer
    let tcp: ServerAddress
    let unix: ServerAddress
    let unixPath: String
    private let finished = DispatchSemaphore(value: 0)
    let runErrors = LogSink()

    /// Generous bound on how long stop() may take; only reached when the server is broken.
    static let stopTimeout: DispatchTimeInterval = .seconds(10)
    private static let counter = Atomic<Int>(0)

    static func uniqueSocketPath() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        return "/tmp/runus-test-\(getpid())-\(n).sock"
    }

    init(maximumLineBytes: Int? = nil, outputHighWaterBytes: Int? = nil, unixPath: String? = nil,
         drainTimeout: Duration? = nil, logs: LogSink? = nil,
         configure: (inout ServerConfiguration) -> Void = { _ in },
         register: (Router) -> Void = { _ in }) throws {
        let path = unixPath ?? Self.uniqueSocketPath()
        self.unixPath = path
        let router = Router(log: { line in logs?.append(line) })
        router.register("health") { _ in ["status": "ok"] }
        router.register("echo") { request in JSONValue.object(request.params) }
        router.register("missing") { request in
            throw RequestError.notFound("user '\(try request.string("user"))' does not exist")
        }
        router.register("crash") { _ in throw Boom() }
        register(router)
        var configuration = ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0), .unix(path: path)])
        if let maximumLineBytes { configuration.maximumLineBytes = maximumLineBytes }
        if let outputHighWaterBytes { configuration.outputHighWaterBytes = outputHighWaterBytes }
        if let drainTimeout { configuration.drainTimeout = drainTimeout }
        configuration.log = { line in logs?.append(line) }
        configure(&configuration)
        server = LineServer(configuration: configuration, router: router)
        let bound = try server.start()
        tcp = bound[0]
        unix = bound[1]
        let server = self.server, finished = self.finished, runErrors = self.runErrors
        Thread.detachNewThread {
            do { try server.run() } catch { runErrors.append("\(error)") }
            finished.signal()
        }
    }

    /// Stops the server and waits for `run()` to return; false if it did not in time.
    @discardableResult
    func stop() -> Bool {
        server.stop()
        return waitForExit()
    }

    func waitForExit() -> Bool {
        finished.wait(timeout: .now() + Self.stopTimeout) == .success
    }

    func client(_ address: ServerAddress? = nil) throws -> LineClient {
        try LineClient(address: address ?? tcp, timeout: .seconds(10))
    }
}

extension JSONValue {
    var errorCode: String? { self["error"]?["code"]?.stringValue }
}

/// Tests that send signals to the process take this first: a process has one set of handlers,
/// so two such tests running in parallel would stop each other's servers.
let processSignalLock = DispatchSemaphore(value: 1)
