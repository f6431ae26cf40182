import Testing
import RunusCore
import Storage

/// The store conformance suite: every test runs against SQLite and PostgreSQL alike (the
/// PostgreSQL case is cancelled, saying why, when RUNUS_TEST_POSTGRES is unset).
@Suite("Store conformance: records survive a write and a read unchanged")
struct RoundTripConformanceTests {
    @Test("a user profile round-trips, with all fields and with every optional nil", arguments: StoreKind.allCases)
    func userRoundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            for full in [true, false] {
                let user = Sample.user("u-\(full)", full: full)
                try store.upsertUser(user)
                #expect(try store.user(id: user.id) == user)
            }
            #expect(try store.user(id: "nobody") == nil)
        }
    }

    @Test("upserting a user replaces every field, keeping one row", arguments: StoreKind.allCases)
    func userUpsertReplaces(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let changed = UserProfile(id: "u1", birthYear: nil, sex: "x", heightCm: nil, weightKg: 80,
                                      timeZone: "Asia/Tokyo", utcOffsetSeconds: 32400, displayName: nil)
            try store.upsertUser(changed)
            #expect(try store.user(id: "u1") == changed)
            #expect(try store.userCount() == 1)
        }
    }

    @Test("a run round-trips bit for bit with a track, an empty track, no track and no calories", arguments: StoreKind.allCases)
    func runRoundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let bytes: [UInt8] = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) } + [0, 0, 255]
            var odd = Sample.run("r4", user: "u1", start: 1_760_259_200.000_000_1, calories: 0.1 + 0.2)
            odd.distance = 1e-300; odd.elevationGain = Double.leastNonzeroMagnitude; odd.rewarded = false; odd.unrewardedReason = "too_old"
            let runs = [
                Sample.run("r1", user: "u1", start: 1_760_000_000.125, track: bytes),
                Sample.run("r2", user: "u1", start: 1_760_086_400, track: [], calories: nil),
                Sample.run("r3", user: "u1", start: 1_760_172_800, track: nil),
                odd,
            ]
            for run in runs { #expect(try store.insertRun(run)) }
            for run in runs {
                let read = try store.run(user: run.userID, id: run.id)
                #expect(read == run)
                #expect(read?.startTime.bitPattern == run.startTime.bitPattern)
            }
            #expect(try store.run(user: "u1", id: "r2")?.track == [])  // empty is not NULL
            #expect(try store.run(user: "u1", id: "missing") == nil)
            let listed = try store.runs(user: "u1", from: 0, to: 2_000_000_000)
            #expect(listed.map(\.track) == [nil, nil, nil, nil])  // ranges leave the track out
            #expect(listed == runs.map { var r = $0; r.track = nil; return r })
            #expect(try store.allRuns(user: "u1") == listed)
        }
    }

    @Test("an assignment round-trips before and after an update, with nil and set optionals", arguments: StoreKind.allCases)
    func assignmentRoundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
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
            #expect(try store.decidedAssignments() == [a, b])
        }
    }

    @Test("updating an unknown assignment throws notFound", arguments: StoreKind.allCases)
    func updateUnknown(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(throws: StorageError.notFound(table: "mission_assignments", id: "nope")) {
                try store.updateAssignment(user: "u1", id: "nope", status: .expired, runID: nil, progress: nil)
            }
        }
    }

    @Test("inserting a run twice returns false and leaves the first row as it was", arguments: StoreKind.allCases)
    func idempotentRunInsert(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let first = Sample.run("r1", user: "u1", start: 100, track: [1, 2, 3])
            #expect(try store.insertRun(first))
            var second = Sample.run("r1", user: "u1", start: 999, track: [9])
            second.distance = 1; second.source = "app"
            #expect(try store.insertRun(second) == false)
            #expect(try store.run(user: "u1", id: "r1") == first)
            #expect(try store.runCount() == 1)
        }
    }

    @Test("text with quotes and SQL is stored verbatim, because values are bound", arguments: StoreKind.allCases)
    func hostileText(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let texts = ["'; DROP TABLE users; --", #"Robert'); DROP TABLE runs;--"#, "\"double\" 'single' `back` $1 ?",
                         "émoji 🏃‍♀️ ünïcode", "", "back\\slash \\x00"]
            for text in texts {
                let user = UserProfile(id: "u" + text, sex: text, timeZone: text, displayName: text)
                try store.upsertUser(user)
                #expect(try store.user(id: user.id) == user)
                let run = RunRecord(id: text, userID: user.id, startTime: 1, distance: 2, elapsed: 4, moving: 3,
                                    elevationGain: 5, source: text)
                #expect(try store.insertRun(run))
                #expect(try store.run(user: user.id, id: text) == run)
            }
            #expect(try store.userCount() == texts.count)
            #expect(try store.runCount() == texts.count)
        }
    }

    @Test("a reference to an unknown user is refused (at commit), and nothing is stored", arguments: StoreKind.allCases)
    func foreignKeyEnforced(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let error = #expect(throws: StorageError.self) {
                try store.insertRun(Sample.run("r1", user: "ghost", start: 1))
            }
            #expect(error?.isConstraintViolation == true)
            #expect(try store.runCount() == 0)
        }
    }

    @Test("a duplicate assignment id throws a constraint error naming the statement", arguments: StoreKind.allCases)
    func duplicateAssignment(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let a = Sample.assignment("a1", user: "u1", day: Sample.day, offeredAt: 1)
            try store.insertAssignment(a)
            let error = #expect(throws: StorageError.self) { try store.insertAssignment(a) }
            #expect(error?.isConstraintViolation == true)
            #expect(error?.description.contains("INSERT INTO mission_assignments") == true)
            #expect(try store.assignmentCount() == 1)
        }
    }
}

