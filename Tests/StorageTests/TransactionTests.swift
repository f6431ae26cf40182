import Testing
import RunusCore
@testable import Storage

struct Boom: Error, Equatable {}

@Suite("Transactions are all or nothing")
struct TransactionTests {
    @Test("a throwing body rolls back every write of every table")
    func rollbackOnThrow() throws {
        let store = try SQLiteStore(path: ":memory:")
        #expect(throws: Boom()) {
            try store.transaction {
                try store.upsertUser(Sample.user("u1"))
                try store.insertRun(Sample.run("r1", user: "u1", start: 1))
                try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
                try store.insertReward(RewardEntry(id: "w1", userID: "u1", time: 1, xp: 5, reason: "run"))
                #expect(try store.runCount() == 1)  // visible inside
                throw Boom()
            }
        }
        #expect(try store.userCount() == 0)
        #expect(try store.runCount() == 0)
        #expect(try store.assignmentCount() == 0)
        #expect(try store.rewardCount() == 0)
        #expect(!store.connection.isInTransaction)
    }

    @Test("a committed body's value is returned and its writes stay")
    func commitReturnsValue() throws {
        let store = try SQLiteStore(path: ":memory:")
        let inserted = try store.transaction {
            try store.upsertUser(Sample.user("u1"))
            return try store.insertRun(Sample.run("r1", user: "u1", start: 1))
        }
        #expect(inserted)
        #expect(try store.runCount() == 1)
    }

    @Test("a nested transaction that throws and is caught undoes only its own writes")
    func nestedCaught() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.transaction {
            try store.upsertUser(Sample.user("u1"))
            #expect(store.connection.isInTransaction)
            #expect(throws: Boom()) {
                try store.transaction {
                    try store.upsertUser(Sample.user("u2"))
                    throw Boom()
                }
            }
            try store.transaction { try store.upsertUser(Sample.user("u3")) }
        }
        #expect(try store.allUsers().map(\.id) == ["u1", "u3"])
    }

    @Test("a nested throw that escapes the outer body rolls back everything")
    func nestedEscapes() throws {
        let store = try SQLiteStore(path: ":memory:")
        #expect(throws: Boom()) {
            try store.transaction {
                try store.upsertUser(Sample.user("u1"))
                try store.transaction {
                    try store.upsertUser(Sample.user("u2"))
                    throw Boom()
                }
            }
        }
        #expect(try store.userCount() == 0)
    }

    @Test("foreign keys are checked at commit; a dangling one fails COMMIT, stores nothing, store stays usable")
    func deferredForeignKeys() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.transaction {
            try store.insertRun(Sample.run("r1", user: "u1", start: 1))  // before its user
            try store.upsertUser(Sample.user("u1"))
        }
        #expect(try store.runCount() == 1)

        let error = #expect(throws: StorageError.self) {
            try store.transaction {
                try store.upsertUser(Sample.user("u2"))
                try store.insertRun(Sample.run("r2", user: "ghost", start: 2))
            }
        }
        #expect(error?.sqliteCode == 19)  // SQLITE_CONSTRAINT, reported by COMMIT
        #expect(error?.description.contains("COMMIT") == true)
        #expect(try store.userCount() == 1)
        #expect(try store.runCount() == 1)
        #expect(!store.connection.isInTransaction)
        try store.upsertUser(Sample.user("u3"))  // autocommit works again
        #expect(try store.userCount() == 2)
    }

    @Test("after close and reopen every committed row is there, and nothing rolled back is")
    func durableAcrossReopen() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            try store.transaction {
                try store.upsertUser(Sample.user("u1"))
                try store.insertRun(Sample.run("r1", user: "u1", start: 1, track: [7, 8, 9]))
                try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
            }
            try store.insertReward(RewardEntry(id: "w1", userID: "u1", time: 1, xp: 5, reason: "run"))
            _ = try? store.transaction { try store.upsertUser(Sample.user("u2")); throw Boom() }
            try store.close()
            try store.close()  // second close is harmless
            #expect(throws: StorageError.closed(operation: "statement SELECT COUNT(*) FROM runs")) {
                try store.runCount()
            }

            let reopened = try SQLiteStore(path: path)
            #expect(try reopened.allUsers() == [Sample.user("u1")])
            #expect(try reopened.run(user: "u1", id: "r1") == Sample.run("r1", user: "u1", start: 1, track: [7, 8, 9]))
            #expect(try reopened.assignmentCount() == 1)
            #expect(try reopened.rewards(user: "u1").count == 1)
            try reopened.close()
        }
    }
}
