import RunusCore
import Storage

/// Durable races on PostgreSQL (docs/decisions/0526-durable-races.md), as SQLiteStore keeps them.
extension PostgresStore: RaceStore {
    public func insertRace(_ race: StoredRace) throws {
        try write(PostgresSQL.insertRace, [
            .text(race.id), .text(race.name), .double(race.distance), .double(race.startTime), .int(race.capacity),
            .bool(race.isPublic), .text(race.createdBy), .text(race.inviteDigest), .double(race.createdAt),
            .double(race.cancelledAt),
        ])
    }

    /// A READ COMMITTED transaction holding the database's race-creation lock (a
    /// transaction-scoped advisory lock): each statement of `body` sees every race another
    /// replica's creation committed before this one took the lock.
    public func creatingRace<T>(_ body: () throws -> T) throws -> T {
        try pool.readCommittedTransaction {
            _ = try rows(PostgresSQL.lockRaceCreation)
            return try body()
        }
    }

    public func cancelRace(id: String, at time: EpochSeconds) throws {
        try write(PostgresSQL.cancelRace, [.double(time), .text(id)])
    }

    public func activeRaces(startingFrom from: EpochSeconds) throws -> [StoredRace] {
        try Self.races(try rows(PostgresSQL.activeRaces, [.double(from)]))
    }

    public func races(user: UserID) throws -> [StoredRace] {
        try Self.races(try rows(PostgresSQL.racesOfUser, [.text(user)]))
    }

    public func appendRaceEntry(_ entry: RaceLogEntry) throws {
        try write(PostgresSQL.insertEntry, [
            .text(entry.raceID), .int(entry.seq), .text(entry.kind.rawValue), .text(entry.userID), .text(entry.tokenDigest),
            .double(entry.time), .bytes(entry.points),
        ])
    }

    /// A race's log; a row whose kind this build does not know, or whose numbers no command
    /// can have, is left out with a logged warning (the replay then refuses what depended on it).
    public func raceEntries(race: String) throws -> [RaceLogEntry] {
        entries(try rows(PostgresSQL.entries, [.text(race)]), race: race, from: 0)
    }

