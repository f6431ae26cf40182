import RunusCore
import Storage

/// One race at a time on PostgreSQL (docs/decisions/0550-one-race-at-a-time.md), as on SQLite:
/// the key `(user_id, hour)` of `race_holds` (schema version 6). Two replicas' joins of one
/// runner to two races at once insert the same key: the second waits for the first's commit,
/// inserts nothing, and reads the hour held by the other race.
extension PostgresStore: RaceHoldStore {
    public func holdRace(_ hold: RaceHold) throws {
        try transaction {
            try write(PostgresSQL.holdRace, [.text(hold.userID), .int(hold.hours.lowerBound), .int(hold.hours.upperBound),
                                             .text(hold.raceID)])
            let other = try rows(PostgresSQL.otherRaceHolder, [.text(hold.userID), .int(hold.hours.lowerBound),
                                                               .int(hold.hours.upperBound), .text(hold.raceID)])
            if other.count > 0 {
                throw RaceHoldConflict(userID: hold.userID, raceID: hold.raceID, holder: try other.string(0, 0))
            }
        }
    }

    public func releaseRaceHold(user: UserID, race: String) throws {
        try write(PostgresSQL.releaseRaceHold, [.text(user), .text(race)])
    }

    public func releaseRaceHolds(race: String) throws {
        try write(PostgresSQL.releaseRaceHolds, [.text(race)])
    }

    public func raceHolder(user: UserID, hour: Int) throws -> String? {
        let r = try rows(PostgresSQL.raceHolder, [.text(user), .int(hour)])
        return r.count > 0 ? try r.string(0, 0) : nil
    }
}

extension PostgresSQL {
    /// The window's hours in one statement; hours held already (by this race or another) are left.
    static let holdRace = PGQuery("""
        INSERT INTO race_holds (user_id, hour, race_id) SELECT $1, h, $4 FROM generate_series($2::bigint, $3::bigint) AS h
        ON CONFLICT (user_id, hour) DO NOTHING
        """, [.text, .int8, .int8, .text])
    static let otherRaceHolder = PGQuery("""
        SELECT race_id FROM race_holds WHERE user_id = $1 AND hour BETWEEN $2 AND $3 AND race_id <> $4 ORDER BY hour LIMIT 1
        """, [.text, .int8, .int8, .text])
    static let releaseRaceHold = PGQuery("DELETE FROM race_holds WHERE user_id = $1 AND race_id = $2", [.text, .text])
    static let releaseRaceHolds = PGQuery("DELETE FROM race_holds WHERE race_id = $1", [.text])
    static let raceHolder = PGQuery("SELECT race_id FROM race_holds WHERE user_id = $1 AND hour = $2", [.text, .int8])
}
