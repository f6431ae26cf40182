import RunusCore

extension SQLiteStore: RunStore {
    /// Inserts a run; returns false, leaving the stored row as it was, when the runner has a run
    /// with that id (ingestion is idempotent on the client's run id).
    @discardableResult
    public func insertRun(_ run: RunRecord) throws -> Bool {
        try connection.withStatement(StoreSQL.insertRun) { s in
            try s.bind(run.userID, at: 1)
            try s.bind(run.id, at: 2)
            try s.bind(run.startTime, at: 3)
            try s.bind(run.distance, at: 4)
            try s.bind(run.elapsed, at: 5)
            try s.bind(run.moving, at: 6)
            try s.bind(run.elevationGain, at: 7)
            try s.bind(run.calories, at: 8)
            try s.bind(run.source, at: 9)
            try s.bind(run.rewarded ? 1 : 0, at: 10)
            try s.bind(run.unrewardedReason, at: 11)
            try s.bind(run.track, at: 12)
            try s.step()
            return connection.changes == 1
        }
    }

    /// One run of `user` with its track, or nil (also for a stored run that `checkedForReading`
    /// leaves out).
    public func run(user: UserID, id: String) throws -> RunRecord? {
        try connection.withStatement(StoreSQL.runByID) { s in
            try s.bind(user, at: 1)
            try s.bind(id, at: 2)
            guard try s.step() else { return nil }
            return checked(Self.run(from: s, track: s.optionalBlob(at: 11)))
        }
    }

    /// A runner's runs with `startTime` in [from, to), ordered by start time then id, without
    /// tracks.
    public func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        try connection.withStatement(StoreSQL.runsInRange) { s in
            try s.bind(user, at: 1)
            try s.bind(from, at: 2)
            try s.bind(to, at: 3)
            return try runs(from: s)
        }
    }

    /// The digests kept for `user`'s runs (record 0648).
    public func runDigests(user: UserID) throws -> [StoredRunDigest] {
        try connection.withStatement(StoreSQL.runDigests) { s in
            try s.bind(user, at: 1)
            var out: [StoredRunDigest] = []
            while try s.step() {
                out.append(StoredRunDigest(userID: user, runID: s.string(at: 0), start: s.double(at: 1),
                                           distance: s.double(at: 2), bytes: s.optionalBlob(at: 3) ?? []))
            }
            return out
        }
    }

    /// Keeps `digests` in one transaction; one whose run is not stored is skipped.
    public func storeRunDigests(_ digests: [StoredRunDigest]) throws {
        guard !digests.isEmpty else { return }
        try transaction {
            for digest in digests {
                try connection.withStatement(StoreSQL.storeRunDigest) { s in
                    try s.bind(digest.userID, at: 1)
                    try s.bind(digest.runID, at: 2)
                    try s.bind(digest.start, at: 3)
                    try s.bind(digest.distance, at: 4)
                    try s.bind(digest.bytes, at: 5)
                    try s.step()
                }
            }
        }
    }

    /// All of a runner's runs, ordered by start time then id, without tracks.
    public func allRuns(user: UserID) throws -> [RunRecord] {
        try connection.withStatement(StoreSQL.allRuns) { s in
            try s.bind(user, at: 1)
            return try runs(from: s)
        }
    }

    private func runs(from s: Statement) throws -> [RunRecord] {
        var runs: [RunRecord] = []
        while try s.step() {
            if let run = checked(Self.run(from: s, track: nil)) { runs.append(run) }
        }
        return runs
    }

    /// The run as `RunRecord.checkedForReading` lets the engine see it (logged when repaired
    /// or left out).
    private func checked(_ run: RunRecord) -> RunRecord? { StoredRunCheck.checked(run, log: log) }

    static func run(from s: Statement, track: [UInt8]?) -> RunRecord {
        RunRecord(id: s.string(at: 1), userID: s.string(at: 0), startTime: s.double(at: 2),
                  distance: s.double(at: 3), elapsed: s.double(at: 4), moving: s.double(at: 5),
                  elevationGain: s.double(at: 6), calories: s.optionalDouble(at: 7),
                  source: s.string(at: 8), track: track, rewarded: s.int(at: 9) != 0,
                  unrewardedReason: s.optionalString(at: 10))
    }
}

extension SQLiteStore: RunHistoryStore {}
