import RunusCore

extension SQLiteStore: DatabaseStore {
    /// The file's path.
    public var location: String { path }

    public func totals() throws -> StoreTotals {
        try connection.withStatement(StoreSQL.totals) { s in
            var t = StoreTotals()
            guard try s.step() else { return t }
            t.users = s.int(at: 0); t.runs = s.int(at: 1); t.runsWithTrack = s.int(at: 2); t.trackBytes = s.int(at: 3)
            t.distanceSum = s.double(at: 4); t.assignments = s.int(at: 5); t.completedAssignments = s.int(at: 6)
            t.rewards = s.int(at: 7); t.xpSum = s.int(at: 8); t.badges = s.int(at: 9); t.ingestAnswers = s.int(at: 10)
            t.races = s.int(at: 11); t.raceEntries = s.int(at: 12); t.raceResults = s.int(at: 13)
            return t
        }
    }

    /// A runner's runs as stored, with tracks, by start time then id (no read check).
    public func storedRuns(user: UserID) throws -> [RunRecord] {
        try connection.withStatement(StoreSQL.storedRuns) { s in
            try s.bind(user, at: 1)
            var runs: [RunRecord] = []
            while try s.step() { runs.append(Self.run(from: s, track: s.optionalBlob(at: 11))) }
            return runs
        }
    }

    public func storedAssignments(user: UserID) throws -> [MissionAssignment] {
        try connection.withStatement(StoreSQL.storedAssignments) { s in
            try s.bind(user, at: 1)
            return try Self.assignments(from: s)
        }
    }

    public func ingestAnswers(user: UserID) throws -> [StoredIngestAnswer] {
        try connection.withStatement(StoreSQL.ingestAnswers) { s in
            try s.bind(user, at: 1)
            var answers: [StoredIngestAnswer] = []
            while try s.step() { answers.append(StoredIngestAnswer(runID: s.string(at: 0), answerJSON: s.string(at: 1))) }
            return answers
        }
    }

    /// Every race, cancelled ones too, by start time then id.
    public func allRaces() throws -> [StoredRace] {
        try connection.withStatement(StoreSQL.allRaces) { s in
            var races: [StoredRace] = []
            while try s.step() { races.append(Self.race(from: s)) }
            return races
        }
    }

    public func removeAllRecords() throws {
        try transaction { for sql in StoreSQL.removeAll { try connection.run(sql) } }
    }
}
