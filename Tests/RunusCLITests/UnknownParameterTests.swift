import Foundation
import RunusCore
import Server
import Testing
@testable import Service
@testable import RunusCLI

/// Issue 53, item 4 (found 2026-12-08): `users.upsert {"weigth_kg": 61}` answered ok and changed
/// nothing. Unknown top-level keys are refused naming the key (record 0560).
@Suite("unknown parameters are refused, naming them (record 0560)", .serialized)
struct UnknownParameterTests {
    @Test("the router's table is the specs' parameters, for every operation the daemon registers")
    func tableIsTheSpec() throws {
        let spec = try ProtocolSpec(root: ProtocolSpecTests.root)
        var fromSpec: [String: Set<String>] = [:]
        for operation in spec.operations where operation.op != "auth" { fromSpec[operation.op] = Set(operation.parameters.map(\.name)) }
        #expect(OperationParameters.table == fromSpec)
        let harness = try ProductionDaemon()
        defer { harness.stop() }
        #expect(Set(harness.daemon.server.router.operations) == Set(OperationParameters.table.keys))
    }

    @Test("a misspelt key is bad_request naming it in error.field, and nothing changes; op and id always pass")
    func misspelt() throws {
        let harness = try ProductionDaemon()
        defer { harness.stop() }
        let client = try harness.client()
        #expect(try client.call(["op": "users.upsert", "user": "ana", "time_zone": "UTC", "weight_kg": 58, "id": 1])["ok"] == true)
        let refused = try client.call(["op": "users.upsert", "user": "ana", "weigth_kg": 61, "id": 2])
        #expect(refused.errorCode == "bad_request" && refused["error"]?["field"] == "weigth_kg" && refused["id"] == 2, "\(refused)")
        #expect(refused["error"]?["message"]?.stringValue?.hasPrefix("users.upsert: unknown parameter 'weigth_kg'") == true)
        #expect(try client.call(["op": "users.get", "user": "ana"])["result"]?["profile"]?["weight_kg"] == 58)
        let none = try client.call(["op": "health", "verbose": true])
        #expect(none.errorCode == "bad_request" && none["error"]?["message"]?.stringValue?.contains("health takes no parameters") == true)
        let members: [String: JSONValue] = ["op": "progress", "user": "ana", String(repeating: "k", count: 5000): 1]
        let long = try client.call(.object(members))
        #expect(long.errorCode == "bad_request" && (long["error"]?["field"]?.stringValue?.count ?? 9999) < 100, "a long key is quoted briefly")
    }
}