    /// Entries from the rows' column `from` on (race_id, seq, kind, user_id, token, time, points);
    /// rows whose entry columns are null (a left join without a match) are none.
    func entries(_ r: PGRows, race: String, from c: Int, rows: Range<Int>? = nil) -> [RaceLogEntry] {
        var entries: [RaceLogEntry] = []
        for i in rows ?? 0..<r.count where !r.isNull(i, c + 1) {
            guard let seq = try? r.int(i, c + 1), let time = try? r.double(i, c + 5), time.isFinite,
                  let kindText = try? r.string(i, c + 2), let kind = RaceLogEntry.Kind(rawValue: kindText),
                  let raceID = try? r.string(i, c), let user = try? r.string(i, c + 3),
                  let token = try? r.string(i, c + 4), r.isNull(i, c + 6) || (try? r.bytes(i, c + 6)) != nil else {
                log(#"{"level":"warning","event":"race_entry_skipped","race_id":"# + JSONWriter.string(.string(race))
                    + #","seq":\#((try? r.int(i, c + 1)) ?? 0)}"#)
                continue
            }
            entries.append(RaceLogEntry(raceID: raceID, seq: seq, kind: kind, userID: user, tokenDigest: token,
                                        time: time, points: r.isNull(i, c + 6) ? nil : try? r.bytes(i, c + 6)))
        }
        return entries
    }

    /// Replicas share the races (record 0541).
    public var racesAreShared: Bool { true }

    public func race(id: String) throws -> StoredRace? {
        try Self.races(try rows(PostgresSQL.race, [.text(id)])).first
    }

    public func raceTail(race: String, after seq: Int) throws -> RaceLogTail? {
        let r = try rows(PostgresSQL.raceTail, [.text(race), .int(seq)])
        guard r.count > 0 else { return nil }
        return RaceLogTail(cancelled: try r.bool(0, 0), entries: entries(r, race: race, from: 1))
    }

    public func raceTails(_ known: [(race: String, after: Int)]) throws -> [String: RaceLogTail] {
        guard !known.isEmpty else { return [:] }
        let json = JSONWriter.string(.array(known.map { ["id": .string($0.race), "after": .number(Double($0.after))] }))
        let r = try rows(PostgresSQL.raceTails, [.text(json)])
        var tails: [String: RaceLogTail] = [:]
        var i = 0
        while i < r.count {
            let race = try r.string(i, 0)
            var j = i
            while j < r.count, (try? r.string(j, 0)) == race { j += 1 }
            tails[race] = RaceLogTail(cancelled: try r.bool(i, 1), entries: entries(r, race: race, from: 2, rows: i..<j))
            i = j
        }
        return tails
    }

    /// `SELECT … FOR UPDATE` of the race's row in a READ COMMITTED transaction (record 0541):
    /// a second daemon's command of the same race waits for the first to commit, and its next
    /// statement then reads what the first appended. Never run again on a conflict: `build`
    /// changes the caller's memory (the pool's `readCommittedTransaction`).
    @discardableResult
    public func appendRaceEntry(race: String, after seq: Int, _ build: (RaceLogTail) throws -> RaceLogEntry?) throws -> Bool {
        try pool.readCommittedTransaction {
            let lock = try rows(PostgresSQL.lockRace, [.text(race)])
            guard lock.count > 0 else { throw StorageError.notFound(table: "races", id: race) }
            let cancelled = try lock.bool(0, 0)
            let tail = RaceLogTail(cancelled: cancelled,
                                   entries: entries(try rows(PostgresSQL.entriesAfter, [.text(race), .int(seq)]), race: race, from: 0))
            guard let entry = try build(tail) else { return false }
            // A position commits without waiting for the WAL flush, as SQLite's race appends
            // run at synchronous=NORMAL (record 0526 amendment): it survives any daemon's
            // crash; a crash of the server itself may lose the last ~0.6 s of positions
            // (3 × wal_writer_delay). Joins, leaves and results stay synchronous.
            if entry.kind == .position { try pool.boundConnection?.execute("SET LOCAL synchronous_commit TO OFF") }
            try appendRaceEntry(entry)
            return true
        }
    }

    /// One statement, `runus_append_race_entry` (record 0543); never sent twice: a lost answer
    /// may hide a commit, which the daemon's next catch-up then reads like another's entry.
    public func appendRaceEntryAtEnd(_ entry: RaceLogEntry, after: Int) throws -> [RaceLogEntry]? {
        let r = try pool.withConnection(idempotent: false) {
            try $0.run(PostgresSQL.appendAtEnd, [
                .text(entry.raceID), .int(after), .text(entry.kind.rawValue), .text(entry.userID), .text(entry.tokenDigest),
                .double(entry.time), .bytes(entry.points),
            ])
        }
        return r.count == 0 ? nil : entries(r, race: entry.raceID, from: 0)
    }

    public func insertRaceResults(_ results: [StoredRaceResult]) throws {
        try transaction {
            for x in results {
                try write(PostgresSQL.insertResult, [
                    .text(x.raceID), .int(x.rank), .text(x.userID), .text(x.status), .double(x.distance), .double(x.finishTime),
                    .double(x.pace), .double(x.gap), .double(x.timeGap), .int(x.xp),
                    .text(JSONWriter.string(.array(x.badges.map { .string($0) }))), .double(x.finishedAt),
                ])
            }
        }
    }

    public func raceResults(race: String) throws -> [StoredRaceResult] {
        let r = try rows(PostgresSQL.results, [.text(race)])
        return try (0..<r.count).map { i in
            // Badges written by this code are a JSON array of strings; anything else reads as none.
            let badges = (try? JSONParser.parse(try r.string(i, 10)))?.arrayValue?.compactMap(\.stringValue) ?? []
            return StoredRaceResult(raceID: try r.string(i, 0), rank: try r.int(i, 1), userID: try r.string(i, 2),
                                    status: try r.string(i, 3), distance: try r.double(i, 4), finishTime: try r.optionalDouble(i, 5),
                                    pace: try r.optionalDouble(i, 6), gap: try r.double(i, 7), timeGap: try r.optionalDouble(i, 8),
                                    xp: try r.int(i, 9), badges: badges, finishedAt: try r.double(i, 11))
        }
    }

    static func races(_ r: PGRows) throws -> [StoredRace] {
        try (0..<r.count).map { i in
            StoredRace(id: try r.string(i, 0), name: try r.string(i, 1), distance: try r.double(i, 2), startTime: try r.double(i, 3),
                       capacity: try r.int(i, 4), isPublic: try r.bool(i, 5), createdBy: try r.string(i, 6),
                       inviteDigest: try r.optionalString(i, 7), createdAt: try r.double(i, 8),
                       cancelledAt: try r.optionalDouble(i, 9))
        }
    }
}

/// Runners' generations (schema version 3, record 0541), read by the daemons' caches.
extension PostgresStore: GenerationStore {
    public func generation(user: UserID) throws -> Int64? {
        let r = try rows(PostgresSQL.userGeneration, [.text(user)])
        return r.count > 0 ? try r.int64(0, 0) : 0
    }

    public func generations(of users: [UserID]) throws -> [Int64]? {
        guard !users.isEmpty else { return [] }
        let r = try rows(PostgresSQL.userGenerations, [.texts(users)])
        // Matched by bytes, as the server matched them (`ExactText`).
        var read = [ExactText: Int64](minimumCapacity: r.count)
        for i in 0..<r.count { read[ExactText(try r.string(i, 0))] = try r.int64(i, 1) }
        return users.map { read[ExactText($0)] ?? 0 }
    }
}
