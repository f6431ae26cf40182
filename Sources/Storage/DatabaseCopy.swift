import RunusCore

/// `runus db copy`: every record of one database into another, empty one (SQLite to PostgreSQL
/// or back, or between two of a kind), then both databases' totals side by side.
///
/// Runners are copied in batches, one destination transaction per batch: a runner's profile,
/// runs with tracks (and their digests, record 0648), assignments in insertion order, ledger,
/// badges and ingest answers. Rows go
/// in as stored (`DatabaseStore.storedRuns`: nothing repaired or left out). Assignment
/// insertion order is kept per runner, which is all `MissionStore` promises. Then the races
/// (record 0526), cancelled ones too, with their logs in `seq` order and their results.
public enum DatabaseCopy {
    public struct Outcome: Sendable {
        public var source: StoreTotals
        public var destination: StoreTotals
        /// Figures that differ (`StoreTotals.mismatches`); empty when the copy checks out.
        public var mismatches: [String]
    }

    /// Runners per destination transaction: large enough that commits (an fsync each) do not
    /// dominate, small enough that a batch of tracked runners stays a few MB in memory.
    public static let runnersPerTransaction = 16
    /// Races per destination transaction (a race's log of positions may hold thousands of rows).
    public static let racesPerTransaction = 8

    /// Copies `source` into `destination`, which must hold nothing; `progress` hears runners
    /// copied and the total after each batch.
    public static func run(from source: any DatabaseStore, to destination: any DatabaseStore,
                           progress: ((Int, Int) -> Void)? = nil) throws -> Outcome {
        let before = try destination.totals()
        guard before.isEmpty else { throw DatabaseCopyError.destinationNotEmpty(destination.location, before) }
        let users = try source.allUsers()
        var done = 0
        while done < users.count {
            let batch = users[done..<min(users.count, done + runnersPerTransaction)]
            let records = try batch.map { try RunnerRecords(of: $0, in: source) }
            // The body only writes: a server store may run it again (TransactionalStore).
            try destination.transaction {
                for runner in records { try runner.insert(into: destination) }
            }
            done += batch.count
            progress?(done, users.count)
        }
        let races = try source.allRaces()
        var copied = 0
        while copied < races.count {
            let batch = races[copied..<min(races.count, copied + racesPerTransaction)]
            let records = try batch.map { race in (race, try source.raceEntries(race: race.id), try source.raceResults(race: race.id)) }
            try destination.transaction {
                for (race, entries, results) in records {
                    try destination.insertRace(race)
                    for entry in entries { try destination.appendRaceEntry(entry) }
                    if !results.isEmpty { try destination.insertRaceResults(results) }
                }
            }
            copied += batch.count
        }
        let totals = (source: try source.totals(), destination: try destination.totals())
        return Outcome(source: totals.source, destination: totals.destination,
                       mismatches: totals.source.mismatches(totals.destination))
    }

    /// Everything one runner has, read from the source.
    struct RunnerRecords {
        let profile: UserProfile
        let runs: [RunRecord]
        let assignments: [MissionAssignment]
        let rewards: [RewardEntry]
        let badges: [BadgeAward]
        let answers: [StoredIngestAnswer]
        /// Derived data (record 0648), copied so that the destination's daemons need not digest
        /// every track again; not among the checked totals.
        let digests: [StoredRunDigest]

        init(of profile: UserProfile, in store: any DatabaseStore) throws {
            self.profile = profile
            runs = try store.storedRuns(user: profile.id)
            assignments = try store.storedAssignments(user: profile.id)
            rewards = try store.rewards(user: profile.id)
            badges = try store.badges(user: profile.id)
            answers = try store.ingestAnswers(user: profile.id)
            digests = try store.runDigests(user: profile.id)
        }

        func insert(into store: any DatabaseStore) throws {
            try store.upsertUser(profile)
            for run in runs {
                guard try store.insertRun(run) else { throw DatabaseCopyError.duplicateRun(user: profile.id, id: run.id) }
            }
            try store.storeRunDigests(digests)
            for assignment in assignments { try store.insertAssignment(assignment) }
            for reward in rewards { try store.insertReward(reward) }
            for badge in badges { try store.insertBadge(badge) }
            for answer in answers {
                try store.recordIngestAnswer(user: profile.id, runID: answer.runID, answerJSON: answer.answerJSON)
            }
        }
    }
}

public enum DatabaseCopyError: Error, Equatable, CustomStringConvertible {
    /// The destination holds records; a copy never merges.
    case destinationNotEmpty(String, StoreTotals)
    /// The source gave one runner two runs with one id (it cannot, with its primary key).
    case duplicateRun(user: UserID, id: String)

    public var description: String {
        switch self {
        case let .destinationNotEmpty(location, totals):
            return "db copy: \(location) is not empty (\(totals.users) users, \(totals.runs) runs, "
                + "\(totals.assignments) assignments, \(totals.rewards) rewards); copy into an empty database"
        case let .duplicateRun(user, id):
            return "db copy: the source gave runner '\(user.prefix(64))' run '\(id.prefix(64))' twice"
        }
    }
}
