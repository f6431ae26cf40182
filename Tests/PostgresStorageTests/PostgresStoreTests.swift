import Foundation
import Testing
import RunusCore
import Storage
@testable import PostgresStorage

/// What only the PostgreSQL store has: several connections, migrations under an advisory lock,
/// and PostgreSQL's own refusals.
@Suite("PostgreSQL store: pool, migrations and what PostgreSQL refuses")
struct PostgresStoreTests {
    @Test("transactions on 4 threads run side by side, each on its own connection")
    func concurrentTransactions() throws {
        var configuration = PostgresConfiguration()
        configuration.poolSize = 4
        try withStore(.postgres, configuration: configuration) { store throws in
            let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            let seen = Observations()
            let finished = DispatchGroup()
            for t in 0..<4 {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    do {
                        try store.transaction {
                            try store.upsertUser(Sample.user("u\(t)"))
                            arrived.signal()
                            // All four must be inside at once: serialised transactions never get here.
                            if release.wait(timeout: .now() + 20) == .timedOut { throw Boom() }
                        }
                    } catch {
                        seen.fail("thread \(t): \(error)")
                    }
                }.start()
            }
            var inside = 0
            for _ in 0..<4 where arrived.wait(timeout: .now() + 20) == .success { inside += 1 }
            let open = (store as? PostgresStore)?.openConnections
            for _ in 0..<4 { release.signal() }
            finished.wait()
            #expect(inside == 4)
            #expect(open == 4)
            #expect(seen.failures == [])
            #expect(try store.userCount() == 4)
        }
    }

    @Test("when every connection is busy a request waits up to acquireTimeout, then fails unavailable")
    func poolExhausted() throws {
        var configuration = PostgresConfiguration()
        configuration.poolSize = 1
        configuration.acquireTimeout = 0.3
        try withStore(.postgres, configuration: configuration) { store throws in
            let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            finished.enter()
            Thread {
                defer { finished.leave() }
                _ = try? store.transaction {
                    holding.signal()
                    _ = release.wait(timeout: .now() + 20)
                }
            }.start()
            holding.wait()
            let error = #expect(throws: StorageError.self) { _ = try store.userCount() }
            #expect(error?.unavailableReason?.contains("all 1 connections stayed busy") == true)
            release.signal()
            finished.wait()
            #expect(try store.userCount() == 0)
        }
    }

    @Test("replicas starting together on a new database migrate it once")
    func concurrentMigrations() throws {
        try TestServer.withSchema { uri, schema in
            let seen = Observations()
            onThreads(6) { t in
                do {
                    let store = try PostgresStore(uri: uri)
                    try store.upsertUser(Sample.user("u\(t)"))
                    try store.close()
                } catch {
                    seen.fail("replica \(t): \(error)")
                }
            }
            #expect(seen.failures == [])
            let admin = try TestServer.admin(try TestServer.requireURI())
            let rows = try admin.run(PGQuery("SELECT version FROM \(schema).runus_schema ORDER BY version"), [], prepare: false)
            #expect(try (0..<rows.count).map { try rows.int($0, 0) } == Array(1...PostgresStore.currentSchemaVersion))
            let users = try admin.run(PGQuery("SELECT count(*) FROM \(schema).users"), [], prepare: false)
            #expect(try users.int(0, 0) == 6)
        }
    }

    @Test("a database a newer build migrated is refused before anything is read")
    func schemaTooNew() throws {
        try TestServer.withSchema { uri, _ in
            let newer = PostgresSchema.migrations + [Migration(version: PostgresSchema.currentVersion + 1, sql: "CREATE TABLE later (x integer)")]
            try PostgresStore(uri: uri, configuration: .daemon, migrations: newer, log: { _ in }).close()
            let error = #expect(throws: StorageError.self) { _ = try PostgresStore(uri: uri) }
            guard case let .schemaTooNew(_, found, supported)? = error else {
                Issue.record("expected schemaTooNew, got \(String(describing: error))")
                return
            }
            #expect(found == PostgresSchema.currentVersion + 1 && supported == PostgresSchema.currentVersion)
        }
    }

    @Test("text holding U+0000 is refused with a clear error and nothing is stored (SQLite would keep it)")
    func nulInText() throws {
        try withStore(.postgres) { store throws in
            let error = #expect(throws: StorageError.self) { try store.upsertUser(UserProfile(id: "nul\u{0}inside")) }
            #expect(error?.description.contains("U+0000") == true)
            #expect(try store.userCount() == 0)
        }
    }

    @Test("a body that catches a failed statement and carries on has its transaction rolled back, and the error thrown")
    func caughtStatementFailure() throws {
        try withStore(.postgres) { store throws in
            try store.upsertUser(Sample.user("u1"))
            try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
            let error = #expect(throws: StorageError.self) {
                try store.transaction {
                    try store.insertRun(Sample.run("r1", user: "u1", start: 1))
                    _ = try? store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
                    _ = try? store.insertRun(Sample.run("r2", user: "u1", start: 2))
                }
            }
            #expect(error?.postgresState == "23505")  // the first failure, unique_violation
            #expect(try store.runCount() == 0)
            #expect(!store.isInTransaction)
        }
    }

    @Test("values keep every bit through the binary protocol: NaN, infinities, -0, subnormals, 2^53 + 1")
    func exactValues() throws {
        try withStore(.postgres) { store throws in
            let doubles: [Double] = [.nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1]
            try store.upsertUser(Sample.user("u"))
            for (i, d) in doubles.enumerated() {
                try store.insertReward(RewardEntry(id: "w\(i)", userID: "u", time: d, xp: (1 << 53) + 1, reason: "r\(i)"))
            }
            let stored = try store.rewards(user: "u")
            #expect(Set(stored.map(\.time.bitPattern)) == Set(doubles.map(\.bitPattern)))
            #expect(stored.allSatisfy { $0.xp == (1 << 53) + 1 })
        }
    }
}
