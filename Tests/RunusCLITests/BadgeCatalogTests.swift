import Testing
import Foundation
import RunusCore
import Server
@testable import Service
@testable import RunusCLI

/// Issue 24, item 6, over a real socket: the app builds its badge screen from the engine.
@Suite("badges.catalog", .serialized)
struct BadgeCatalogTests {
    @Test("the catalog lists every badge with its criterion; for a runner, awards and progress")
    func catalog() throws {
        let daemon = try ProductionDaemon()
        defer { daemon.stop() }
        let client = try daemon.client()
        let plain = try #require(try client.call(["op": "badges.catalog"])["result"]?["badges"]?.arrayValue)
        #expect(plain.count >= 30 && plain.allSatisfy { $0["progress"] == nil && $0["criteria"]?["measure"] != nil })
        // runner-0001 has twelve 6 km summary runs stored and no badge yet; one ingested run awards.
        let now: EpochSeconds = 1_800_000_000
        let points: JSONValue = .array(stride(from: 0, through: 1800, by: 2).map { i in
            [.number(now - 4000 + Double(i)), .number(37.5 + Double(i) * 3 / 111_200), .number(127.0)]
        })
        let ingest = try client.call(["op": "runs.ingest", "user": "runner-0001", "run_id": "b", "points": points])
        let awarded = Set(ingest["result"]?["badges_awarded"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        let mine = try #require(try client.call(["op": "badges.catalog", "user": "runner-0001"])["result"]?["badges"]?.arrayValue)
        #expect(mine.count == plain.count)
        for badge in mine {
            let id = badge["id"]?.stringValue ?? ""
            let earned = badge["earned"] == true
            #expect(earned == awarded.contains(id), "\(id)")
            #expect(earned ? badge["progress"] == 1 && badge["awarded_at"]?.doubleValue != nil
                           : (badge["progress"]?.doubleValue ?? 2) < 1 && badge["awarded_at"] == .null, "\(id)")
        }
        // Thirteen runs of the 100: progress 0.13.
        #expect(mine.first { $0["id"] == "runs_100" }?["progress"] == 0.13)
        #expect(try client.call(["op": "badges.catalog", "user": "ghost"]).errorCode == "not_found")
    }
}
