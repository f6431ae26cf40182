import RunusCore
import Features
import Missions

/// Where `MissionService` keeps runner states between requests (the daemon's cache, decision
/// 0520). A state as of an instant depends only on the runs before it, so a store that forgets it
/// whenever a run starting before that instant is written never answers a stale one.
public protocol RunnerStateCache: Sendable {
    /// The state of `user` as of `asOf` (Unix seconds): the kept one, or `build()`'s (then kept).
    func state(user: UserID, asOf: EpochSeconds, build: () throws -> RunnerState) throws -> RunnerState
}

/// A mission of the day (offered, or set by the runner), as stored and as answered.
public struct TodayMission: Sendable, Equatable {
    public let assignmentID: String
    public let spec: MissionSpec
    public let title: String
    /// The model's completion probability in [0, 1]; nil for a custom mission of a kind the
    /// model does not score (record 0535).
    public let pComplete: Double?
    public let xp: Int
    public let why: String
    public let status: MissionStatus
    public let isStretch: Bool
    /// Set by the runner (`missions.custom`), not offered.
    public let isCustom: Bool
    /// Offered because the runner joined a race that day (record 0649).
    public var isRace: Bool = false
    /// The local days it is open (`MissionWindow`, record 0650): its offer day, and the last
    /// day a run can complete it (the same day but for a streak).
    public var firstDay: CivilDate
    public var lastDay: CivilDate
}

/// Today's missions for a runner. The first request of a (runner, local day) scores candidates
/// and stores the chosen missions; later requests that day return the stored ones (with their
/// current status), so the answer is stable until the runner asks for a refresh, which replaces
/// the day's open missions with new ones (the replaced ones become `replaced` and are not offered
/// again at once). Every answer lists the stretch mission (flagged) and the missions the runner
/// set for the day (`custom`, records 0535 and 0536).
public final class MissionService: Sendable {
    let store: any EngineStore
    let scorer: any MissionScorer
    let policy: TodayPolicy
    let resolver: any UTCOffsetResolver
    let stateCache: (any RunnerStateCache)?
    /// Digests of stored tracks (best efforts, covered cells) the states read (record 0645); nil:
    /// each state decodes the tracks of its history.
    let digestCache: RunDigestCache?

    /// Suffix of a stretch mission's assignment id (the store has no column for the role:
    /// `MissionRole`).
    static let stretchSuffix = "-stretch"
    /// Days either side of the runner's current local day `today` may be asked for.
    public static let dayReach = 1

    public init(store: any EngineStore, scorer: any MissionScorer, policy: TodayPolicy = TodayPolicy(),
                resolver: any UTCOffsetResolver = FixedOffsetResolver(), stateCache: (any RunnerStateCache)? = nil,
                digestCache: RunDigestCache? = nil) {
        self.store = store; self.scorer = scorer; self.policy = policy; self.resolver = resolver
        self.stateCache = stateCache
        self.digestCache = digestCache
    }

    public var modelVersion: String { scorer.version }

    /// Today's `count` daily missions (plus the stretch mission, when one fits, and the runner's
    /// own missions of the day) for `userID` on `day` (default: the runner's local day at `now`).
    ///
    /// The day's set is fixed once offered (record 0524): whatever model offered it, later
    /// requests that day return it, and a model reload changes the scores of new offers only.
    /// `refresh` replaces the open offers (not the runner's own missions) with a new set that
    /// repeats no mission offered earlier that day (fewer missions, or none, once the candidates
    /// run out).
    public func today(user userID: UserID, day requestedDay: CivilDate?, count: Int, now: EpochSeconds,
                      refresh: Bool = false) throws -> (day: CivilDate, missions: [TodayMission]) {
        try today(try moment(user: userID, at: now), day: requestedDay, count: count, refresh: refresh)
    }

