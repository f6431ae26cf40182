import RunusCore

/// A change to one optional profile field: left out keeps the stored value, `null` clears it.
public enum FieldUpdate<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case clear
    case set(Value)

    func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: return current
        case .clear: return nil
        case .set(let v): return v
        }
    }
}

/// What `users.upsert` may change; each field `.keep` by default.
public struct ProfileUpdate: Sendable, Equatable {
    public var birthYear: FieldUpdate<Int> = .keep
    public var sex: FieldUpdate<String> = .keep
    public var heightCm: FieldUpdate<Double> = .keep
    public var weightKg: FieldUpdate<Double> = .keep
    public var displayName: FieldUpdate<String> = .keep
    /// A new IANA zone, and its offset now; nil keeps the zone (a new runner needs one).
    public var timeZone: (name: String, utcOffsetSeconds: Int)?

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.birthYear == b.birthYear && a.sex == b.sex && a.heightCm == b.heightCm && a.weightKg == b.weightKg
            && a.displayName == b.displayName && a.timeZone?.name == b.timeZone?.name
            && a.timeZone?.utcOffsetSeconds == b.timeZone?.utcOffsetSeconds
    }
}

/// Why a profile change was refused.
public enum ProfileError: Error, Equatable, CustomStringConvertible {
    case timeZoneRequired(UserID)

    public var description: String {
        switch self {
        case .timeZoneRequired(let id): return "user '\(id.prefix(128))' is new: 'time_zone' is required"
        }
    }
}

/// A runner's profile and data as the backend manages them: merge-updates, reads, deletion
/// (privacy: every record, one transaction) and export (everything the engine keeps).
public struct RunnerProfiles: Sendable {
    let store: any EngineStore

    public init(store: any EngineStore) { self.store = store }

    /// Applies `update` to the stored profile (a new runner needs a time zone); returns the
    /// profile now stored and whether it was created.
    public func upsert(_ id: UserID, _ update: ProfileUpdate) throws -> (profile: UserProfile, created: Bool) {
        try store.transaction(runners: [id]) {
            let current = try store.user(id: id)
            guard let zone = update.timeZone ?? current.map({ ($0.timeZone, $0.utcOffsetSeconds) }) else {
                throw ProfileError.timeZoneRequired(id)
            }
            let profile = UserProfile(id: id, birthYear: update.birthYear.applied(to: current?.birthYear),
                                      sex: update.sex.applied(to: current?.sex),
                                      heightCm: update.heightCm.applied(to: current?.heightCm),
                                      weightKg: update.weightKg.applied(to: current?.weightKg),
                                      timeZone: zone.0, utcOffsetSeconds: zone.1,
                                      displayName: update.displayName.applied(to: current?.displayName))
            try store.upsertUser(profile)
            return (profile, current == nil)
        }
    }

    public func profile(_ id: UserID) throws -> UserProfile {
        guard let user = try store.user(id: id) else { throw EngineError.unknownUser(id) }
        return user
    }

    /// Deletes the runner and every record of theirs; throws `unknownUser` when there is none.
    public func delete(_ id: UserID) throws {
        guard try store.deleteUser(id: id) else { throw EngineError.unknownUser(id) }
    }

    /// Everything the engine keeps about a runner.
    public struct Export: Sendable {
        public let profile: UserProfile
        /// Runs by start time, without their tracks: `exportedRun` reads each whole, one at a
        /// time, so an export never holds every track at once (record 0555).
        public let runs: [RunRecord]
        public let assignments: [MissionAssignment]
        public let rewards: [RewardEntry]
        public let badges: [BadgeAward]
        /// Races the runner joined, by start time, each with the runner's result once finished.
        public let races: [(race: StoredRace, result: StoredRaceResult?)]
    }

    public func export(_ id: UserID) throws -> Export {
        let user = try profile(id)
        let runs = try store.runs(user: id, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
        let assignments = try store.assignments(user: id, from: CivilDate(daysSinceEpoch: -1_000_000),
                                                to: CivilDate(daysSinceEpoch: 1_000_000))
        let races = try store.races(user: id).map { race in
            (race, try store.raceResults(race: race.id).first { ExactText.same($0.userID, id) })
        }
        return Export(profile: user, runs: runs, assignments: assignments, rewards: try store.rewards(user: id),
                      badges: try store.badges(user: id), races: races)
    }

    /// One run of an export with its track (the listed run itself if it has gone since).
    public func exportedRun(_ listed: RunRecord, of id: UserID) throws -> RunRecord {
        try store.run(user: id, id: listed.id) ?? listed
    }
}
