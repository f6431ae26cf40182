import Testing
import RunusCore
import Storage

/// Each query's order against a slow oracle: the same records filtered and sorted in Swift.
/// Records go in shuffled, with deliberate ties on the sort key and ids whose byte order is
/// not a locale's (upper case, accents), so that an order that only matches insertion order or
/// a collation other than bytes is caught.
@Suite("Store conformance: queries return the orderings Stores.swift documents")
struct OrderingConformanceTests {
    static let users = ["u-b", "u-a", "U-c", "u-ä", "u-B"]
    static let baseDay = CivilDate(year: 2026, month: 1, day: 30)!

    static func id(_ rng: inout SeededGenerator, _ i: Int) -> String {
        let stems = ["a", "B", "é", "Z", "b", "ä", "_", "0"]
        return stems[rng.int(in: 0...stems.count - 1)] + "\(rng.int(in: 0...999))-\(i)"
    }

    @Test("allUsers is ordered by id bytes", arguments: StoreKind.allCases)
    func usersById(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            for id in Self.users { try store.upsertUser(Sample.user(id)) }
            #expect(try store.allUsers().map(\.id) == Self.users.sorted(by: binaryLess))
        }
    }

    @Test("runs in [from, to) come ordered by start time then id, per user", arguments: StoreKind.allCases)
    func runsOrdered(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var rng = SeededGenerator(seed: 401)
            for id in Self.users { try store.upsertUser(Sample.user(id)) }
            var all: [RunRecord] = []
            for i in 0..<200 {
                let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
                let start = 1_700_000_000 + Double(rng.int(in: 0...29)) * 3600  // many ties
                all.append(Sample.run(Self.id(&rng, i), user: user, start: start))
            }
            all.shuffle(using: &rng)
            try store.transaction { for run in all { try store.insertRun(run) } }
            for _ in 0..<15 {
                let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
                let from = 1_700_000_000 + Double(rng.int(in: -2...30)) * 3600
                let to = from + Double(rng.int(in: 0...20)) * 3600
                let expected = all.filter { $0.userID == user && $0.startTime >= from && $0.startTime < to }
                    .sorted { keyThenID($0.startTime, $0.id, $1.startTime, $1.id) }
                #expect(try store.runs(user: user, from: from, to: to).map(\.id) == expected.map(\.id))
            }
            for user in Self.users {
                let expected = all.filter { $0.userID == user }.sorted { keyThenID($0.startTime, $0.id, $1.startTime, $1.id) }
                #expect(try store.allRuns(user: user).map(\.id) == expected.map(\.id))
                #expect(try store.storedRuns(user: user).map(\.id) == expected.map(\.id))
            }
        }
    }

    @Test("assignments: insertion order per day, day then insertion over a range, decided ones by offeredAt, id, user",
          arguments: StoreKind.allCases)
    func assignmentsOrdered(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var rng = SeededGenerator(seed: 402)
            for id in Self.users { try store.upsertUser(Sample.user(id)) }
            var inserted: [MissionAssignment] = []
            for i in 0..<240 {
                let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
                let day = Self.baseDay.adding(days: rng.int(in: 0...9))
                let status = MissionStatus.allCases[rng.int(in: 0...3)]
                let offered = 1_700_000_000 + Double(rng.int(in: 0...30))  // ties
                // The same id for several runners: ties on offeredAt and id break by user.
                let id = i % 7 == 0 ? "shared-\(rng.int(in: 0...3))" : Self.id(&rng, i)
                if inserted.contains(where: { $0.userID == user && $0.id == id }) { continue }
                inserted.append(Sample.assignment(id, user: user, day: day, offeredAt: offered, status: status))
            }
            try store.transaction { for a in inserted { try store.insertAssignment(a) } }
            for user in Self.users {
                for offset in 0...9 {
                    let day = Self.baseDay.adding(days: offset)
                    #expect(try store.assignments(user: user, day: day) == inserted.filter { $0.userID == user && $0.day == day })
                }
                let from = Self.baseDay.adding(days: 2), to = Self.baseDay.adding(days: 6)
                let ranged = inserted.enumerated()
                    .filter { $0.element.userID == user && $0.element.day >= from && $0.element.day <= to }
                    .sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)
                #expect(try store.assignments(user: user, from: from, to: to) == ranged)
                #expect(try store.storedAssignments(user: user) == inserted.filter { $0.userID == user })
            }
            let decided = inserted.filter { $0.status == .completed || $0.status == .failed }.sorted { a, b in
                if a.offeredAt != b.offeredAt { return a.offeredAt < b.offeredAt }
                if a.id != b.id { return binaryLess(a.id, b.id) }
                return binaryLess(a.userID, b.userID)
            }
            #expect(try store.decidedAssignments() == decided)
        }
    }

    @Test("a runner's rewards come by time then id, badges by award time then badge id, answers by run id",
          arguments: StoreKind.allCases)
    func ledgerOrdered(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var rng = SeededGenerator(seed: 403)
            for id in Self.users { try store.upsertUser(Sample.user(id)) }
            var rewards: [RewardEntry] = [], badges: [BadgeAward] = [], answers: [(UserID, StoredIngestAnswer)] = []
            for i in 0..<150 {
                let user = Self.users[rng.int(in: 0...Self.users.count - 1)]
                let id = Self.id(&rng, i)
                rewards.append(RewardEntry(id: id, userID: user, time: Double(rng.int(in: 0...20)), xp: rng.int(in: 1...100),
                                           reason: "run", refID: id))
                badges.append(BadgeAward(userID: user, badgeID: "b" + id, awardedAt: Double(rng.int(in: 0...20))))
                answers.append((user, StoredIngestAnswer(runID: id, answerJSON: #"{"n":\#(i)}"#)))
            }
            try store.transaction {
                for r in rewards { try store.insertReward(r) }
                for b in badges { try store.insertBadge(b) }
                for (user, a) in answers { try store.recordIngestAnswer(user: user, runID: a.runID, answerJSON: a.answerJSON) }
            }
            for user in Self.users {
                #expect(try store.rewards(user: user) == rewards.filter { $0.userID == user }
                    .sorted { keyThenID($0.time, $0.id, $1.time, $1.id) })
                #expect(try store.badges(user: user) == badges.filter { $0.userID == user }
                    .sorted { keyThenID($0.awardedAt, $0.badgeID, $1.awardedAt, $1.badgeID) })
                #expect(try store.ingestAnswers(user: user) == answers.filter { $0.0 == user }.map(\.1)
                    .sorted { binaryLess($0.runID, $1.runID) })
            }
        }
    }
}
