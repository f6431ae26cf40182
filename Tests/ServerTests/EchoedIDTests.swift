import Foundation
import RunusCore
import Testing
@testable import Server

/// Request ids come back byte for byte (record 0502), on every path that reads the request;
/// paths that cannot read it answer `"id":null`. Regression for issue 22 (found 2026-12):
/// `9007199254740993` came back as `9007199254740992`.
@Suite("request ids echoed byte for byte")
struct EchoedIDTests {
    /// Ids as a client may write them: beyond a Double's integers, trailing zeros, exponents,
    /// `-0`, escapes, raw UTF-8, white space and unsorted keys inside arrays and objects.
    static let ids: [String] = [
        "9007199254740993", "-9007199254740993", "123456789012345678901234567890", "1.10", "1e3", "1E+300",
        "-0", "0.1", "5", #""a\u00e9\n\"x\/""#, #""é🏃""#, #""""#, "null", "true", "false",
        #"[1, 2.50, {"b":1,"a":2}]"#, #"{"z":null,"a":[]}"#,
    ]

    static let token = "0123456789abcdef0123"

    /// A router with one operation per kind of ending: a value, an encoded value, a
    /// `RequestError`, an unexpected error.
    static func router() -> Router {
        let router = Router(log: { _ in })
        router.register("health") { _ in ["status": "ok"] }
        router.registerEncoded("cached") { _ in EncodedJSON(["n": 1]) }
        router.register("missing") { request in throw RequestError.notFound("user '\(try request.string("user"))' does not exist") }
        router.register("crash") { _ in throw Boom() }
        return router
    }

    /// (request line with `ID` where the id goes, expected answer with `ID` where it goes back)
    static let paths: [(String, String)] = [
        (#"{"op":"health","id":ID}"#, #"{"id":ID,"ok":true,"result":{"status":"ok"}}"#),
        (#"{"id":ID,"op":"cached"}"#, #"{"id":ID,"ok":true,"result":{"n":1}}"#),
        (#"{"op":"nope","id": ID }"#, #"{"error":{"code":"unknown_op","message":"unknown op \"nope\""},"id":ID,"ok":false}"#),
        (#"{"id":ID}"#, #"{"error":{"code":"bad_request","message":"request has no 'op' field"},"id":ID,"ok":false}"#),
        (#"{"op":7,"id":ID}"#, #"{"error":{"code":"bad_request","message":"'op' must be a string, got number"},"id":ID,"ok":false}"#),
        (#"{"op":"missing","id":ID,"user":"u"}"#,
         #"{"error":{"code":"not_found","message":"user 'u' does not exist"},"id":ID,"ok":false}"#),
        (#"{"op":"missing","id":ID}"#,
         #"{"error":{"code":"bad_request","field":"user","message":"missing: parameter 'user' is missing, expected a string"},"id":ID,"ok":false}"#),
        (#"{"op":"crash","id":ID}"#, #"{"error":{"code":"internal","message":"internal error while handling \"crash\""},"id":ID,"ok":false}"#),
        // A repeated key: the last one, as in the parsed object.
        (#"{"id":"first","op":"health","id":ID}"#, #"{"id":ID,"ok":true,"result":{"status":"ok"}}"#),
    ]

    static func splice(_ template: String, _ id: String) -> String { template.replacingOccurrences(of: "ID", with: id) }

    @Test("every handler path echoes the id's bytes", arguments: ids)
    func routerPaths(id: String) throws {
        let router = Self.router()
        for (request, answer) in Self.paths {
            let line = router.answerLine(for: Array(Self.splice(request, id).utf8))
            #expect(String(decoding: line, as: UTF8.self) == Self.splice(answer, id) + "\n")
            _ = try JSONParser.parse(line.dropLast())  // still one valid JSON value
        }
    }

    @Test("lines the server cannot read answer id null", arguments: [
        (#"{"op":"health","id":9007199254740993"#, "bad_json"),
        // Not finite: the parser refuses it (record 0502), so there is no id to echo.
        (#"{"op":"health","id":1e400}"#, "bad_json"),
        (#"[{"op":"health","id":1}]"#, "bad_request"),
    ])
    func unreadable(line: String, code: String) throws {
        let answer = Self.router().answerLine(for: Array(line.utf8))
        #expect(String(decoding: answer, as: UTF8.self).hasSuffix(#","id":null,"ok":false}"# + "\n"))
        #expect(try JSONParser.parse(answer.dropLast()).errorCode == code)
    }

    @Test("the byte builders equal JSONWriter's answers for canonical ids", arguments: [
        JSONValue.null, 1, -3, 0.5, 1e300, "x", "line\nbreak \"quoted\" é", [1, "a"], ["b": 1, "a": [true]],
    ])
    func buildersAgreeWithWriter(id: JSONValue) {
        let echoed = EchoedID(id)
        let message = "a \"quoted\" message\twith é"
        #expect(Answer.failureLine(id: echoed, code: .notFound, message: message)
                == Answer.line(Answer.failure(id: id, code: .notFound, message: message)))
        let result: JSONValue = ["z": 1, "a": ["k": "v"]]
        #expect(Answer.successLine(id: echoed, result: result) == Answer.line(Answer.success(id: id, result: result)))
        #expect(Answer.successLine(id: echoed, encodedResult: EncodedJSON(result)) == Answer.line(Answer.success(id: id, result: result)))
    }

    @Test("through a server: auth, unauthorized and pool answers echo the id; line_too_long says null", arguments: ids)
    func serverPaths(id: String) throws {
        let harness = try TestServer(maximumLineBytes: 4096, configure: {
            $0.authToken = Array(Self.token.utf8)
            $0.offloadedOperations = ["missing"]
            $0.authFailureDelay = .milliseconds(10)
        })
        defer { harness.stop() }
        let client = try harness.client()
        func exchange(_ request: String) throws -> String {
            try client.send(line: Self.splice(request, id))
            return String(decoding: try #require(try client.readLine()), as: UTF8.self)
        }
        #expect(try exchange(#"{"op":"health","id":ID}"#)
                == Self.splice(#"{"error":{"code":"unauthorized","message":"send {\"op\":\"auth\",\"token\":…} first on a TCP connection"},"id":ID,"ok":false}"#, id))
        let wrong = try exchange(#"{"op":"auth","id":ID,"token":"wrong-token-0123456"}"#)
        #expect(wrong.hasPrefix(#"{"error":{"code":"unauthorized","message":"auth: wrong or missing 'token'"#)
                && wrong.hasSuffix(Self.splice(#"},"id":ID,"ok":false}"#, id)), "\(wrong)")
        #expect(try exchange(#"{"op":"auth","id":ID,"token":"\#(Self.token)"}"#)
                == Self.splice(#"{"id":ID,"ok":true,"result":{"authenticated":true}}"#, id))
        // On the worker pool.
        #expect(try exchange(#"{"op":"missing","id":ID,"user":"u"}"#)
                == Self.splice(#"{"error":{"code":"not_found","message":"user 'u' does not exist"},"id":ID,"ok":false}"#, id))
        #expect(try exchange(#"{"op":"health","id":ID}"#) == Self.splice(#"{"id":ID,"ok":true,"result":{"status":"ok"}}"#, id))
        let tooLong = try exchange(#"{"op":"health","id":ID,"pad":""# + String(repeating: "x", count: 5000) + #""}"#)
        #expect(tooLong.hasPrefix(#"{"error":{"code":"line_too_long""#) && tooLong.hasSuffix(#","id":null,"ok":false}"#), "\(tooLong)")
    }
}