    /// `today` for a runner at a moment the caller derived (the daemon's cache derives it once).
    public func today(_ moment: RunnerMoment, day requestedDay: CivilDate?, count: Int,
                      refresh: Bool = false) throws -> (day: CivilDate, missions: [TodayMission]) {
        let user = moment.profile, userID = moment.profile.id, now = moment.instant
        // Offers for days long past would let a back-dated run complete them (record 0524).
        let current = moment.day
        if let requestedDay, abs(requestedDay.daysSinceEpoch - current.daysSinceEpoch) > Self.dayReach {
            throw EngineError.dayOutOfRange(asked: requestedDay, today: current)
        }
        let (day, state) = try runnerState(moment, day: requestedDay)
        func stored() throws -> (all: [MissionAssignment], current: [MissionAssignment], carried: [MissionAssignment], enough: Bool) {
            let recent = try store.assignments(user: userID, from: day.adding(days: 1 - MissionWindow.maximumDays), to: day)
            let all = recent.filter { $0.day == day }
            let current = all.filter(\.isCurrent)
            let carried = try self.carried(recent, into: day, user: user)
            return (all, current, carried, current.filter { $0.role == .daily }.count >= count)
        }
        func answer(_ assignments: [MissionAssignment]) throws -> [TodayMission] {
            try assignments.map { try Self.todayMission($0, state: state, user: user, day: day) }
        }
        // Fast path without a write transaction: the day's missions exist already.
        let first = try stored()
        if !refresh, first.enough { return (day, try answer(first.current + first.carried)) }
        return try store.transaction(runners: [userID]) {
            // Re-read inside the write transaction: a concurrent first request may have
            // chosen the day's missions since (transactions are serialised).
            let (todays, current, carried, enough) = try stored()
            if !refresh, enough { return (day, try answer(current + carried)) }
            var memory = try self.memory(user: userID, before: day)
            // A kind whose offer of an earlier day is still open is not offered again (record 0650).
            memory.openKinds = Set(carried.compactMap { MissionKind(rawValue: $0.kind) })
            if refresh {
                // A refresh replaces the open offers; the runner's own missions and race
                // missions stay (records 0535 and 0649).
                for a in current where a.status == .offered && a.role.isPolicyOffer {
                    try store.updateAssignment(user: userID, id: a.id, status: .replaced, runID: a.runID, progress: a.progress)
                }
                // Nothing offered earlier today comes back: refresh never alternates two sets.
                for a in todays { memory.recentSpecs.insert(a.specJSON) }
            }
            // Decided missions stay in a refreshed answer, and the runner's own ones in every answer.
            // Asked for more than the day has (a larger `k`), the day's missions stay and only
            // the missing ones are added: two open sets would let one run earn both (record 0524).
            let kept = refresh ? current.filter { !$0.role.isPolicyOffer || $0.status != .offered } : current
            let missing = refresh ? count : count - current.filter { $0.role == .daily }.count
            if !refresh { for a in todays { memory.recentSpecs.insert(a.specJSON) } }
            // Never a second copy of a mission the day has (one run would earn it twice).
            let keptSpecs = Set(kept.map(\.specJSON))
            let hasStretch = kept.contains { $0.role == .stretch && $0.status == .offered }
            var policy = self.policy
            policy.count = missing
            // A runner without runs gets starter missions sized from the profile (record 0625).
            let chosen = (state.totalRuns == 0
                ? StarterMissions.choose(profile: user, year: day.year, count: missing, state: state, scorer: scorer,
                                         band: policy.band)
                : policy.choose(state: state, scorer: scorer, memory: memory))
                .filter { !keptSpecs.contains($0.spec.canonicalJSON) && !(hasStretch && $0.isStretch) }
            // Distinct ids across refreshes: every round adds offers (custom ones have ids of their own).
            let round = todays.filter(\.role.isPolicyOffer).count
            var missions = try answer(kept)
            for (i, mission) in chosen.enumerated() {
                let id = Self.assignmentID(day: day, round: round, slot: i + 1, stretch: mission.isStretch)
                let assignment = MissionAssignment(
                    id: id, userID: userID, day: day, kind: mission.spec.kind.rawValue,
                    specJSON: mission.spec.canonicalJSON, modelVersion: scorer.version,
                    pComplete: mission.pComplete, xp: mission.xp, status: .offered, offeredAt: now)
                try store.insertAssignment(assignment)
                missions.append(TodayMission(assignmentID: id, spec: mission.spec, title: mission.title,
                                             pComplete: mission.pComplete, xp: mission.xp, why: mission.why,
                                             status: .offered, isStretch: mission.isStretch, isCustom: false,
                                             firstDay: day, lastDay: MissionWindow.lastDay(of: assignment)))
            }
            return (day, missions + (try answer(carried)))
        }
    }

