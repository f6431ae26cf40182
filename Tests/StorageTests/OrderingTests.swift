import Testing
import RunusCore
@testable import Storage

/// Each query's order is checked against a slow oracle: the same records filtered and sorted in
/// Swift. Records are inserted in a shuffled order with deliberate ties on the sort key, so an
/// order that only happens to match insertion order or rowid order would be caught.
@Suite("Queries return the orderings Stores.swift documents")
struct OrderingTests {
    static let users = ["u-b", "u-a", "U-c", "u-ä"]
    static let baseDay = CivilDate(year: 2026, month: 1, day: 30)!

    @Test("allUsers is ordered by id bytes")
    func usersById() throws {
        let store = try SQLiteStore(path: ":memory:")
        for id in Self.users { try store.upsertUser(Sample.user(id)) }
        #expect(try store.allUsers().map(\.id) == Self.users.sorted(by: binaryLess))
    }

    @Test("runs in [from, to) come ordered by start time then id, per user")
    func runsOrdered() throws {
        var rng = SeededGenerator(seed: 401)
        let store = try SQLiteStore(path: ":memory:")
        for id in Self.users { try store.upsertUser(Sample.user(id)) }
        var all: [RunRecord] = []
        for i in 0..<300 {
            let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
            // 40 distinct start times for 300 runs: many ties, broken by id.
            let start = 1_700_000_000 + Double(rng.int(in: 0...39)) * 3600
            all.append(Sample.run("r\(rng.int(in: 0...999_999))-\(i)", user: user, start: start))
        }
        all.shuffle(using: &rng)
        try store.transaction { for run in all { try store.insertRun(run) } }

        for _ in 0..<20 {
            let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
            let from = 1_700_000_000 + Double(rng.int(in: -2...40)) * 3600
            let to = from + Double(rng.int(in: 0...20)) * 3600
            let expected = all.filter { $0.userID == user && $0.startTime >= from && $0.startTime < to }
                .sorted { keyThenID($0.startTime, $0.id, $1.startTime, $1.id) }
            #expect(try store.runs(user: user, from: from, to: to).map(\.id) == expected.map(\.id))
        }
        for user in Self.users {
            let expected = all.filter { $0.userID == user }
                .sorted { keyThenID($0.startTime, $0.id, $1.startTime, $1.id) }
            #expect(try store.allRuns(user: user).map(\.id) == expected.map(\.id))
        }
    }

    @Test("assignments: insertion order per day, day then insertion over a range, decided ones by offeredAt then id")
    func assignmentsOrdered() throws {
        var rng = SeededGenerator(seed: 402)
        let store = try SQLiteStore(path: ":memory:")
        for id in Self.users { try store.upsertUser(Sample.user(id)) }
        var inserted: [MissionAssignment] = []
        for i in 0..<400 {
            let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
            let day = Self.baseDay.adding(days: rng.int(in: 0...9))
            let status = MissionStatus.allCases[rng.int(in: 0...3)]
            // Ids are random, so insertion order differs from id order; offeredAt has ties.
            let offered = 1_700_000_000 + Double(rng.int(in: 0...50))
            inserted.append(Sample.assignment("a\(rng.int(in: 0...999_999))-\(i)", user: user, day: day,
                                              offeredAt: offered, status: status))
        }
        try store.transaction { for a in inserted { try store.insertAssignment(a) } }

        for user in Self.users {
            for offset in 0...9 {
                let day = Self.baseDay.adding(days: offset)
                let expected = inserted.filter { $0.userID == user && $0.day == day }
                #expect(try store.assignments(user: user, day: day) == expected)
            }
            let from = Self.baseDay.adding(days: 2), to = Self.baseDay.adding(days: 6)
            // Stable sort by day keeps insertion order within a day.
            let ranged = inserted.enumerated()
                .filter { $0.element.userID == user && $0.element.day >= from && $0.element.day <= to }
                .sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)
            #expect(try store.assignments(user: user, from: from, to: to) == ranged)
        }
        let decided = inserted.filter { $0.status == .completed || $0.status == .failed }
            .sorted { keyThenID($0.offeredAt, $0.id, $1.offeredAt, $1.id) }
        #expect(try store.decidedAssignments() == decided)
    }

    @Test("a runner's rewards come ordered by time then id")
    func rewardsOrdered() throws {
        var rng = SeededGenerator(seed: 403)
        let store = try SQLiteStore(path: ":memory:")
        for id in Self.users { try store.upsertUser(Sample.user(id)) }
        var all: [RewardEntry] = []
        for i in 0..<200 {
            let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
            all.append(RewardEntry(id: "w\(rng.int(in: 0...999_999))-\(i)", userID: user,
                                   time: Double(rng.int(in: 0...30)), xp: rng.int(in: 1...100), reason: "run"))
        }
        try store.transaction { for r in all { try store.insertReward(r) } }
        for user in Self.users {
            let expected = all.filter { $0.userID == user }
                .sorted { keyThenID($0.time, $0.id, $1.time, $1.id) }
            #expect(try store.rewards(user: user) == expected)
        }
    }
}
