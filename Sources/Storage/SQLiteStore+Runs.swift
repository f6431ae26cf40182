import RunusCore

extension SQLiteStore: RunStore {
    /// Columns of a run without its track, in the order `run(from:track:)` reads them.
    private static let summaryColumns =
        "id, user_id, start_time, distance_m, elapsed_s, moving_s, elevation_gain_m, calories_kcal, source"

    /// Inserts a run; returns false, leaving the stored row as it was, when the id exists
    /// (ingestion is idempotent on the client's run id).
    @discardableResult
    public func insertRun(_ run: RunRecord) throws -> Bool {
        try connection.withStatement("""
            INSERT INTO runs (\(Self.summaryColumns), track) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO NOTHING
            """) { s in
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
        try connection.withStatement("SELECT \(Self.summaryColumns), track FROM runs WHERE id = ?") { s in
            try s.bind(id, at: 1)
            guard try s.step() else { return nil }
            return Self.run(from: s, track: s.optionalBlob(at: 9))
        }
    }

    /// A runner's runs with `startTime` in [from, to), ordered by start time then id, without
    /// tracks.
    public func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        try connection.withStatement("""
            SELECT \(Self.summaryColumns) FROM runs
            WHERE user_id = ? AND start_time >= ? AND start_time < ? ORDER BY start_time, id
            """) { s in
            try s.bind(user, at: 1)
            try s.bind(from, at: 2)
            try s.bind(to, at: 3)
            return try Self.runs(from: s)
        }
    }

    /// All of a runner's runs, ordered by start time then id, without tracks.
    public func allRuns(user: UserID) throws -> [RunRecord] {
        try connection.withStatement(
            "SELECT \(Self.summaryColumns) FROM runs WHERE user_id = ? ORDER BY start_time, id"
        ) { s in
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