    /// Offers of days before `day` among `recent` (the runner's assignments of the last
    /// `MissionWindow.maximumDays` days) still open on `day`: `offered`, with a window that
    /// reaches `day` and is not over (a streak's runs are read only when there is one).
    func carried(_ recent: [MissionAssignment], into day: CivilDate, user: UserProfile) throws -> [MissionAssignment] {
        try Self.carried(recent, into: day, user: user, store: store, resolver: resolver)
    }

    static func carried(_ recent: [MissionAssignment], into day: CivilDate, user: UserProfile, store: any EngineStore,
                        resolver: any UTCOffsetResolver) throws -> [MissionAssignment] {
        let open = recent.filter { $0.day < day && $0.status == .offered && MissionWindow.lastDay(of: $0) >= day }
        guard let first = open.map(\.day).min() else { return [] }
        // A day wider on each side: an offset (or a DST change) moves instants across UTC midnight.
        let runs = try store.runs(user: user.id, from: first.startInstant(utcOffset: 0) - 2 * 86_400,
                                  to: day.startInstant(utcOffset: 0) + 2 * 86_400)
        let runDays = MissionDayEnd.runDays(runs, user: user, resolver: resolver)
        return open.filter { !MissionWindow.isOver($0, today: day, runDays: runDays) }
    }

    /// The id of the `slot`-th mission (1-based) chosen in round `round` (0, then one more per
    /// refresh) of `day`, e.g. `2026-12-01-0-1` or `2026-12-01-0-4-stretch`. Unique among the
    /// runner's assignments (the store keys them by runner and id, record 0405); it names neither
    /// the runner nor the model, so a reload cannot offer a second set (record 0524).
    static func assignmentID(day: CivilDate, round: Int, slot: Int, stretch: Bool) -> String {
        "\(day)-\(round)-\(slot)" + (stretch ? stretchSuffix : "")
    }

    /// Offers of the `PolicyMemory.kindDays` days before `day`: specs not completed (the last
    /// `PolicyMemory.days`), and kinds.
    func memory(user: UserID, before day: CivilDate) throws -> PolicyMemory {
        let days = max(PolicyMemory.kindDays, MissionWindow.maximumDays - 1)
        return PolicyMemory(offers: try store.assignments(user: user, from: day.adding(days: -days), to: day.adding(days: -1)),
                            before: day)
    }

    static func todayMission(_ a: MissionAssignment, state: RunnerState, user: UserProfile, day: CivilDate) throws -> TodayMission {
        let spec = try MissionSpec(json: try JSONParser.parse(a.specJSON))
        // The "why" sentence is rebuilt from the same as-of state (or profile), so it is stable too.
        let role = a.role
        let why = role == .custom ? Self.customWhy
            : role == .race ? RaceMissions.why(spec)
            : state.totalRuns == 0 ? StarterMissions.why(spec, profile: user, year: day.year)
            : TodayPolicy.why(spec, state: state)
        return TodayMission(assignmentID: a.id, spec: spec, title: MissionTitle.title(for: spec),
                            pComplete: a.shownPComplete, xp: a.xp, why: why,
                            status: a.status, isStretch: role == .stretch, isCustom: role == .custom,
                            isRace: role == .race, firstDay: a.day, lastDay: MissionWindow.lastDay(of: a))
    }
}

extension MissionAssignment {
    /// Still part of its day: neither replaced by a refresh nor expired (rows written before
    /// record 0534 mark a replaced offer `expired`).
    public var isCurrent: Bool { status != .expired && status != .replaced }

    /// The model's probability as answers show it: nil for a custom mission the model could not
    /// score (stored with `MissionService.unscoredVersion`, record 0535).
    public var shownPComplete: Double? { modelVersion == MissionService.unscoredVersion ? nil : pComplete }
}
