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
        let r = try rows(PostgresSQL.entries, [.text(race)])
        var entries: [RaceLogEntry] = []
        for i in 0..<r.count {
            let seq = try r.int(i, 1), time = try r.double(i, 5)
            guard let kind = RaceLogEntry.Kind(rawValue: try r.string(i, 2)), time.isFinite else {
                log(#"{"level":"warning","event":"race_entry_skipped","race_id":"# + JSONWriter.string(.string(race))
                    + #","seq":\#(seq)}"#)
                continue
            }
            entries.append(RaceLogEntry(raceID: try r.string(i, 0), seq: seq, kind: kind, userID: try r.string(i, 3),
                                        tokenDigest: try r.string(i, 4), time: time, points: try r.optionalBytes(i, 6)))
        }
        return entries
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
