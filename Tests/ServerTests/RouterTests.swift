import RunusCore
import Testing
@testable import Server

@Suite("Router without sockets")
struct RouterTests {
    static func router(logs: LogSink = LogSink()) -> Router {
        let router = Router(log: { logs.append($0) })
        router.register("add") { request in
            .number(Double(try request.int("a") + request.int("b")))
        }
        router.register("greet") { request in
            .string("hello " + (try request.string("name")))
        }
        router.register("fail") { _ in throw Boom() }
        return router
    }

    static let parameterCases: [(JSONValue, String, String)] = [
        (["op": "add", "a": 1], "add: parameter 'b' is missing, expected an integer", "b"),
        (["op": "add", "a": 1, "b": 1.5], "add: parameter 'b' is number 1.5, expected an integer", "b"),
        (["op": "greet", "name": 3], "greet: parameter 'name' is number 3, expected a string", "name"),
    ]

    @Test("parameter helpers answer bad_request naming the op, the parameter (also in error.field) and what was expected",
          arguments: parameterCases)
    func parameterErrors(request: JSONValue, message: String, field: String) {
        let answer = Self.router().answer(to: request)
        #expect(answer == Answer.failure(id: .null, error: .badRequest(message, field: field)))
        #expect(answer["error"]?["field"] == .string(field))
    }

    @Test("a handler's result is wrapped with the echoed id")
    func success() {
        let answer = Self.router().answer(to: ["op": "add", "a": 2, "b": 40, "id": "x"])
        #expect(answer == ["id": "x", "ok": true, "result": 42])
    }

    @Test("an unexpected error becomes internal for the client and a log line with op and id")
    func internalError() throws {
        let logs = LogSink()
        let answer = Self.router(logs: logs).answer(to: ["op": "fail", "id": 9], connectionID: 3)
        #expect(answer.errorCode == "internal")
        #expect(logs.all.count == 1)
        // One structured JSON line naming the op, the client's id and the connection.
        let line = try #require(logs.all.first)
        let entry = try JSONParser.parse(line)
        #expect(entry["event"] == "internal_error")
        #expect(entry["level"] == "error")
        #expect(entry["op"] == "fail")
        #expect(entry["id"] == 9)
        #expect(entry["connection"] == 3)
        #expect(entry["ts"]?.stringValue?.hasSuffix("Z") == true)
    }

    /// What a store throws when its database cannot serve (record 0406).
    struct DatabaseDown: StoreFailure, CustomStringConvertible {
        let reason: String?
        var unavailableReason: String? { reason }
        var description: String { "db.example:5432 refused the connection" }
    }

    @Test("a store that cannot reach its database gives unavailable (retry later), with the detail in the log only")
    func storeUnavailable() throws {
        let logs = LogSink()
        let router = Router(log: { logs.append($0) })
        router.register("down") { _ in throw DatabaseDown(reason: "the database is unavailable: connection refused") }
        router.register("other") { _ in throw DatabaseDown(reason: nil) }
        let answer = router.answer(to: ["op": "down", "id": 1])
        #expect(answer.errorCode == "unavailable")
        #expect(answer["error"]?["message"] == "down: the database is unavailable: connection refused; retry later")
        let entry = try JSONParser.parse(try #require(logs.all.first))
        #expect(entry["event"] == "store_unavailable")
        #expect(entry["message"]?.stringValue?.contains("db.example") == true)
        #expect(router.answer(to: ["op": "other"]).errorCode == "internal")  // another kind of store error
    }

    @Test("during an outage every request is answered unavailable, but the log gets 10 lines a second, not one per request")
    func storeUnavailableRateLimited() throws {
        let logs = LogSink()
        let router = Router(log: { logs.append($0) })
        router.register("down") { _ in throw DatabaseDown(reason: "the database is unavailable: connection refused") }
        let began = Sys.monotonicNanoseconds()
        for i in 0..<2_000 { #expect(router.answer(to: ["op": "down", "id": .number(Double(i))]).errorCode == "unavailable") }
        let windows = Int((Sys.monotonicNanoseconds() - began) / 1_000_000_000) + 1
        let lines = logs.all.filter { $0.contains("store_unavailable") }
        #expect(lines.count >= 10 && lines.count <= 10 * windows, "\(lines.count) lines in \(windows) windows")
        // A line after a suppressing window says how many it left out.
        let counted = lines.compactMap { try? JSONParser.parse($0)["suppressed_before"]?.doubleValue }.reduce(0, +)
        #expect(Int(counted) + lines.count <= 2_000)
    }

    @Test("the answer line is the sorted-key JSON plus LF")
    func answerLine() {
        let line = Self.router().answerLine(for: Array(#"{"id":1,"op":"greet","name":"ann"}"#.utf8))
        #expect(String(decoding: line, as: UTF8.self) == "{\"id\":1,\"ok\":true,\"result\":\"hello ann\"}\n")
    }

    @Test("every error code has its wire spelling")
    func codes() {
        #expect(ErrorCode.allCases.map(\.rawValue) == [
            "bad_json", "bad_request", "unknown_op", "not_found", "line_too_long", "line_timeout", "internal", "unavailable",
            "unauthorized",
        ])
    }

    @Test("operations lists registered names, sorted")
    func operations() {
        #expect(Self.router().operations == ["add", "fail", "greet"])
    }
}
