import Testing
import RunusCore
import Storage

@Suite("Store conformance: db copy moves a whole database between the two")
struct CopyConformanceTests {
    static let pairs: [(StoreKind, StoreKind)] = [(.sqlite, .postgres), (.postgres, .sqlite), (.sqlite, .sqlite)]

    /// A small database with every kind of row, odd values included (a run the read check
    /// skips, NULLs, an empty track, shared ids across runners).
    static func fill(_ store: any DatabaseStore) throws {
        var rng = SeededGenerator(seed: 77)
        try store.transaction {
            for u in 0..<5 {
                let user = "runner-\(u)"
                try store.upsertUser(Sample.user(user, full: u % 2 == 0))
                for r in 0..<12 {
                    let track: [UInt8]? = r % 3 == 0 ? nil : (r % 3 == 1 ? [] : (0..<rng.int(in: 1...4000)).map { _ in UInt8(rng.int(in: 0...255)) })
                    var run = Sample.run("run-\(r)", user: user, start: 1_760_000_000 + Double(r) * 86_400 + 0.1, track: track)
                    run.distance = 1000 + Double(rng.int(in: 0...20_000)) / 7
                    if r == 11 { run.elapsed = 1e9 }  // left out by reads, kept by a copy
                    try store.insertRun(run)
                    var a = Sample.assignment("day-\(r)-1", user: user, day: Sample.day.adding(days: r),
                                              offeredAt: run.startTime - 3600, status: r % 2 == 0 ? .completed : .offered)
                    if a.status == .completed { a.runID = run.id; a.progress = 1; a.pTrue = 0.5 }
                    try store.insertAssignment(a)
                    try store.insertReward(RewardEntry(userID: user, time: run.startTime, xp: 10 + r, reason: "run", ref: run.id))
                    try store.recordIngestAnswer(user: user, runID: run.id, answerJSON: #"{"run":\#(r)}"#)
                    if r % 3 == 0 {
                        try store.storeRunDigests([StoredRunDigest(userID: user, runID: run.id, start: run.startTime,
                                                                   distance: run.distance, bytes: [1, 0, UInt8(r)])])
                    }
                }
                try store.insertBadge(BadgeAward(userID: user, badgeID: "first_run", awardedAt: 1_760_000_000.1, runID: "run-0"))
            }
            for r in 0..<3 {
                let race = RaceConformanceTests.race("race-\(r)", start: 1_760_500_000 + Double(r) * 3600, by: "runner-\(r)",
                                                     invite: r == 1 ? "invite" : nil)
                try store.insertRace(race)
                for seq in 1...(10 * (r + 1)) {
                    try store.appendRaceEntry(RaceLogEntry(raceID: race.id, seq: seq, kind: seq <= 2 ? .join : .position,
                                                           userID: "runner-\(seq % 2)", tokenDigest: SHA256.hex("t\(seq % 2)"),
                                                           time: race.startTime + Double(seq), points: seq <= 2 ? nil : [UInt8(seq), 1, 2]))
                }
            }
            try store.cancelRace(id: "race-2", at: 1_760_400_000)
            try store.insertRaceResults(RaceConformanceTests.results.map {
                StoredRaceResult(raceID: "race-0", rank: $0.rank, userID: $0.userID, status: $0.status, distance: $0.distance,
                                 finishTime: $0.finishTime, pace: $0.pace, gap: $0.gap, timeGap: $0.timeGap, xp: $0.xp,
                                 badges: $0.badges, finishedAt: $0.finishedAt)
            })
        }
    }

    @Test("every record arrives as it was, and the totals agree", arguments: pairs)
    func copies(from: StoreKind, to: StoreKind) throws {
        try withStore(from) { source in
            try Self.fill(source)
            try withStore(to) { destination in
                var reports: [(Int, Int)] = []
                let outcome = try DatabaseCopy.run(from: source, to: destination) { reports.append(($0, $1)) }
                #expect(outcome.mismatches == [])
                #expect(outcome.source == outcome.destination)
                #expect(outcome.source.users == 5 && outcome.source.runs == 60 && outcome.source.ingestAnswers == 60)
                #expect(reports.last.map { $0 == (5, 5) } == true)
                #expect(try destination.allUsers() == source.allUsers())
                for user in try source.allUsers().map(\.id) {
                    #expect(try destination.storedRuns(user: user) == source.storedRuns(user: user))
                    #expect(try destination.storedAssignments(user: user) == source.storedAssignments(user: user))
                    #expect(try destination.rewards(user: user) == source.rewards(user: user))
                    #expect(try destination.badges(user: user) == source.badges(user: user))
                    #expect(try destination.ingestAnswers(user: user) == source.ingestAnswers(user: user))
                    let digests = try source.runDigests(user: user).sorted { $0.runID < $1.runID }
                    #expect(digests.count == 4)
                    #expect(try destination.runDigests(user: user).sorted { $0.runID < $1.runID } == digests)
                    #expect(try destination.decidedAssignments() == source.decidedAssignments())
                }
                #expect(outcome.source.races == 3 && outcome.source.raceEntries == 60 && outcome.source.raceResults == 2)
                #expect(try destination.allRaces() == source.allRaces())
                for race in try source.allRaces() {
                    #expect(try destination.raceEntries(race: race.id) == source.raceEntries(race: race.id))
                    #expect(try destination.raceResults(race: race.id) == source.raceResults(race: race.id))
                }
            }
        }
    }

    @Test("a destination that holds anything is refused, and left as it was", arguments: pairs)
    func refusesNonEmpty(from: StoreKind, to: StoreKind) throws {
        try withStore(from) { source in
            try Self.fill(source)
            try withStore(to) { destination in
                try destination.upsertUser(Sample.user("someone"))
                let before = try destination.totals()
                #expect(throws: DatabaseCopyError.destinationNotEmpty(destination.location, before)) {
                    try DatabaseCopy.run(from: source, to: destination)
                }
                #expect(try destination.totals() == before)
            }
        }
    }

    @Test("totals name exactly the figures that differ")
    func totalsMismatch() {
        var a = StoreTotals()
        a.users = 2; a.runs = 3; a.distanceSum = 1e7; a.xpSum = 40
        var b = a
        #expect(a.mismatches(b) == [])
        b.distanceSum = 1e7 * (1 + StoreTotals.distanceRelativeTolerance / 2)
        #expect(a.mismatches(b) == [])
        b.distanceSum = 1e7 * (1 + 4 * StoreTotals.distanceRelativeTolerance)
        b.xpSum = 41
        #expect(a.mismatches(b) == ["distance sum (m)", "XP sum"])
        b = a
        b.distanceSum = .nan
        #expect(a.mismatches(b) == ["distance sum (m)"])
    }
}
