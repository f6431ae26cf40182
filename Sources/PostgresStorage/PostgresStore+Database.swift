import RunusCore
import Storage

extension PostgresStore: DatabaseStore {
    public func userCount() throws -> Int { try count(PostgresSQL.userCount) }
    public func runCount() throws -> Int { try count(PostgresSQL.runCount) }
    public func assignmentCount() throws -> Int { try count(PostgresSQL.assignmentCount) }
    public func rewardCount() throws -> Int { try count(PostgresSQL.rewardCount) }

    public func totals() throws -> StoreTotals {
        let r = try rows(PostgresSQL.totals)
        var t = StoreTotals()
        guard r.count > 0 else { return t }
        t.users = try r.int(0, 0); t.runs = try r.int(0, 1); t.runsWithTrack = try r.int(0, 2); t.trackBytes = try r.int(0, 3)
        t.distanceSum = try r.double(0, 4); t.assignments = try r.int(0, 5); t.completedAssignments = try r.int(0, 6)
        t.rewards = try r.int(0, 7); t.xpSum = try r.int(0, 8); t.badges = try r.int(0, 9); t.ingestAnswers = try r.int(0, 10)
        t.races = try r.int(0, 11); t.raceEntries = try r.int(0, 12); t.raceResults = try r.int(0, 13)
        return t
    }

    /// A runner's runs as stored, with tracks, by start time then id (no read check).
    public func storedRuns(user: UserID) throws -> [RunRecord] {
        let r = try rows(PostgresSQL.storedRuns, [.text(user)])
        return try (0..<r.count).map { try Self.run(r, $0, track: try r.optionalBytes($0, 11)) }
    }

    public func storedAssignments(user: UserID) throws -> [MissionAssignment] {
        try Self.assignments(try rows(PostgresSQL.storedAssignments, [.text(user)]))
    }

    public func ingestAnswers(user: UserID) throws -> [StoredIngestAnswer] {
        let r = try rows(PostgresSQL.ingestAnswersOfUser, [.text(user)])
        return try (0..<r.count).map { StoredIngestAnswer(runID: try r.string($0, 0), answerJSON: try r.string($0, 1)) }
    }

    /// Every race, cancelled ones too, by start time then id.
    public func allRaces() throws -> [StoredRace] { try Self.races(try rows(PostgresSQL.allRaces)) }

    public func removeAllRecords() throws {
        try transaction { for query in PostgresSQL.removeAll { try write(query, []) } }
    }
}
