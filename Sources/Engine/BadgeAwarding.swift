import RunusCore

/// Evaluates the badge catalog on a runner's whole history (runs, completed missions, race
/// results in the XP ledger) and stores the badges newly earned. Call inside the transaction
/// that wrote what earned them.
public struct BadgeAwarding: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    /// Stores and returns the badges `user` has newly earned, dated `instant`.
    public func award(to user: UserProfile, at instant: EpochSeconds, runID: String?) throws -> [Badge] {
        let context = try self.context(of: user)
        let owned = Set(try store.badges(user: user.id).map(\.badgeID))
        let earned = BadgeCatalog.newlyEarned(context, owned: owned)
        for badge in earned {
            try store.insertBadge(BadgeAward(userID: user.id, badgeID: badge.id, awardedAt: instant, runID: runID))
        }
        return earned
    }

    /// The runner's whole history as the badge criteria read it.
    public func context(of user: UserProfile) throws -> BadgeContext {
        // Runs that are no evidence of running (too fast, too short) earn no badge (record 0230).
        let runs = try store.runs(user: user.id, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
            .filter(\.isEvidence)
        let ledger = try store.rewards(user: user.id)
        // Completed missions by kind: the ledger's mission rewards name the assignment.
        let rewarded = Set(ledger.filter { $0.reason == RewardReason.mission }.compactMap(\.refID))
        var byKind: [String: Int] = [:]
        for a in try store.assignments(user: user.id, from: CivilDate(daysSinceEpoch: -1_000_000), to: CivilDate(daysSinceEpoch: 1_000_000))
            where a.status == .completed && rewarded.contains(a.id) {
            byKind[a.kind, default: 0] += 1
        }
        // Mission rewards whose assignment is gone still count, as kind-less ones.
        let unmatched = rewarded.count - byKind.values.reduce(0, +)
        if unmatched > 0 { byKind["", default: 0] += unmatched }
        return BadgeContext(
            runs: runs.map {
                BadgeContext.Run(distance: $0.distance, elevationGain: $0.elevationGain,
                                 localDay: user.localDay(at: $0.startTime, resolver: resolver),
                                 localHour: user.localHour(at: $0.startTime, resolver: resolver), moving: $0.moving)
            },
            missionsByKind: byKind,
            raceWins: ledger.filter { $0.reason == RewardReason.raceWin }.count,
            racePodiums: ledger.filter { $0.reason == RewardReason.raceWin || $0.reason == RewardReason.racePodium }.count)
    }
}

/// The `reason` values of the XP ledger.
public enum RewardReason {
    public static let run = "run"
    public static let mission = "mission"
    /// Finishing a live race.
    public static let raceFinish = "race_finish"
    /// Winning a live race (counts as a podium too).
    public static let raceWin = "race_win"
    /// Second or third in a live race.
    public static let racePodium = "race_podium"
}

/// The badge catalog for the app's badge screen: every badge, and for a runner, when each was
/// earned or how far they are towards it (`badges.catalog`).
public struct BadgeProgressService: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    public struct Entry: Sendable {
        public let badge: Badge
        /// The award, when the runner has the badge.
        public let award: BadgeAward?
        /// Progress towards it in [0, 1]; 1 once earned.
        public let progress: Double
    }

    /// Every badge in catalog order; with `user`, that runner's awards and progress.
    public func catalog(user userID: UserID?) throws -> [Entry] {
        guard let userID else { return BadgeCatalog.all.map { Entry(badge: $0, award: nil, progress: 0) } }
        guard let user = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        let context = try BadgeAwarding(store: store, resolver: resolver).context(of: user)
        var awards: [String: BadgeAward] = [:]
        for a in try store.badges(user: userID) { awards[a.badgeID] = a }
        return BadgeCatalog.all.map { badge in
            let award = awards[badge.id]
            return Entry(badge: badge, award: award, progress: award != nil ? 1 : badge.progress(context))
        }
    }
}
