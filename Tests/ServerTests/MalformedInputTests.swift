import Foundation
import RunusCore
import Testing
@testable import Server

/// Every class of bad input gets its own error code, and the connection (and the server) keeps
/// serving afterwards.
@Suite("LineServer malformed input")
struct MalformedInputTests {
    static let deepArray = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)

    static let cases: [(name: String, line: [UInt8], code: String)] = [
        ("invalid UTF-8 (Latin-1 é)", Array(#"{"op":"echo","name":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8), "bad_json"),
        ("invalid UTF-8 (overlong slash)", Array(#"{"op":"echo","p":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), "bad_json"),
        ("invalid UTF-8 (surrogate)", Array(#"{"op":"echo","p":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), "bad_json"),
        ("truncated JSON", Array(#"{"op":"health""#.utf8), "bad_json"),
        ("trailing comma", Array(#"{"op":"health",}"#.utf8), "bad_json"),
        ("not JSON at all", Array("GET / HTTP/1.1".utf8), "bad_json"),
        ("array, not an object", Array("[1,2,3]".utf8), "bad_request"),
        ("string, not an object", Array(#""health""#.utf8), "bad_request"),
        ("op is a number", Array(#"{"op":5}"#.utf8), "bad_request"),
        ("op missing", Array(#"{"id":1}"#.utf8), "bad_request"),
        ("parameter of the wrong type", Array(#"{"op":"missing","user":42}"#.utf8), "bad_request"),
        ("number out of Double range", Array(#"{"op":"health","n":1e400}"#.utf8), "bad_json"),
        ("nesting 10,000 deep", Array(#"{"op":"health","n":\#(deepArray)}"#.utf8), "bad_json"),
        ("NUL byte", Array(#"{"op":"health"}"#.utf8) + [0], "bad_json"),
    ]

    @Test("a bad line gets the right error code and the same connection keeps working",
          arguments: cases.map { ($0.name, $0.line, $0.code) })
    func badLine(name: String, line: [UInt8], code: String) throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let client = try harness.client()
        try client.sendRaw(line + [0x0A])
        let answer = try client.readAnswer()
        #expect(answer.errorCode == code, "\(name): \(JSONWriter.string(answer))")
        #expect(answer["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(try client.call(["op": "health", "id": 2])["id"] == 2, "\(name): connection unusable afterwards")
    }

    @Test("huge integers survive as numbers; 2^53 and beyond are not exact integers for parameters")
    func hugeNumbers() throws {
        let harness = try TestServer(register: { router in
            router.register("int") { request in .number(Double(try request.int("n"))) }
        })
        defer { harness.stop() }
        let client = try harness.client()
        #expect(try client.call(["op": "int", "n": 9_007_199_254_740_991])["result"] == 9_007_199_254_740_991)
        try client.send(line: #"{"op":"int","n":18446744073709551616}"#)
        #expect(try client.readAnswer().errorCode == "bad_request")
        try client.send(line: #"{"op":"int","n":1.5}"#)
        #expect(try client.readAnswer().errorCode == "bad_request")
    }

    @Test("a line over the limit gets line_too_long and a close; other clients are unaffected")
    func overLimit() throws {
        let harness = try TestServer(maximumLineBytes: 1024)
        defer { harness.stop() }
        let bystander = try harness.client()
        let client = try harness.client()
        try client.sendRaw(Array(repeating: UInt8(ascii: "x"), count: 2000) + [0x0A])
        #expect(try client.readAnswer().errorCode == "line_too_long")
        #expect(try client.readLine() == nil)
        #expect(try bystander.call(["op": "health"])["ok"] == true)
        #expect(try harness.client().call(["op": "health"])["ok"] == true)
    }

    @Test("half a line then a disconnect is dropped unanswered and the server keeps serving")
    func halfLineThenDisconnect() throws {
        let harness = try TestServer()
        defer { harness.stop() }
        let before = harness.server.router.stats.snapshot().values.reduce(0) { $0 + $1.requests }
        for _ in 0..<20 {
            let client = try harness.client()
            try client.sendRaw(Array(#"{"op":"health","id":"#.utf8))
            client.close()
        }
        let client = try harness.client()
        #expect(try client.call(["op": "health", "id": 1])["id"] == 1)
        // Only the final health request was counted: the 20 half lines were never requests.
        let after = harness.server.router.stats.snapshot().values.reduce(0) { $0 + $1.requests }
        #expect(after - before == 1)
    }

    @Test("UTF-8 validation agrees with the standard library's decoder on every 1- to 3-byte sequence")
    func utf8Oracle() {
        // Oracle: String(validating:) rejects exactly what RFC 3629 rejects.
        var disagreements = 0
        let leads: [UInt8] = Array(0x00...0xFF)
        let tails: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for a in leads {
            for b in tails {
                for c in tails {
                    for bytes in [[a], [a, b], [a, b, c], [a, b, c, 0x80]] {
                        let ours = UTF8Validation.firstInvalidOffset(bytes) == nil
                        let oracle = String(validating: bytes, as: UTF8.self) != nil
                        if ours != oracle { disagreements += 1 }
                    }
                }
            }
        }
        #expect(disagreements == 0)
        // The word-at-a-time ASCII path: an invalid byte at every offset of a long line.
        for offset in 0..<40 {
            var line = [UInt8](repeating: UInt8(ascii: "a"), count: 40)
            line[offset] = 0xFF
            #expect(UTF8Validation.firstInvalidOffset(line) == offset)
        }
    }
}
