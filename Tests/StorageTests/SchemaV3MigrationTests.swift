import Foundation
import Testing
import RunusCore
@testable import Storage

/// Schema version 3 (docs/decisions/0405-per-runner-keys.md) on a database written by the code
/// before it: `Fixtures/schema-v2-made-by-408e5a3.sqlite`, made by `runus` at commit 408e5a3 with
/// scripts/fixtures/make-schema-v2-db.sh (two simulated runners, the colliding users `bob` and
/// `bob:2026`, app runs stored as `user:run_id`, a client run id equal to a simulated one).
@Suite("schema v3 migration of a version-2 database")
struct SchemaV3MigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schema-v2-made-by-408e5a3.sqlite").path

    /// A scratch copy of the fixture (opening migrates it in place).
    static func copy(to path: String) throws {
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
    }

    /// Each table with a column whose sum the migration must keep.
    static let checkedColumns: [(table: String, column: String)] = [
        ("users", "weight_kg"), ("runs", "distance_m"), ("mission_assignments", "xp"), ("rewards", "xp"),
        ("badges", "awarded_at"), ("ingest_answers", "length(answer_json)"),
    ]

    /// (count, sum of one column) of a table, read with plain SQL.
    static func totals(_ connection: SQLiteConnection, _ table: String, _ column: String) throws -> (Int, Double) {
        try connection.withStatement("SELECT COUNT(*), TOTAL(\(column)) FROM \(table)") { s in
            _ = try s.step()
            return (s.int(at: 0), s.double(at: 1))
        }
    }

    @Test("every row survives with its numbers, app and import ids lose their 'user:' prefix, references follow")
    func migratesWithoutLoss() throws {
        try withTemporaryDatabasePath { path in
            try Self.copy(to: path)
            // What version 2 holds, read before the migration.
            let before = try SQLiteStore(path: path, migrations: Array(Schema.migrations.prefix(2)))
            var counts: [String: (Int, Double)] = [:]
            for (table, column) in Self.checkedColumns { counts[table] = try Self.totals(before.connection, table, column) }
            let v2Runs = try before.connection.withStatement("SELECT user_id, id FROM runs ORDER BY user_id, id") { s in
                var out: [String] = []
                while try s.step() { out.append(s.string(at: 0) + " " + s.string(at: 1)) }
                return out
            }
            try before.close()
            #expect(v2Runs.contains("bob bob:2026:12-01"), "the fixture holds the colliding run")

            let store = try SQLiteStore(path: path)
            #expect(try store.connection.userVersion() == Schema.currentVersion)
            for (table, column) in Self.checkedColumns {
                let after = try Self.totals(store.connection, table, column)
                let earlier = try #require(counts[table])
                #expect(after.0 == earlier.0 && after.1 == earlier.1, "\(table): \(after) after, \(earlier) before")
            }
            // Runs are the runner's own ids now; a stripped id that would collide keeps its prefix.
            let runner1 = try store.allRuns(user: "runner-0001").map(\.id)
            #expect(Set(runner1) == ["runner-0001-2026-11-21-r1", "runner-0001-2026-11-22-r1", "phone-1",
                                     "runner-0001:runner-0001-2026-11-21-r1"])
            let bob = try #require(try store.run(user: "bob", id: "2026:12-01"))
            #expect(bob.track != nil && bob.rewarded)
            #expect(try store.run(user: "bob:2026", id: "12-01") == nil, "version 2 never stored this run")
            // The answers follow their runs, so sending a run again after the upgrade repeats it.
            #expect(try store.ingestAnswer(user: "bob", runID: "2026:12-01") != nil)
            #expect(try store.ingestAnswer(user: "runner-0001", runID: "phone-1") != nil)
            #expect(try store.ingestAnswer(user: "runner-0001", runID: "runner-0001:phone-1") == nil)
            // References: completed assignments, run rewards and badges name the new ids.
            let completed = try store.assignments(user: "runner-0001", from: CivilDate(daysSinceEpoch: 0),
                                                   to: CivilDate(daysSinceEpoch: 100_000)).filter { $0.status == .completed }
            #expect(completed.map(\.runID) == ["phone-1"])
            let runRewards = try store.rewards(user: "runner-0001").filter { $0.reason == "run" }.compactMap(\.refID)
            #expect(Set(runRewards) == ["phone-1", "runner-0001:runner-0001-2026-11-21-r1"])
            #expect(try store.badges(user: "bob").allSatisfy { $0.runID == "2026:12-01" })
            for check in ["PRAGMA integrity_check", "PRAGMA foreign_key_check"] {
                let rows = try store.connection.withStatement(check) { s in
                    var out: [String] = []
                    while try s.step() { out.append(s.string(at: 0)) }
                    return out
                }
                #expect(rows == (check == "PRAGMA integrity_check" ? ["ok"] : []), "\(check): \(rows)")
            }
            try store.close()
        }
    }

    @Test("after the upgrade the two colliding runners each keep their own run")
    func collisionIsGone() throws {
        try withTemporaryDatabasePath { path in
            try Self.copy(to: path)
            let store = try SQLiteStore(path: path)
            let run = RunRecord(id: "12-01", userID: "bob:2026", startTime: 1_796_090_000, distance: 3100, elapsed: 1023,
                                moving: 1000, elevationGain: 0, source: "app")
            #expect(try store.insertRun(run))
            #expect(try store.run(user: "bob:2026", id: "12-01") == run)
            #expect(try store.run(user: "bob", id: "2026:12-01")?.distance != 3100)
            // The ledger refuses a second award for the same (user, reason, reference).
            try store.insertReward(RewardEntry(userID: "bob:2026", time: 1, xp: 31, reason: "run", ref: "12-01"))
            #expect(throws: StorageError.self) {
                try store.insertReward(RewardEntry(id: "other", userID: "bob:2026", time: 2, xp: 31, reason: "run", refID: "12-01"))
            }
            try store.close()
        }
    }
}
