import Foundation
import RunusCore
import Testing
@testable import Server

@Suite("LineServer backpressure, lifecycle and client")
struct LineServerLimitsTests {
    @Test("a client that writes much more than it reads gets every answer in order")
    func backpressure() throws {
        // A small high-water mark makes the server stop reading long before the client is done.
        let harness = try TestServer(outputHighWaterBytes: 4096)
        defer { harness.stop() }
        let client = try harness.client()
        let count = 3000
        let payload = String(repeating: "z", count: 1000)
        var batch: [UInt8] = []
        for i in 0..<count { batch += Array(#"{"op":"echo","id":\#(i),"p":"\#(payload)"}"#.utf8) + [0x0A] }
        // ~3 MB each way: more than both socket buffers, so the writer must run on its own
        // thread while this one reads.
        let writerDone = DispatchSemaphore(value: 0)
        let writeFailed = LogSink()
        // Sending and reading touch disjoint client state (only the descriptor is shared).
        nonisolated(unsafe) let sender = client
        let bytes = batch
        Thread.detachNewThread {
            do { try sender.sendRaw(bytes) } catch { writeFailed.append("\(error)") }
            writerDone.signal()
        }
        var inOrder = true
        for i in 0..<count {
            let answer = try client.readAnswer()
            if answer["id"] != JSONValue.number(Double(i)) || answer["result"]?["p"]?.stringValue?.count != 1000 {
                inOrder = false
                break
            }
        }
        #expect(inOrder)
        #expect(writerDone.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(writeFailed.all.isEmpty)
    }

    @Test("a stale Unix socket file is replaced; a regular file is refused")
    func staleSocket() throws {
        let path = TestServer.uniqueSocketPath()
        let first = try TestServer(unixPath: path)
        // A second server on the same live socket is refused.
        #expect(throws: ServerError.self) { try TestServer(unixPath: path) }
        // Simulate a crash: the file stays, nobody listens.
        let leftover = try Listener.open(.unix(path: path + ".stale"), backlog: 1, unixMode: 0o600)
        Sys.close(leftover.fd)  // closed without unlinking, as a killed process would leave it
        #expect(FileManager.default.fileExists(atPath: path + ".stale"))
        let second = try TestServer(unixPath: path + ".stale")
        #expect(try second.client(second.unix).call(["op": "health"])["ok"] == true)
        second.stop()
        first.stop()
        // A regular file is never deleted.
        let regular = path + ".txt"
        #expect(FileManager.default.createFile(atPath: regular, contents: Data("keep me".utf8)))
        defer { try? FileManager.default.removeItem(atPath: regular) }
        #expect(throws: ServerError.self) { try TestServer(unixPath: regular) }
        #expect(FileManager.default.contents(atPath: regular) == Data("keep me".utf8))
    }

    @Test("the Unix socket file gets mode 0660")
    func socketMode() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let attributes = try FileManager.default.attributesOfItem(atPath: harness.unixPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o660)
    }

    @Test("SIGTERM runs the handler on the loop and run() returns")
    func sigterm() throws {
        processSignalLock.wait()
        defer { processSignalLock.signal() }
        let harness = try TestServer()
        let received = LogSink()
        harness.server.installShutdownSignals { signal in received.append("\(signal)") }
        let client = try harness.client()
        #expect(try client.call(["op": "health"])["ok"] == true)
        kill(getpid(), SIGTERM)
        #expect(harness.waitForExit())
        #expect(received.all == ["\(SIGTERM)"])
        #expect(try client.readLine() == nil)
        #expect(!FileManager.default.fileExists(atPath: harness.unixPath))
    }

    @Test("LineClient times out when the server never answers")
    func clientTimeout() throws {
        // Started but never run: the kernel accepts the connection, nobody reads it.
        let server = LineServer(configuration: ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)]),
                                router: Router())
        let bound = try server.start()
        let client = try LineClient(address: bound[0], timeout: .milliseconds(100))
        #expect(throws: ServerError.timedOut("read answer from \(bound[0]) after 0.1 seconds")) {
            try client.call(["op": "health"])
        }
        server.stop()
        try server.run()
    }

    @Test("addresses parse from the command-line forms", arguments: [
        ("127.0.0.1:7070", ServerAddress.tcp(host: "127.0.0.1", port: 7070)),
        ("localhost:0", .tcp(host: "localhost", port: 0)),
        ("[::1]:8080", .tcp(host: "::1", port: 8080)),
        ("unix:/tmp/a.sock", .unix(path: "/tmp/a.sock")),
        ("/run/runus.sock", .unix(path: "/run/runus.sock")),
    ])
    func parseAddress(text: String, expected: ServerAddress) throws {
        #expect(try ServerAddress(parsing: text) == expected)
    }

    @Test("bad addresses are refused with a reason", arguments: ["7070", "host:", "h:70000", "unix:", ":80"])
    func badAddress(text: String) {
        #expect(throws: ServerError.self) { try ServerAddress(parsing: text) }
    }

    @Test("connecting to a port nobody listens on is a SystemError naming connect")
    func refused() throws {
        let server = LineServer(configuration: ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)]),
                                router: Router())
        let bound = try server.start()
        server.stop()
        try server.run()  // closes the listener
        do {
            _ = try LineClient(address: bound[0], timeout: .seconds(5))
            Issue.record("connect unexpectedly succeeded")
        } catch let error as SystemError {
            #expect(error.errno == ECONNREFUSED)
            #expect(error.description.contains("connect 127.0.0.1"))
        }
    }
}

