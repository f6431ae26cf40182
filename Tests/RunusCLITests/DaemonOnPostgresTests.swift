import Foundation
import Testing
import RunusCore
import Server
import Engine
import Storage
@testable import PostgresStorage
@testable import Service

/// The daemon's operations on a PostgreSQL store: the same answers as on SQLite, and
/// `unavailable` while the database is gone (issue 26, items 1 and 2).
@Suite("daemon on PostgreSQL")
struct DaemonOnPostgresTests {
    @Test("ingest answers are idempotent; with the server gone requests answer unavailable, and work again once it is back")
    func ingestAndOutage() throws {
        guard let base = ProcessInfo.processInfo.environment["RUNUS_TEST_POSTGRES"], !base.isEmpty else {
            let message = "RUNUS_TEST_POSTGRES is unset: no PostgreSQL server to test against (make test starts one)"
            print("skipped: \(message)")
            try Test.cancel(Comment(rawValue: message))
        }
        // The store reaches the server through a symbolic link to its socket, in a folder of
        // its own: removing the link takes the server away for this store only.
        let info = try PostgresConnectionInfo(uri: base, connectTimeout: 5)
        let host = try #require(info.parameters.first { $0.0 == "host" }?.1)
        let dir = TemporaryDirectory("daemonpg")
        defer { dir.cleanup() }
        let link = dir.file(".s.PGSQL.5432")
        #expect(symlink(host + "/.s.PGSQL.5432", link) == 0)
        let schema = "daemon_" + String(getpid()) + "_" + UUID().uuidString.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(10)
        let admin = try PGConnection.connect(info, timeout: 5, requestTimeout: 30, statementTimeout: 30, idleInTransactionTimeout: 60)
        try admin.execute("CREATE SCHEMA \(schema)")  // a test-made name of letters and digits
        defer { _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE") }
        let uri = base + "&options=-c%20search_path%3D\(schema)&application_name=\(schema)&host=\(dir.path)"
        let store = try PostgresStore(uri: uri, log: { _ in })
        defer { try? store.close() }

        let artifact = try DaemonEndToEndTests.artifact()
        let operations = DaemonOperations(store: store, scorer: try LogisticScorer(artifact: artifact), artifact: artifact,
                                          clock: FixedClock(1_800_000_000), startedAt: 1_799_999_990)
        let logs = LogLines()
        let router = Router(log: { logs.append($0) })
        operations.register(on: router)

        #expect(router.answer(to: ["op": "users.upsert", "user": "ana", "time_zone": "Asia/Seoul"])["ok"] == true)
        let points: [JSONValue] = (0..<300).map { i in
            .array([.number(1_799_990_000 + Double(i) * 5), .number(37.5665 + Double(i) * 0.0001), .number(126.978), .number(38)])
        }
        let ingest: JSONValue = ["op": "runs.ingest", "user": "ana", "run_id": "watch-1", "points": .array(points)]
        let first = router.answer(to: ingest)
        #expect(first["ok"] == true, "\(first)")
        #expect(router.answer(to: ingest) == first)  // the stored answer
        #expect(try store.runCount() == 1 && store.rewardCount() == 1)

        unlink(link)
        _ = try admin.run(PGQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [.text]),
                          [.text(schema)])
        let down = router.answer(to: ["op": "users.get", "user": "ana"])
        #expect(down.errorCode == "unavailable")
        #expect(down["error"]?["message"]?.stringValue?.hasSuffix("retry later") == true)
        #expect(down["error"]?["message"]?.stringValue?.contains(dir.path) == false)  // no address to clients
        #expect(logs.lines.contains { $0.contains("store_unavailable") && $0.contains(dir.path) })
        #expect(router.answer(to: ingest).errorCode == "unavailable")

        #expect(symlink(host + "/.s.PGSQL.5432", link) == 0)
        let deadline = Date().addingTimeInterval(10)
        var back = router.answer(to: ["op": "users.get", "user": "ana"])
        while back["ok"] != true, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)  // the store's backoff decides when it reconnects
            back = router.answer(to: ["op": "users.get", "user": "ana"])
        }
        #expect(back["ok"] == true, "\(back)")
        #expect(router.answer(to: ingest) == first)
    }
}

/// Log lines the router wrote, from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var _lines: [String] = []
    var lines: [String] { lock.withLock { _lines } }
    func append(_ line: String) { lock.withLock { _lines.append(line) } }
}
