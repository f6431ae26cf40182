import RunusCore

/// Durable races on SQLite (docs/decisions/0526-durable-races.md).
extension SQLiteStore: RaceStore {
    public func insertRace(_ race: StoredRace) throws {
        try connection.withStatement(RaceSQL.insertRace) { s in
            try s.bind(race.id, at: 1)
            try s.bind(race.name, at: 2)
            try s.bind(race.distance, at: 3)
            try s.bind(race.startTime, at: 4)
            try s.bind(race.capacity, at: 5)
            try s.bind(race.isPublic ? 1 : 0, at: 6)
            try s.bind(race.createdBy, at: 7)
            try s.bind(race.inviteDigest, at: 8)
            try s.bind(race.createdAt, at: 9)
            try s.bind(race.cancelledAt, at: 10)
            try s.step()
        }
    }

    /// One daemon per file (`ServeLock`): no other daemon creates races here, and the daemon
    /// orders its own creations. `body` runs as it is, outside a transaction: it looks at rooms
    /// whose locks are held by commands waiting for this store's connection.
    public func creatingRace<T>(_ body: () throws -> T) throws -> T {
        try body()
    }

    public func cancelRace(id: String, at time: EpochSeconds) throws {
        try connection.withStatement(RaceSQL.cancelRace) { s in
            try s.bind(time, at: 1)
            try s.bind(id, at: 2)
            try s.step()
        }
    }

    public func activeRaces(startingFrom from: EpochSeconds) throws -> [StoredRace] {
        try connection.withStatement(RaceSQL.activeRaces) { s in
            try s.bind(from, at: 1)
            var races: [StoredRace] = []
            while try s.step() { races.append(Self.race(from: s)) }
            return races
        }
    }

    public func races(user: UserID) throws -> [StoredRace] {
        try connection.withStatement(RaceSQL.racesOfUser) { s in
            try s.bind(user, at: 1)
            var races: [StoredRace] = []
            while try s.step() { races.append(Self.race(from: s)) }
            return races
        }
    }

    /// One accepted command, committed with `synchronous=NORMAL` (record 0526 amendment: a
    /// position a second is the hottest write the daemon has; the commit survives `kill -9`).
    public func appendRaceEntry(_ entry: RaceLogEntry) throws {
        try connection.withRelaxedSync { try insertRaceEntry(entry) }
    }

    private func insertRaceEntry(_ entry: RaceLogEntry) throws {
        try connection.withStatement(RaceSQL.insertEntry) { s in
            try s.bind(entry.raceID, at: 1)
            try s.bind(entry.seq, at: 2)
            try s.bind(entry.kind.rawValue, at: 3)
            try s.bind(entry.userID, at: 4)
            try s.bind(entry.tokenDigest, at: 5)
            try s.bind(entry.time, at: 6)
            try s.bind(entry.points, at: 7)
            try s.step()
        }
    }

    /// A race's log; a row whose kind this build does not know, or whose numbers no command
    /// can have, is left out with a logged warning (the replay then refuses what depended on it).
    public func raceEntries(race: String) throws -> [RaceLogEntry] { try entries(race: race, after: 0) }

