import RunusCore
import Missions

/// One mission of a runner's past or present days as `missions.history` lists it.
public struct MissionHistoryEntry: Sendable {
    public let assignment: MissionAssignment
    /// Nil when this version cannot read the stored spec.
    public let spec: MissionSpec?
    /// The status to show: the stored one, or for a mission still open on a day that is over
    /// in the runner's zone, its day-end status (`MissionDayEnd.shownStatus`).
    public let status: MissionStatus
}

/// What `missions.history` asks for: local days `from`…`to`, optional kind and status filters,
/// and a page.
public struct MissionHistoryQuery: Sendable {
    public var from: CivilDate
    public var to: CivilDate
    /// Only these kinds; nil: every kind.
    public var kinds: Set<MissionKind>?
    /// Only these (shown) statuses; nil: every status.
    public var statuses: Set<MissionStatus>?
    /// Entries to skip, from the newest, ≥ 0.
    public var offset: Int
    /// Entries to return, in 1…`MissionHistoryService.maximumLimit` (clamped).
    public var limit: Int

    public init(from: CivilDate, to: CivilDate, kinds: Set<MissionKind>? = nil, statuses: Set<MissionStatus>? = nil,
                offset: Int = 0, limit: Int = MissionHistoryService.defaultLimit) {
        self.from = from; self.to = to; self.kinds = kinds; self.statuses = statuses; self.offset = offset; self.limit = limit
    }
}

/// A runner's missions day by day for a "my missions" screen (record 0534): every mission
/// offered or set on the local days asked for, newest day first and in offer order within a
/// day, with the status it has now (day-end statuses shown on read), the run that completed
/// it, its best progress and its XP. Nothing is written.
public struct MissionHistoryService: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    /// Longest range one request may cover, days (as `history`).
    public static let maximumDays = HistoryService.maximumDays
    /// Entries per page: default and most.
    public static let defaultLimit = 50
    public static let maximumLimit = 200

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    /// The page of `query` and the number of entries that match it, with the runner's local
    /// day at `now` (the day before which open missions show their day-end status).
    public func history(user userID: UserID, query: MissionHistoryQuery, now: EpochSeconds) throws
        -> (today: CivilDate, total: Int, entries: [MissionHistoryEntry]) {
        guard let user = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        let today = RunnerMoment(profile: user, at: now, resolver: resolver).day
        let assignments = try store.assignments(user: userID, from: query.from, to: query.to)
        // Runs a day wider on each side: an offset (or a DST change) moves instants across UTC midnight.
        let needsRuns = assignments.contains { $0.status == .offered && $0.day < today }
        let runDays = needsRuns
            ? MissionDayEnd.runDays(try store.runs(user: userID, from: query.from.startInstant(utcOffset: 0) - 2 * 86_400,
                                                   to: query.to.startInstant(utcOffset: 0)
                                                       + Double(MissionWindow.maximumDays + 2) * 86_400),
                                    user: user, resolver: resolver)
            : []
        // The store orders by day, then offer order: newest day first, offer order kept within it.
        let byDay = Dictionary(grouping: assignments, by: \.day)
        var matching: [(MissionAssignment, MissionStatus)] = []
        for day in byDay.keys.sorted(by: >) {
            for a in byDay[day] ?? [] {
                let status = MissionDayEnd.shownStatus(a, today: today, runDays: runDays)
                if let kinds = query.kinds, !kinds.contains(where: { $0.rawValue == a.kind }) { continue }
                if let statuses = query.statuses, !statuses.contains(status) { continue }
                matching.append((a, status))
            }
        }
        let start = min(max(0, query.offset), matching.count)
        let end = min(matching.count, start + min(max(1, query.limit), Self.maximumLimit))
        let page = matching[start..<end].map { a, status in
            MissionHistoryEntry(assignment: a, spec: try? MissionSpec(json: try JSONParser.parse(a.specJSON)), status: status)
        }
        return (today, matching.count, page)
    }
}
