import Testing
import RunusCore
@testable import Storage

@Suite("The same writes make the same file")
struct DeterminismTests {
    /// A mixed workload: batches and autocommits, every table, updates, a duplicate run, a
    /// rolled-back transaction, blobs.
    static func write(_ store: SQLiteStore, extraUser: Bool = false) throws {
        var rng = SeededGenerator(seed: 404)
        try store.transaction {
            for u in 0..<20 { try store.upsertUser(Sample.user("u\(u)")) }
            for r in 0..<500 {
                let track = (0..<rng.int(in: 0...300)).map { _ in UInt8(rng.int(in: 0...255)) }
                try store.insertRun(Sample.run("r\(r)", user: "u\(r % 20)", start: Double(r) * 3600, track: track))
            }
        }
        for a in 0..<300 {
            try store.insertAssignment(Sample.assignment("a\(a)", user: "u\(a % 20)",
                                                         day: Sample.day.adding(days: a % 7),
                                                         offeredAt: Double(a)))
        }
        try store.transaction {
            for a in stride(from: 0, to: 300, by: 3) {
                try store.updateAssignment(user: "u\(a % 20)", id: "a\(a)", status: .completed, runID: "r\(a)", progress: 1)
            }
            try store.insertReward(RewardEntry(id: "w1", userID: "u1", time: 5, xp: 10, reason: "mission"))
        }
        try store.insertRun(Sample.run("r1", user: "u1", start: 0))  // duplicate: no change
        _ = try? store.transaction { try store.upsertUser(Sample.user("gone")); throw Boom() }
        try store.checkpoint()
        if extraUser { try store.upsertUser(Sample.user("different")) }
    }

    @Test("two fresh databases given the same writes are byte-identical files after close")
    func byteIdentical() throws {
        try withTemporaryDatabasePath("first") { first in
            try withTemporaryDatabasePath("second") { second in
                try withTemporaryDatabasePath("third") { third in
                    for (path, extra) in [(first, false), (second, false), (third, true)] {
                        let store = try SQLiteStore(path: path)
                        try Self.write(store, extraUser: extra)
                        try store.close()
                        #expect(!fileExists(path + "-wal"))
                        #expect(!fileExists(path + "-shm"))
                    }
                    let a = try fileBytes(first), b = try fileBytes(second), c = try fileBytes(third)
                    #expect(a.count > 100_000)
                    #expect(a == b)
                    #expect(a != c)  // the comparison can tell one row apart
                }
            }
        }
    }

    @Test("a closed file reopens in WAL mode with everything in it")
    func reopenAfterClose() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            try Self.write(store)
            try store.close()
            let reopened = try SQLiteStore(path: path)
            let mode = try reopened.connection.withStatement("PRAGMA journal_mode") { s in
                try s.step() ? s.string(at: 0) : ""
            }
            #expect(mode == "wal")
            #expect(try reopened.userCount() == 20)
            #expect(try reopened.runCount() == 500)
            #expect(try reopened.assignmentCount() == 300)
            #expect(try reopened.decidedAssignments().count == 100)
            #expect(try reopened.rewardCount() == 1)
            try reopened.close()
        }
    }
}