    private func entries(race: String, after seq: Int) throws -> [RaceLogEntry] {
        try connection.withStatement(RaceSQL.entriesAfter) { s in
            try s.bind(race, at: 1)
            try s.bind(seq, at: 2)
            var entries: [RaceLogEntry] = []
            while try s.step() {
                let seq = s.int(at: 1), time = s.double(at: 5)
                guard let kind = RaceLogEntry.Kind(rawValue: s.string(at: 2)), time.isFinite else {
                    log(#"{"level":"warning","event":"race_entry_skipped","race_id":"# + JSONWriter.string(.string(race))
                        + #","seq":\#(seq)}"#)
                    continue
                }
                entries.append(RaceLogEntry(raceID: s.string(at: 0), seq: seq, kind: kind, userID: s.string(at: 3),
                                            tokenDigest: s.string(at: 4), time: time,
                                            points: s.isNull(at: 6) ? nil : s.blob(at: 6)))
            }
            return entries
        }
    }

    /// One daemon per file (`ServeLock`): nobody else appends to its races.
    public var racesAreShared: Bool { false }

    public func race(id: String) throws -> StoredRace? {
        try connection.withStatement(RaceSQL.race) { s in
            try s.bind(id, at: 1)
            return try s.step() ? Self.race(from: s) : nil
        }
    }

    public func raceTail(race: String, after seq: Int) throws -> RaceLogTail? {
        guard let stored = try self.race(id: race) else { return nil }
        return RaceLogTail(cancelled: stored.cancelledAt != nil, entries: try entries(race: race, after: seq))
    }

    /// In one transaction (SQLite has one writer at a time, which is the race's lock here),
    /// committed with `synchronous=NORMAL` like `appendRaceEntry(_:)`.
    @discardableResult
    public func appendRaceEntry(race: String, after seq: Int, _ build: (RaceLogTail) throws -> RaceLogEntry?) throws -> Bool {
        try connection.withRelaxedSync {
            try transaction {
                guard let tail = try raceTail(race: race, after: seq) else { throw StorageError.notFound(table: "races", id: race) }
                guard let entry = try build(tail) else { return false }
                try insertRaceEntry(entry)
                return true
            }
        }
    }

    public func insertRaceResults(_ results: [StoredRaceResult]) throws {
        try transaction {
            for r in results {
                try connection.withStatement(RaceSQL.insertResult) { s in
                    try s.bind(r.raceID, at: 1)
                    try s.bind(r.rank, at: 2)
                    try s.bind(r.userID, at: 3)
                    try s.bind(r.status, at: 4)
                    try s.bind(r.distance, at: 5)
                    try s.bind(r.finishTime, at: 6)
                    try s.bind(r.pace, at: 7)
                    try s.bind(r.gap, at: 8)
                    try s.bind(r.timeGap, at: 9)
                    try s.bind(r.xp, at: 10)
                    try s.bind(JSONWriter.string(.array(r.badges.map { .string($0) })), at: 11)
                    try s.bind(r.finishedAt, at: 12)
                    try s.step()
                }
            }
        }
    }

    public func raceResults(race: String) throws -> [StoredRaceResult] {
        try connection.withStatement(RaceSQL.results) { s in
            try s.bind(race, at: 1)
            var rows: [StoredRaceResult] = []
            while try s.step() {
                // Badges written by this code are a JSON array of strings; anything else reads as none.
                let badges = (try? JSONParser.parse(s.string(at: 10)))?.arrayValue?.compactMap(\.stringValue) ?? []
                rows.append(StoredRaceResult(raceID: s.string(at: 0), rank: s.int(at: 1), userID: s.string(at: 2),
                                             status: s.string(at: 3), distance: s.double(at: 4),
                                             finishTime: s.optionalDouble(at: 5), pace: s.optionalDouble(at: 6),
                                             gap: s.double(at: 7), timeGap: s.optionalDouble(at: 8), xp: s.int(at: 9),
                                             badges: badges, finishedAt: s.double(at: 11)))
            }
            return rows
        }
    }

    static func race(from s: Statement) -> StoredRace {
        StoredRace(id: s.string(at: 0), name: s.string(at: 1), distance: s.double(at: 2), startTime: s.double(at: 3),
                   capacity: s.int(at: 4), isPublic: s.int(at: 5) != 0, createdBy: s.string(at: 6),
                   inviteDigest: s.optionalString(at: 7), createdAt: s.double(at: 8), cancelledAt: s.optionalDouble(at: 9))
    }
}

/// The SQL of `SQLiteStore`'s race store, built once from constant text.
enum RaceSQL {
    static let raceColumns = "id, name, distance_m, start_time, capacity, public, created_by, invite_sha256, created_at, cancelled_at"
    static let insertRace = "INSERT INTO races (\(raceColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let cancelRace = "UPDATE races SET cancelled_at = ? WHERE id = ? AND cancelled_at IS NULL"
    static let activeRaces = """
        SELECT \(raceColumns) FROM races WHERE cancelled_at IS NULL AND start_time >= ? ORDER BY start_time, id
        """
    static let racesOfUser = """
        SELECT \(raceColumns) FROM races WHERE id IN (SELECT race_id FROM race_entries WHERE user_id = ?)
        ORDER BY start_time, id
        """
    static let insertEntry = """
        INSERT INTO race_entries (race_id, seq, kind, user_id, token_sha256, time, points) VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    static let race = "SELECT \(raceColumns) FROM races WHERE id = ?"
    static let entriesAfter = """
        SELECT race_id, seq, kind, user_id, token_sha256, time, points FROM race_entries WHERE race_id = ? AND seq > ? ORDER BY seq
        """
    static let resultColumns = """
        race_id, rank, user_id, status, distance_m, finish_time_s, elapsed_pace_s_per_km, gap_m, time_gap_s, xp, \
        badges_json, finished_at
        """
    static let insertResult = "INSERT INTO race_results (\(resultColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let results = "SELECT \(resultColumns) FROM race_results WHERE race_id = ? ORDER BY rank"
}

/// One daemon per file: its own writes invalidate its caches, so no generations are kept.
extension SQLiteStore: GenerationStore {}
