import Foundation
import RunusCore
import Synchronization
import Testing
@testable import Server

@Suite("LineServer over real sockets")
struct LineServerTests {
    @Test("a health request round-trips over TCP and over a Unix socket", arguments: ["tcp", "unix"])
    func roundTrip(transport: String) throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client(transport == "tcp" ? harness.tcp : harness.unix)
        let answer = try client.call(["op": "health", "id": 7])
        #expect(answer == ["id": 7, "ok": true, "result": ["status": "ok"]])
        // Exact bytes: sorted keys, no spaces, LF.
        try client.send(line: #"{"op":"health","id":"x"}"#)
        let line = try #require(try client.readLine())
        #expect(String(decoding: line, as: UTF8.self) == #"{"id":"x","ok":true,"result":{"status":"ok"}}"#)
    }

    @Test("TCP port 0 reports the port the kernel picked")
    func boundPort() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let port = harness.tcp.port ?? 0
        #expect(port != 0)
        #expect(harness.tcp == .tcp(host: "127.0.0.1", port: port))
    }

    @Test("each bad line gets its own error code and the next request still works", arguments: [
        (#"{"op":"health""#, "bad_json"),
        ("[1,2]", "bad_request"),
        (#"{"id":3}"#, "bad_request"),
        (#"{"op":5,"id":3}"#, "bad_request"),
        (#"{"op":"nope","id":4}"#, "unknown_op"),
        (#"{"op":"missing","user":"u9"}"#, "not_found"),
        (#"{"op":"missing"}"#, "bad_request"),
        (#"{"op":"crash","id":5}"#, "internal"),
        ("not json at all", "bad_json"),
    ])
    func badLines(line: String, code: String) throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        try client.send(line: line)
        let answer = try client.readAnswer()
        #expect(answer["ok"] == false)
        #expect(answer.errorCode == code)
        #expect(answer["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(try client.call(["op": "health", "id": 1])["ok"] == true)
    }

    @Test("error answers are byte-exact and echo the id when there is one")
    func errorShape() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        try client.send(line: #"{"op":"nope","id":4}"#)
        let line = String(decoding: try #require(try client.readLine()), as: UTF8.self)
        #expect(line == #"{"error":{"code":"unknown_op","message":"unknown op \"nope\""},"id":4,"ok":false}"#)
        try client.send(line: "[1,2]")
        #expect(try client.readAnswer()["id"] == .null)
    }

    @Test("id is echoed whatever its JSON type", arguments: [
        JSONValue.number(42), .string("req-1"), .number(-1.5), .object(["a": [1, 2]]), .null, .bool(true),
    ])
    func idEcho(id: JSONValue) throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let answer = try harness.client().call(["op": "health", "id": id])
        #expect(answer["id"] == id)
    }

    @Test("a request without id gets id null")
    func missingID() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        #expect(try harness.client().call(["op": "health"])["id"] == .null)
    }

    @Test("CRLF-terminated lines are accepted, blank lines are ignored")
    func crlf() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        try client.sendRaw(Array("\r\n\n{\"op\":\"health\",\"id\":1}\r\n{\"op\":\"health\",\"id\":2}\n".utf8))
        #expect(try client.readAnswer()["id"] == 1)
        #expect(try client.readAnswer()["id"] == 2)
    }

    @Test("1000 requests written in one go are answered in order")
    func pipelined() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client(harness.unix)
        var batch: [UInt8] = []
        for i in 0..<1000 { batch += Array(#"{"op":"echo","id":\#(i),"n":\#(i * 3)}"#.utf8) + [0x0A] }
        try client.sendRaw(batch)
        for i in 0..<1000 {
            let answer = try client.readAnswer()
            #expect(answer["id"] == JSONValue.number(Double(i)))
            #expect(answer["result"]?["n"] == JSONValue.number(Double(i * 3)))
        }
    }

    @Test("a line over the limit gets line_too_long and then the connection closes",
          arguments: [true, false])
    func lineTooLong(terminated: Bool) throws {
        let limit = 64
        let harness = try TestServer(maximumLineBytes: limit)
        defer { harness.stop() }
        let client = try harness.client()
        // Exactly at the limit is fine.
        let atLimit = #"{"op":"echo","pad":""#
        let padding = String(repeating: "x", count: limit - atLimit.utf8.count - 2)
        try client.send(line: atLimit + padding + "\"}")
        #expect(try client.readAnswer()["ok"] == true)
        // One byte more is not, whether or not the newline has arrived.
        var long = Array((atLimit + padding + "x\"}").utf8)
        if terminated { long.append(0x0A) }
        try client.sendRaw(long)
        let answer = try client.readAnswer()
        #expect(answer.errorCode == "line_too_long")
        #expect(try client.readLine() == nil)
        // Other clients are unaffected.
        #expect(try harness.client().call(["op": "health"])["ok"] == true)
    }

    @Test("a client that sends half a line and leaves does not disturb another client")
    func halfLineThenDisconnect() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let other = try harness.client(harness.unix)
        #expect(try other.call(["op": "health", "id": 1])["ok"] == true)
        for _ in 0..<20 {
            let leaver = try harness.client()
            try leaver.sendRaw(Array(#"{"op":"health","id":"#.utf8))
            leaver.close()
        }
        #expect(try other.call(["op": "health", "id": 2])["id"] == 2)
    }

    @Test("a client that closes with answers pending does not crash the server")
    func disconnectMidWrite() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        for _ in 0..<5 {
            let leaver = try harness.client()
            var batch: [UInt8] = []
            let payload = String(repeating: "y", count: 2000)
            for i in 0..<500 { batch += Array(#"{"op":"echo","id":\#(i),"p":"\#(payload)"}"#.utf8) + [0x0A] }
            try leaver.sendRaw(batch)
            leaver.close()
        }
        #expect(try harness.client().call(["op": "health"])["ok"] == true)
    }

    @Test("half-closing after pipelined requests still gets every answer, then EOF")
    func halfClose() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        try client.sendRaw(Array("{\"op\":\"health\",\"id\":1}\n{\"op\":\"health\",\"id\":2}\n{\"op\":".utf8))
        client.finishSending()
        #expect(try client.readAnswer()["id"] == 1)
        #expect(try client.readAnswer()["id"] == 2)
        #expect(try client.readLine() == nil)
    }

    @Test("stop() with connected clients returns, closes them and removes the socket file")
    func stopWithClients() throws {
        let harness = try TestServer()
        let a = try harness.client(), b = try harness.client(harness.unix)
        #expect(try a.call(["op": "health"])["ok"] == true)
        #expect(try b.call(["op": "health"])["ok"] == true)
        #expect(FileManager.default.fileExists(atPath: harness.unixPath))
        #expect(harness.stop())
        #expect(!FileManager.default.fileExists(atPath: harness.unixPath))
        #expect(try a.readLine() == nil)
        #expect(try b.readLine() == nil)
        #expect(throws: SystemError.self) { try harness.client() }
        #expect(harness.runErrors.all.isEmpty)
    }

    @Test("stop() before run() has started makes run() return at once")
    func stopBeforeRun() throws {
        let router = Router()
        let server = LineServer(configuration: ServerConfiguration(addresses: [.tcp(host: "127.0.0.1", port: 0)]),
                                router: router)
        try server.start()
        server.stop()
        try server.run()
        #expect(throws: ServerError.self) { try server.run() }
    }

    @Test("handler errors are counted per op")
    func stats() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        _ = try client.call(["op": "health"])
        _ = try client.call(["op": "health"])
        _ = try client.call(["op": "crash"])
        _ = try client.call(["op": "zzz"])
        try client.send(line: "{")
        _ = try client.readAnswer()
        let counts = harness.server.router.stats.snapshot()
        #expect(counts["health"] == Stats.Counts(requests: 2, errors: 0))
        #expect(counts["crash"] == Stats.Counts(requests: 1, errors: 1))
        #expect(counts[Stats.unknownOp] == Stats.Counts(requests: 1, errors: 1))
        #expect(counts[Stats.invalidOp] == Stats.Counts(requests: 1, errors: 1))
    }
}
