import RunusCore

/// One race at a time on SQLite (docs/decisions/0550-one-race-at-a-time.md): the key
/// `(user_id, hour)` of `race_holds` (schema version 7) lets one race hold each hour of a runner.
extension SQLiteStore: RaceHoldStore {
    /// Inserts the hours the runner does not hold yet, then reads them back: any held for
    /// another race is a conflict, and the caller's transaction (the join's) is then undone.
    public func holdRace(_ hold: RaceHold) throws {
        try transaction {
            for hour in hold.hours {
                try connection.withStatement(RaceHoldSQL.insert) { s in
                    try s.bind(hold.userID, at: 1)
                    try s.bind(hour, at: 2)
                    try s.bind(hold.raceID, at: 3)
                    try s.step()
                }
            }
            let holder: String? = try connection.withStatement(RaceHoldSQL.otherHolder) { s in
                try s.bind(hold.userID, at: 1)
                try s.bind(hold.hours.lowerBound, at: 2)
                try s.bind(hold.hours.upperBound, at: 3)
                try s.bind(hold.raceID, at: 4)
                return try s.step() ? s.string(at: 0) : nil
            }
            if let holder { throw RaceHoldConflict(userID: hold.userID, raceID: hold.raceID, holder: holder) }
        }
    }

    public func releaseRaceHold(user: UserID, race: String) throws {
        try connection.withStatement(RaceHoldSQL.releaseOne) { s in
            try s.bind(user, at: 1)
            try s.bind(race, at: 2)
            try s.step()
        }
    }

    public func releaseRaceHolds(race: String) throws {
        try connection.withStatement(RaceHoldSQL.releaseRace) { s in
            try s.bind(race, at: 1)
            try s.step()
        }
    }

    public func raceHolder(user: UserID, hour: Int) throws -> String? {
        try connection.withStatement(RaceHoldSQL.holder) { s in
            try s.bind(user, at: 1)
            try s.bind(hour, at: 2)
            return try s.step() ? s.string(at: 0) : nil
        }
    }
}

/// The SQL of `SQLiteStore`'s race holds.
enum RaceHoldSQL {
    static let insert = "INSERT INTO race_holds (user_id, hour, race_id) VALUES (?, ?, ?) ON CONFLICT (user_id, hour) DO NOTHING"
    static let otherHolder = """
        SELECT race_id FROM race_holds WHERE user_id = ? AND hour BETWEEN ? AND ? AND race_id <> ? ORDER BY hour LIMIT 1
        """
    static let releaseOne = "DELETE FROM race_holds WHERE user_id = ? AND race_id = ?"
    static let releaseRace = "DELETE FROM race_holds WHERE race_id = ?"
    static let holder = "SELECT race_id FROM race_holds WHERE user_id = ? AND hour = ?"
}
