import RunusCore
import Storage

extension PostgresStore: UserStore {
    /// Inserts the profile, or replaces every field of an existing one with the same id (an
    /// UPDATE in place, so rows that reference the user are untouched).
    public func upsertUser(_ profile: UserProfile) throws {
        try write(PostgresSQL.upsertUser, [
            .text(profile.id), .int(profile.birthYear), .text(profile.sex), .double(profile.heightCm),
            .double(profile.weightKg), .text(profile.timeZone), .int(profile.utcOffsetSeconds), .text(profile.displayName),
        ])
    }

    /// Deletes the runner and every record of theirs in one transaction; false for an unknown id.
    public func deleteUser(id: UserID) throws -> Bool {
        try transaction(runners: [id]) {
            var removed = 0
            for query in PostgresSQL.deleteUser { removed = try write(query, [.text(id)]) }
            return removed == 1
        }
    }

    public func user(id: UserID) throws -> UserProfile? {
        let rows = try rows(PostgresSQL.userByID, [.text(id)])
        return rows.count == 0 ? nil : try Self.user(rows, 0)
    }

    /// All users ordered by id (byte order of the UTF-8 text: the column's "C" collation).
    public func allUsers() throws -> [UserProfile] {
        let rows = try rows(PostgresSQL.allUsers)
        return try (0..<rows.count).map { try Self.user(rows, $0) }
    }

    private static func user(_ r: PGRows, _ i: Int) throws -> UserProfile {
        UserProfile(id: try r.string(i, 0), birthYear: try r.optionalInt(i, 1), sex: try r.optionalString(i, 2),
                    heightCm: try r.optionalDouble(i, 3), weightKg: try r.optionalDouble(i, 4),
                    timeZone: try r.string(i, 5), utcOffsetSeconds: try r.int(i, 6),
                    displayName: try r.optionalString(i, 7))
    }
}

extension PostgresStore: RewardStore {
    /// Inserts a ledger entry; a duplicate id, or a second award for the same
    /// `(user, reason, ref)`, throws (SQLSTATE 23505, unique_violation).
    public func insertReward(_ reward: RewardEntry) throws {
        try write(PostgresSQL.insertReward, [
            .text(reward.id), .text(reward.userID), .double(reward.time), .int(reward.xp), .text(reward.reason),
            .text(reward.refID),
        ])
    }

    /// A runner's ledger ordered by time then id.
    public func rewards(user: UserID) throws -> [RewardEntry] {
        let r = try rows(PostgresSQL.rewardsOfUser, [.text(user)])
        return try (0..<r.count).map { i in
            RewardEntry(id: try r.string(i, 0), userID: try r.string(i, 1), time: try r.double(i, 2), xp: try r.int(i, 3),
                        reason: try r.string(i, 4), refID: try r.optionalString(i, 5))
        }
    }
}