/// Digests of stored runs (record 0648): derived data kept beside the runs, on both stores.
@Suite("Store conformance: run digests")
struct RunDigestConformanceTests {
    static func digest(_ run: RunRecord, _ bytes: [UInt8]) -> StoredRunDigest {
        StoredRunDigest(userID: run.userID, runID: run.id, start: run.startTime, distance: run.distance, bytes: bytes)
    }

    @Test("kept bit for bit, replaced, skipped without their run, and deleted with the runner", arguments: StoreKind.allCases)
    func keptReplacedDeleted(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            try store.upsertUser(Sample.user("u2"))
            let a = Sample.run("r1", user: "u1", start: 1_760_000_000.000_000_1)
            var b = Sample.run("r2", user: "u1", start: 1_760_086_400)
            b.distance = 0.1 + 0.2
            let other = Sample.run("r1", user: "u2", start: 1_760_000_000)
            for run in [a, b, other] { #expect(try store.insertRun(run)) }
            let bytes: [UInt8] = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [0, 255]
            try store.storeRunDigests([Self.digest(a, bytes), Self.digest(b, [1, 0]), Self.digest(other, [9]),
                                       StoredRunDigest(userID: "u1", runID: "no-such-run", start: 1, distance: 1, bytes: [1])])
            let kept = try store.runDigests(user: "u1").sorted { $0.runID < $1.runID }
            #expect(kept == [Self.digest(a, bytes), Self.digest(b, [1, 0])])
            #expect(kept.first?.matches(a) == true && kept.last?.matches(b) == true)
            #expect(kept.first?.start.bitPattern == a.startTime.bitPattern && kept.last?.distance.bitPattern == b.distance.bitPattern)
            // Replaced, the last of two for one run kept.
            try store.storeRunDigests([Self.digest(a, [2]), Self.digest(a, [3])])
            #expect(try store.runDigests(user: "u1").first { $0.runID == "r1" }?.bytes == [3])
            #expect(try store.deleteUser(id: "u1"))
            #expect(try store.runDigests(user: "u1").isEmpty)
            #expect(try store.runDigests(user: "u2") == [Self.digest(other, [9])])
        }
    }
}