@Suite("LineServer lingering close")
struct LingeringCloseTests {
    @Test("a client still sending a huge line receives line_too_long before the close")
    func hugeLine() throws {
        let harness = try TestServer(maximumLineBytes: 1024)
        defer { harness.stop() }
        for _ in 0..<5 {
            let client = try harness.client()
            // 4 MB without a newline: the server gives up after ~1 KiB and the rest is unread.
            let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)
            let writerDone = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let sender = client
            Thread.detachNewThread {
                _ = try? sender.sendRaw(huge)  // fails with EPIPE/ECONNRESET once the server closes
                writerDone.signal()
            }
            let answer = try client.readAnswer()
            #expect(answer.errorCode == "line_too_long")
            #expect(writerDone.wait(timeout: .now() + .seconds(10)) == .success)
        }
    }
}

extension LingeringCloseTests {
    @Test("a client that writes its whole huge line before reading still gets line_too_long")
    func writeAllThenRead() throws {
        let harness = try TestServer(maximumLineBytes: 1024)
        defer { harness.stop() }
        let client = try harness.client()
        var huge = [UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024)
        huge.append(0x0A)
        try client.sendRaw(huge)
        #expect(try client.readAnswer().errorCode == "line_too_long")
        #expect(try client.readLine() == nil)
    }
}

@Suite("LineServer stop with unwilling clients")
struct StopTests {
    @Test("stop() returns after drainTimeout even when a client never reads its answers")
    func clientNeverReads() throws {
        // The bound is what is tested: without it stop() would wait forever.
        let harness = try TestServer(outputHighWaterBytes: 4096, drainTimeout: .milliseconds(200))
        let client = try harness.client()
        var batch: [UInt8] = []
        let payload = String(repeating: "w", count: 1000)
        for i in 0..<2000 { batch += Array(#"{"op":"echo","id":\#(i),"p":"\#(payload)"}"#.utf8) + [0x0A] }
        nonisolated(unsafe) let sender = client
        let bytes = batch
        let writerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? sender.sendRaw(bytes)  // blocks once the server stops reading; fails at close
            writerDone.signal()
        }
        // One answer proves the server is busy with this client before we stop it.
        #expect(try client.readAnswer()["id"] == 0)
        #expect(harness.stop())
        #expect(writerDone.wait(timeout: .now() + .seconds(10)) == .success)
    }

    @Test("stop() does not wait for a client in lingering close")
    func lingeringClient() throws {
        let harness = try TestServer(maximumLineBytes: 16)
        let client = try harness.client()
        try client.sendRaw(Array(String(repeating: "x", count: 100).utf8))
        #expect(try client.readAnswer().errorCode == "line_too_long")
        #expect(try client.readLine() == nil)  // our side is shut; the server now lingers
        #expect(harness.stop())
    }
}
