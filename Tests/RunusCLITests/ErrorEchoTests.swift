import Foundation
import RunusCore
import Server
import Testing
@testable import RunusCLI

/// Record 0557 (issue 55, found 2026-12-07): errors echoed a 1 MB `race_id` or `spec.kind` in
/// full, a megabyte of answer per bad request.
@Suite("errors quote what a client sent, briefly (record 0557)")
struct ErrorEchoTests {
    /// Longest error answer line these requests may get, bytes: the sentence, the quoted 64
    /// characters and the catalog of kinds an unknown kind lists.
    static let longestAnswer = 2048

    @Test("ClientText.quoted keeps short text whole and cuts long text at a character, saying its length")
    func quoted() {
        #expect(ClientText.quoted("race-1") == "race-1")
        let exact = String(repeating: "é", count: 64)
        #expect(ClientText.quoted(exact) == exact)
        let long = String(repeating: "🏃", count: 100_000)
        #expect(ClientText.quoted(long) == String(repeating: "🏃", count: 64) + "… (400000 bytes)")
        #expect(ClientText.quoted("", limit: 0) == "")
        #expect(ClientText.quoted("ab", limit: 0) == "… (2 bytes)")
        let message = RequestError.badRequest(String(repeating: "m", count: 5000))
        #expect(message.message == String(repeating: "m", count: RequestError.maximumMessageCharacters) + "… (5000 bytes)")
    }

    @Test("a 1 MB race_id or spec kind is quoted in 64 characters, a user in 128, over a daemon's socket")
    func megabyteValues() throws {
        let harness = try ProductionDaemon()
        defer { harness.stop() }
        let client = try harness.client()
        let mega = String(repeating: "x", count: 1 << 20)
        let requests: [JSONValue] = [
            ["op": "race.watch", "race_id": .string(mega)],
            ["op": "race.results", "race_id": .string(mega)],
            ["op": "missions.score", "user": "runner-0001", "specs": [["kind": .string(mega)]]],
            ["op": "missions.custom", "user": "runner-0001", "spec": ["kind": .string(mega)]],
            ["op": "users.get", "user": .string(mega)],
            ["op": "progress", "user": .string(mega)],
        ]
        for request in requests {
            try client.send(request)
            let line = try #require(try client.readLine())
            let answer = try JSONParser.parse(line)
            #expect(answer["ok"] == false, "\(request["op"] ?? .null)")
            #expect(line.count <= Self.longestAnswer, "\(request["op"] ?? .null): \(line.count) bytes")
            // users.get and progress already quoted a user in 128 characters.
            guard request["user"]?.stringValue != mega else { continue }
            #expect(answer["error"]?["message"]?.stringValue?.contains("(1048576 bytes)") == true,
                    "\(request["op"] ?? .null): \(String(decoding: line.prefix(300), as: UTF8.self))")
        }
    }
}
