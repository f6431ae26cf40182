import RunusCore

extension SQLiteStore: RunStore {
    /// Inserts a run; returns false, leaving the stored row as it was, when the id exists
    /// (ingestion is idempotent on the client's run id).
    @discardableResult
    public func insertRun(_ run: RunRecord) throws -> Bool {
        try connection.withStatement(StoreSQL.insertRun) { s in
            try s.bind(run.id, at: 1)
            try s.bind(run.userID, at: 2)
            try s.bind(run.startTime, at: 3)
            try s.bind(run.distance, at: 4)
            try s.bind(run.elapsed, at: 5)
            try s.bind(run.moving, at: 6)
            try s.bind(run.elevationGain, at: 7)
            try s.bind(run.calories, at: 8)
            try s.bind(run.source, at: 9)
            try s.bind(run.track, at: 10)
            try s.step()
            return connection.changes == 1
        }
    }

    /// One run with its track, or nil.
    public func run(id: String) throws -> RunRecord? {
        try connection.withStatement(StoreSQL.runByID) { s in
            try s.bind(id, at: 1)
            guard try s.step() else { return nil }
            return Self.run(from: s, track: s.optionalBlob(at: 9))
        }
    }

    /// A runner's runs with `startTime` in [from, to), ordered by start time then id, without
    /// tracks.
    public func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        try connection.withStatement(StoreSQL.runsInRange) { s in
            try s.bind(user, at: 1)
            try s.bind(from, at: 2)
            try s.bind(to, at: 3)
            return try Self.runs(from: s)
        }
    }

    /// All of a runner's runs, ordered by start time then id, without tracks.
    public func allRuns(user: UserID) throws -> [RunRecord] {
        try connection.withStatement(StoreSQL.allRuns) { s in
            try s.bind(user, at: 1)
            return try Self.runs(from: s)
        }
    }

    private static func runs(from s: Statement) throws -> [RunRecord] {
        var runs: [RunRecord] = []
        while try s.step() { runs.append(run(from: s, track: nil)) }
        return runs
    }

    private static func run(from s: Statement, track: [UInt8]?) -> RunRecord {
        RunRecord(id: s.string(at: 0), userID: s.string(at: 1), startTime: s.double(at: 2),
                  distance: s.double(at: 3), elapsed: s.double(at: 4), moving: s.double(at: 5),
                  elevationGain: s.double(at: 6), calories: s.optionalDouble(at: 7),
                  source: s.string(at: 8), track: track)
    }
}
