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
        // Runs that are no evidence of running (too fast, too short) earn no badge (record 0230).
        let runs = try store.runs(user: user.id, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
            .filter(\.isEvidence)
        let ledger = try store.rewards(user: user.id)
        let context = BadgeContext(
            runs: runs.map {
                BadgeContext.Run(distance: $0.distance, elevationGain: $0.elevationGain,
                                 localDay: user.localDay(at: $0.startTime, resolver: resolver),
                                 localHour: user.localHour(at: $0.startTime, resolver: resolver))
            },
            missionsCompleted: ledger.filter { $0.reason == RewardReason.mission }.count,
            raceWins: ledger.filter { $0.reason == RewardReason.raceWin }.count,
            racePodiums: ledger.filter { $0.reason == RewardReason.raceWin || $0.reason == RewardReason.racePodium }.count)
        let owned = Set(try store.badges(user: user.id).map(\.badgeID))
        let earned = BadgeCatalog.newlyEarned(context, owned: owned)
        for badge in earned {
            try store.insertBadge(BadgeAward(userID: user.id, badgeID: badge.id, awardedAt: instant, runID: runID))
        }
        return earned
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
