import Testing
import RunusCore
@testable import Storage

@Suite("Records survive a write and a read unchanged")
struct RoundTripTests {
    @Test("a user profile round-trips, with all fields and with every optional nil",
          arguments: [true, false])
    func userRoundTrip(full: Bool) throws {
        let store = try SQLiteStore(path: ":memory:")
        let user = Sample.user("u1", full: full)
        try store.upsertUser(user)
        #expect(try store.user(id: "u1") == user)
        #expect(try store.user(id: "nobody") == nil)
    }

    @Test("upserting a user replaces every field, keeping one row")
    func userUpsertReplaces() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(Sample.user("u1"))
        let changed = UserProfile(id: "u1", birthYear: nil, sex: "x", heightCm: nil, weightKg: 80,
                                  timeZone: "Asia/Tokyo", utcOffsetSeconds: 32400)
        try store.upsertUser(changed)
        #expect(try store.user(id: "u1") == changed)
        #expect(try store.userCount() == 1)
    }

    @Test("a run round-trips with a track, an empty track, no track and no calories")
    func runRoundTrip() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(Sample.user("u1"))
        let bytes: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) } + [0, 0, 255]
        let runs = [
            Sample.run("r1", user: "u1", start: 1_760_000_000.125, track: bytes),
            Sample.run("r2", user: "u1", start: 1_760_086_400, track: [], calories: nil),
            Sample.run("r3", user: "u1", start: 1_760_172_800, track: nil),
        ]
        for run in runs { #expect(try store.insertRun(run)) }
        for run in runs { #expect(try store.run(user: run.userID, id: run.id) == run) }
        #expect(try store.run(user: "u1", id: "r2")?.track == [])  // empty blob is not NULL
        #expect(try store.run(user: "u1", id: "missing") == nil)
        // Range queries leave the track out.
        let listed = try store.runs(user: "u1", from: 0, to: 2_000_000_000)
        #expect(listed.map(\.track) == [nil, nil, nil])
        #expect(listed.map { var r = $0; r.track = nil; return r } == runs.map { var r = $0; r.track = nil; return r })
    }

    @Test("an assignment round-trips before and after an update, with nil and set optionals")
    func assignmentRoundTrip() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(Sample.user("u1"))
        try store.insertRun(Sample.run("r1", user: "u1", start: 1_760_000_000))
        var a = Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1_760_000_000.5)
        try store.insertAssignment(a)
        #expect(try store.assignments(user: "u1", day: Sample.day) == [a])

        try store.updateAssignment(user: "u1", id: "a1", status: .completed, runID: "r1", progress: 1)
        a.status = .completed; a.runID = "r1"; a.progress = 1
        #expect(try store.assignments(user: "u1", day: Sample.day) == [a])

        var b = Sample.assignment("a2", user: "u1", day: Sample.day, offeredAt: 1_760_000_001)
        b.pTrue = 0.4375; b.status = .failed; b.runID = "r1"; b.progress = 0.25
        try store.insertAssignment(b)
        #expect(try store.assignments(user: "u1", day: Sample.day) == [a, b])
    }

    @Test("updating an unknown assignment throws notFound")
    func updateUnknown() throws {
        let store = try SQLiteStore(path: ":memory:")
        #expect(throws: StorageError.notFound(table: "mission_assignments", id: "nope")) {
            try store.updateAssignment(user: "u1", id: "nope", status: .expired, runID: nil, progress: nil)
        }
    }

    @Test("a reward round-trips with and without a reference id")
    func rewardRoundTrip() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(Sample.user("u1"))
        let rewards = [
            RewardEntry(id: "w1", userID: "u1", time: 1_760_000_000.25, xp: 50, reason: "run", refID: "r1"),
            RewardEntry(id: "w2", userID: "u1", time: 1_760_000_100, xp: -5, reason: "badge", refID: nil),
        ]
        for r in rewards { try store.insertReward(r) }
        #expect(try store.rewards(user: "u1") == rewards)
        #expect(try store.rewards(user: "u2") == [])
    }

    @Test("inserting a run twice returns false and leaves the first row as it was")
    func idempotentRunInsert() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(Sample.user("u1"))
        let first = Sample.run("r1", user: "u1", start: 100, track: [1, 2, 3])
        #expect(try store.insertRun(first))
        var second = Sample.run("r1", user: "u1", start: 999, track: [9])
        second.distance = 1; second.source = "app"
        #expect(try store.insertRun(second) == false)
        #expect(try store.run(user: "u1", id: "r1") == first)
        #expect(try store.runCount() == 1)
    }

    @Test("text with quotes and SQL is stored verbatim, because values are bound",
          arguments: ["'; DROP TABLE users; --", #"Robert'); DROP TABLE runs;--"#, "\"double\" 'single' `back`",
                      "nul\u{0}inside", "émoji 🏃‍♀️ ünïcode", ""])
    func hostileText(_ text: String) throws {
        let store = try SQLiteStore(path: ":memory:")
        let user = UserProfile(id: text, sex: text, timeZone: text)
        try store.upsertUser(user)
        #expect(try store.user(id: text) == user)
        let run = RunRecord(id: text, userID: text, startTime: 1, distance: 2, elapsed: 4, moving: 3,
                            elevationGain: 5, source: text)
        #expect(try store.insertRun(run))
        #expect(try store.run(user: text, id: text) == run)
        #expect(try store.allUsers() == [user])
        #expect(try store.userCount() == 1)
        #expect(try store.runCount() == 1)
    }

    @Test("a reference to an unknown user is refused at commit")
    func foreignKeyEnforced() throws {
        let store = try SQLiteStore(path: ":memory:")
        let error = #expect(throws: StorageError.self) {
            try store.insertRun(Sample.run("r1", user: "ghost", start: 1))
        }
        #expect(error?.sqliteCode == 19)  // SQLITE_CONSTRAINT
        #expect(try store.runCount() == 0)
    }

    @Test("a duplicate assignment id throws a constraint error naming the statement")
    func duplicateAssignment() throws {
        let store = try SQLiteStore(path: ":memory:")
        try store.upsertUser(Sample.user("u1"))
        let a = Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1)
        try store.insertAssignment(a)
        let error = #expect(throws: StorageError.self) { try store.insertAssignment(a) }
        #expect(error?.sqliteCode == 19)
        #expect(error?.description.contains("INSERT INTO mission_assignments") == true)
        #expect(error?.description.contains("UNIQUE") == true)
    }
}
