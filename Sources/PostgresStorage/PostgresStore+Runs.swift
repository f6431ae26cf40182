import RunusCore
import Storage

extension PostgresStore: RunStore {
    /// Inserts a run; returns false, leaving the stored row as it was, when the runner has a run
    /// with that id (ingestion is idempotent on the client's run id).
    @discardableResult
    public func insertRun(_ run: RunRecord) throws -> Bool {
        try write(PostgresSQL.insertRun, [
            .text(run.userID), .text(run.id), .double(run.startTime), .double(run.distance), .double(run.elapsed),
            .double(run.moving), .double(run.elevationGain), .double(run.calories), .text(run.source),
            .bool(run.rewarded), .text(run.unrewardedReason), .bytes(run.track),
        ]) == 1
    }

    /// One run of `user` with its track, or nil (also for a stored run that `checkedForReading`
    /// leaves out).
    public func run(user: UserID, id: String) throws -> RunRecord? {
        let rows = try rows(PostgresSQL.runByID, [.text(user), .text(id)])
        guard rows.count > 0 else { return nil }
        return checked(try Self.run(rows, 0, track: try rows.optionalBytes(0, 11)))
    }

    /// A runner's runs with `startTime` in [from, to), ordered by start time then id, without
    /// tracks.
    public func runs(user: UserID, from: EpochSeconds, to: EpochSeconds) throws -> [RunRecord] {
        try checkedRuns(try rows(PostgresSQL.runsInRange, [.text(user), .double(from), .double(to)]))
    }

    /// The digests kept for `user`'s runs (record 0648).
    public func runDigests(user: UserID) throws -> [StoredRunDigest] {
        let r = try rows(PostgresSQL.runDigests, [.text(user)])
        return try (0..<r.count).map { i in
            StoredRunDigest(userID: user, runID: try r.string(i, 0), start: try r.double(i, 1), distance: try r.double(i, 2),
                            bytes: try r.optionalBytes(i, 3) ?? [])
        }
    }

    /// Keeps `digests` in one statement; one whose run is not stored is skipped, and of two
    /// for the same run the last is kept.
    public func storeRunDigests(_ digests: [StoredRunDigest]) throws {
        var seen = Set<[String]>()
        let unique = digests.reversed().filter { seen.insert([$0.userID, $0.runID]).inserted }
        guard !unique.isEmpty else { return }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        let json = JSONWriter.string(.array(unique.map { d -> JSONValue in
            var text: [UInt8] = []
            text.reserveCapacity(d.bytes.count * 2)
            for byte in d.bytes { text.append(hex[Int(byte >> 4)]); text.append(hex[Int(byte & 0x0F)]) }
            return ["u": .string(d.userID), "r": .string(d.runID), "s": .number(d.start), "m": .number(d.distance),
                    "b": .string(String(decoding: text, as: UTF8.self))]
        }))
        _ = try write(PostgresSQL.storeRunDigests, [.text(json)])
    }

    private func checkedRuns(_ rows: PGRows) throws -> [RunRecord] {
        var runs: [RunRecord] = []
        runs.reserveCapacity(rows.count)
        for i in 0..<rows.count {
            if let run = checked(try Self.run(rows, i, track: nil)) { runs.append(run) }
        }
        return runs
    }

    static func run(_ r: PGRows, _ i: Int, track: [UInt8]?) throws -> RunRecord {
        RunRecord(id: try r.string(i, 1), userID: try r.string(i, 0), startTime: try r.double(i, 2),
                  distance: try r.double(i, 3), elapsed: try r.double(i, 4), moving: try r.double(i, 5),
                  elevationGain: try r.double(i, 6), calories: try r.optionalDouble(i, 7),
                  source: try r.string(i, 8), track: track, rewarded: try r.bool(i, 9),
                  unrewardedReason: try r.optionalString(i, 10))
    }
}

extension PostgresStore: RunHistoryStore {
    /// All of a runner's runs, ordered by start time then id, without tracks.
    public func allRuns(user: UserID) throws -> [RunRecord] {
        try checkedRuns(try rows(PostgresSQL.allRuns, [.text(user)]))
    }
}
