import Testing
import RunusCore
import Storage

@Suite("Store conformance: transactions are all or nothing")
struct TransactionConformanceTests {
    @Test("a throwing body rolls back every write of every table", arguments: StoreKind.allCases)
    func rollbackOnThrow(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(throws: Boom()) {
                try store.transaction {
                    try store.upsertUser(Sample.user("u1"))
                    try store.insertRun(Sample.run("r1", user: "u1", start: 1))
                    try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
                    try store.insertReward(RewardEntry(id: "w1", userID: "u1", time: 1, xp: 5, reason: "run"))
                    try store.insertBadge(BadgeAward(userID: "u1", badgeID: "first_run", awardedAt: 1))
                    try store.recordIngestAnswer(user: "u1", runID: "r1", answerJSON: "{}")
                    #expect(try store.runCount() == 1)  // visible inside
                    #expect(store.isInTransaction)
                    throw Boom()
                }
            }
            #expect(try store.totals().isEmpty)
            #expect(!store.isInTransaction)
        }
    }

    @Test("a committed body's value is returned and its writes stay", arguments: StoreKind.allCases)
    func commitReturnsValue(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let inserted = try store.transaction {
                try store.upsertUser(Sample.user("u1"))
                return try store.insertRun(Sample.run("r1", user: "u1", start: 1))
            }
            #expect(inserted)
            #expect(try store.runCount() == 1)
        }
    }

    @Test("a nested transaction that throws and is caught undoes only its own writes", arguments: StoreKind.allCases)
    func nestedCaught(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.transaction {
                try store.upsertUser(Sample.user("u1"))
                #expect(throws: Boom()) {
                    try store.transaction {
                        try store.upsertUser(Sample.user("u2"))
                        throw Boom()
                    }
                }
                try store.transaction {
                    try store.upsertUser(Sample.user("u3"))
                    try store.transaction { try store.upsertUser(Sample.user("u4")) }
                }
            }
            #expect(try store.allUsers().map(\.id) == ["u1", "u3", "u4"])
        }
    }

    @Test("a nested transaction whose statement fails can be caught, and the outer one commits", arguments: StoreKind.allCases)
    func nestedStatementFailureCaught(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
            try store.transaction {
                try store.insertRun(Sample.run("r1", user: "u1", start: 1))
                let error = #expect(throws: StorageError.self) {
                    try store.transaction {
                        try store.insertRun(Sample.run("r2", user: "u1", start: 2))
                        try store.insertAssignment(Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1))
                    }
                }
                #expect(error?.isConstraintViolation == true)
                try store.insertRun(Sample.run("r3", user: "u1", start: 3))
            }
            #expect(try store.allRuns(user: "u1").map(\.id) == ["r1", "r3"])
        }
    }

    @Test("a nested throw that escapes the outer body rolls back everything", arguments: StoreKind.allCases)
    func nestedEscapes(kind: StoreKind) throws {
        try withStore(kind) { store throws in
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
    }

    @Test("foreign keys are checked at commit; a dangling one fails COMMIT, stores nothing, store stays usable",
          arguments: StoreKind.allCases)
    func deferredForeignKeys(kind: StoreKind) throws {
        try withStore(kind) { store throws in
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
            #expect(error?.isConstraintViolation == true)
            #expect(error?.description.contains("COMMIT") == true)
            #expect(try store.userCount() == 1)
            #expect(try store.runCount() == 1)
            #expect(!store.isInTransaction)
            try store.upsertUser(Sample.user("u3"))  // autocommit works again
            #expect(try store.userCount() == 2)
        }
    }

    @Test("deleteUser removes every record of the runner in one go, and nobody else's", arguments: StoreKind.allCases)
    func deleteUser(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            for user in ["u1", "u2"] {
                try store.transaction {
                    try store.upsertUser(Sample.user(user))
                    try store.insertRun(Sample.run("r1", user: user, start: 1, track: [1]))
                    var a = Sample.assignment("a1", user: user, day: Sample.day, offeredAt: 1, status: .completed)
                    a.runID = "r1"
                    try store.insertAssignment(a)
                    try store.insertReward(RewardEntry(userID: user, time: 1, xp: 10, reason: "run", ref: "r1"))
                    try store.insertBadge(BadgeAward(userID: user, badgeID: "first_run", awardedAt: 1, runID: "r1"))
                    try store.recordIngestAnswer(user: user, runID: "r1", answerJSON: "{}")
                }
            }
            let before = try store.totals()
            #expect(try store.deleteUser(id: "u1"))
            #expect(try store.deleteUser(id: "u1") == false)
            #expect(try store.user(id: "u1") == nil)
            #expect(try store.allRuns(user: "u1").isEmpty && store.rewards(user: "u1").isEmpty && store.badges(user: "u1").isEmpty)
            #expect(try store.ingestAnswer(user: "u1", runID: "r1") == nil)
            let after = try store.totals()
            #expect(after.users == before.users - 1 && after.runs == before.runs - 1 && after.assignments == before.assignments - 1)
            #expect(after.rewards == before.rewards - 1 && after.badges == before.badges - 1 && after.ingestAnswers == before.ingestAnswers - 1)
            #expect(try store.ingestAnswer(user: "u2", runID: "r1") == "{}")
        }
    }

    @Test("removeAllRecords leaves an empty database that takes new records", arguments: StoreKind.allCases)
    func removeAll(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            try store.insertRun(Sample.run("r1", user: "u1", start: 1))
            try store.insertReward(RewardEntry(userID: "u1", time: 1, xp: 10, reason: "run", ref: "r1"))
            try store.removeAllRecords()
            #expect(try store.totals().isEmpty)
            try store.upsertUser(Sample.user("u1"))
            #expect(try store.userCount() == 1)
        }
    }
}
