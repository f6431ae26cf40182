import RunusCore

extension SQLiteStore: BadgeStore {
    /// Records a badge; a runner earns each badge once (primary key), so a second award of the
    /// same badge returns false and changes nothing.
    public func insertBadge(_ award: BadgeAward) throws -> Bool {
        try connection.withStatement("""
            INSERT INTO badges (user_id, badge_id, awarded_at, run_id) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, badge_id) DO NOTHING
            """) { s in
            try s.bind(award.userID, at: 1)
            try s.bind(award.badgeID, at: 2)
            try s.bind(award.awardedAt, at: 3)
            try s.bind(award.runID, at: 4)
            try s.step()
            return connection.changes > 0  // read under the statement's lock
        }
    }

    /// A runner's badges ordered by award time then badge id.
    public func badges(user: UserID) throws -> [BadgeAward] {
        try connection.withStatement("""
            SELECT user_id, badge_id, awarded_at, run_id FROM badges WHERE user_id = ?
            ORDER BY awarded_at, badge_id
            """) { s in
            try s.bind(user, at: 1)
            var out: [BadgeAward] = []
            while try s.step() {
                out.append(BadgeAward(userID: s.string(at: 0), badgeID: s.string(at: 1),
                                      awardedAt: s.double(at: 2), runID: s.optionalString(at: 3)))
            }
            return out
        }
    }
}

extension SQLiteStore: IngestLedger {
    public func recordIngestAnswer(user: UserID, runID: String, answerJSON: String) throws {
        try connection.withStatement(StoreSQL.insertIngestAnswer) { s in
            try s.bind(user, at: 1)
            try s.bind(runID, at: 2)
            try s.bind(answerJSON, at: 3)
            try s.step()
        }
    }

    public func ingestAnswer(user: UserID, runID: String) throws -> String? {
        try connection.withStatement(StoreSQL.ingestAnswer) { s in
            try s.bind(user, at: 1)
            try s.bind(runID, at: 2)
            return try s.step() ? s.string(at: 0) : nil
        }
    }
}

extension SQLiteStore: TransactionalStore {}
