import RunusCore

/// How runs are grouped in `history`.
public enum HistoryBucketSize: String, Sendable, CaseIterable {
    case day, week, month

    /// The first local day of the bucket containing `day` (weeks start on Monday, ISO 8601).
    func bucketStart(of day: CivilDate) -> CivilDate {
        switch self {
        case .day: return day
        case .week: return day.adding(days: 1 - day.isoWeekday)
        case .month: return CivilDate(year: day.year, month: day.month, day: 1)!
        }
    }
}

/// One bucket of history: totals of the runs whose local start day falls in it.
public struct HistoryBucket: Sendable, Equatable {
    /// First local day of the bucket.
    public let start: CivilDate
    public var runs = 0
    public var distance: Meters = 0
    public var moving: Seconds = 0
    /// kcal, over the runs that have an estimate.
    public var calories: Double = 0

    /// Moving pace over the bucket's distance, s/km; nil without distance.
    public var averagePace: SecondsPerKm? { Pace.secondsPerKm(distance: distance, duration: moving) }
}

/// A runner's past by day, week or month, in the runner's time zone.
public struct HistoryService: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    /// Longest range one request may cover, days.
    public static let maximumDays = 3660

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    public struct Entry: Sendable, Equatable {
        public let run: RunRecord
        public let localDay: CivilDate
    }

    /// Buckets (only those with runs, in order) and the runs in [from, to] (local days).
    public func history(user userID: UserID, from: CivilDate, to: CivilDate, size: HistoryBucketSize) throws
        -> (buckets: [HistoryBucket], runs: [Entry]) {
        guard let user = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        // Query a day wider on each side, then keep runs whose *local* day is in range: an
        // offset (or a DST change) moves instants across UTC midnight.
        let runs = try store.runs(user: userID, from: from.startInstant(utcOffset: 0) - 2 * 86_400,
                                  to: to.startInstant(utcOffset: 0) + 3 * 86_400)
        var entries: [Entry] = []
        var buckets: [CivilDate: HistoryBucket] = [:]
        for run in runs {
            let day = user.localDay(at: run.startTime, resolver: resolver)
            guard day >= from, day <= to else { continue }
            entries.append(Entry(run: run, localDay: day))
            let start = size.bucketStart(of: day)
            var bucket = buckets[start] ?? HistoryBucket(start: start)
            bucket.runs += 1
            bucket.distance += run.distance
            bucket.moving += run.moving
            bucket.calories += run.calories ?? 0
            buckets[start] = bucket
        }
        return (buckets.values.sorted { $0.start < $1.start }, entries)
    }
}

/// XP, level and badges.
public struct ProgressService: Sendable {
    let store: any EngineStore

    public init(store: any EngineStore) { self.store = store }

    public func progress(user userID: UserID) throws -> (level: LevelStatus, badges: [(Badge, BadgeAward)]) {
        guard try store.user(id: userID) != nil else { throw EngineError.unknownUser(userID) }
        let xp = try store.rewards(user: userID).reduce(0) { $0 + $1.xp }
        let badges = try store.badges(user: userID).compactMap { award in
            BadgeCatalog.badge(id: award.badgeID).map { ($0, award) }
        }
        return (LevelStatus(xp: xp), badges)
    }
}
