import RunusCore
import Storage

extension PostgresStore: BadgeStore {
    /// Records a badge; a runner earns each badge once (primary key), so a second award of the
    /// same badge returns false and changes nothing.
    public func insertBadge(_ award: BadgeAward) throws -> Bool {
        try write(PostgresSQL.insertBadge, [.text(award.userID), .text(award.badgeID), .double(award.awardedAt),
                                            .text(award.runID)]) > 0
    }

    /// A runner's badges ordered by award time then badge id.
    public func badges(user: UserID) throws -> [BadgeAward] {
        let r = try rows(PostgresSQL.badgesOfUser, [.text(user)])
        return try (0..<r.count).map { i in
            BadgeAward(userID: try r.string(i, 0), badgeID: try r.string(i, 1), awardedAt: try r.double(i, 2),
                       runID: try r.optionalString(i, 3))
        }
    }
}

extension PostgresStore: IngestLedger {
    public func recordIngestAnswer(user: UserID, runID: String, answerJSON: String) throws {
        try write(PostgresSQL.insertIngestAnswer, [.text(user), .text(runID), .text(answerJSON)])
    }

    public func ingestAnswer(user: UserID, runID: String) throws -> String? {
        let rows = try rows(PostgresSQL.ingestAnswer, [.text(user), .text(runID)])
        return rows.count == 0 ? nil : try rows.string(0, 0)
    }
}
