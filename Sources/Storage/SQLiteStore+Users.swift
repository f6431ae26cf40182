import RunusCore

extension SQLiteStore: UserStore {
    /// Inserts the profile, or replaces every field of an existing one with the same id (an
    /// UPDATE in place, so rows that reference the user are untouched).
    public func upsertUser(_ profile: UserProfile) throws {
        try connection.withStatement(StoreSQL.upsertUser) { s in
            try s.bind(profile.id, at: 1)
            try s.bind(profile.birthYear, at: 2)
            try s.bind(profile.sex, at: 3)
            try s.bind(profile.heightCm, at: 4)
            try s.bind(profile.weightKg, at: 5)
            try s.bind(profile.timeZone, at: 6)
            try s.bind(profile.utcOffsetSeconds, at: 7)
            try s.bind(profile.displayName, at: 8)
            try s.step()
        }
    }

    /// Deletes the runner and every record of theirs in one transaction; false for an unknown id.
    public func deleteUser(id: UserID) throws -> Bool {
        try transaction {
            var removed = 0
            for sql in StoreSQL.deleteUser {
                try connection.withStatement(sql) { s in
                    try s.bind(id, at: 1)
                    try s.step()
                }
                removed = connection.changes
            }
            return removed == 1
        }
    }

    public func user(id: UserID) throws -> UserProfile? {
        try connection.withStatement(StoreSQL.userByID) { s in
            try s.bind(id, at: 1)
            return try s.step() ? Self.user(from: s) : nil
        }
    }

    /// All users ordered by id (byte order of the UTF-8 text, SQLite's BINARY collation).
    public func allUsers() throws -> [UserProfile] {
        try connection.withStatement(StoreSQL.allUsers) { s in
            var users: [UserProfile] = []
            while try s.step() { users.append(Self.user(from: s)) }
            return users
        }
    }

    private static func user(from s: Statement) -> UserProfile {
        UserProfile(id: s.string(at: 0), birthYear: s.optionalInt(at: 1), sex: s.optionalString(at: 2),
                    heightCm: s.optionalDouble(at: 3), weightKg: s.optionalDouble(at: 4),
                    timeZone: s.string(at: 5), utcOffsetSeconds: s.int(at: 6), displayName: s.optionalString(at: 7))
    }
}

extension SQLiteStore: RewardStore {
    /// Inserts a ledger entry; a duplicate id throws (SQLITE_CONSTRAINT).
    public func insertReward(_ reward: RewardEntry) throws {
        try connection.withStatement(StoreSQL.insertReward) { s in
            try s.bind(reward.id, at: 1)
            try s.bind(reward.userID, at: 2)
            try s.bind(reward.time, at: 3)
            try s.bind(reward.xp, at: 4)
            try s.bind(reward.reason, at: 5)
            try s.bind(reward.refID, at: 6)
            try s.step()
        }
    }

    /// A runner's ledger ordered by time then id.
    public func rewards(user: UserID) throws -> [RewardEntry] {
        try connection.withStatement(StoreSQL.rewardsOfUser) { s in
            try s.bind(user, at: 1)
            var entries: [RewardEntry] = []
            while try s.step() {
                entries.append(RewardEntry(id: s.string(at: 0), userID: s.string(at: 1), time: s.double(at: 2),
                                           xp: s.int(at: 3), reason: s.string(at: 4),
                                           refID: s.optionalString(at: 5)))
            }
            return entries
        }
    }
}
