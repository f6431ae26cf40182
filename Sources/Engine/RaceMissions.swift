import RunusCore
import Missions

/// Missions of the races a runner joined (record 0649): joining a race offers "finish a race of
/// this distance" on the race's local day (in the runner's zone at the start), beside the day's
/// daily missions. The race's run decides it (`RunIngestion` with the race's result); like any
/// offer, it is failed or expired once the day is over without a race that completed it.
///
/// The models do not score race kinds (the runner's runs hold no race results to learn them
/// from, `HistoryLabels.excludedKinds`), so the probability is the runner's own finish rate in
/// the races they ran, shrunk toward `priorFinishRate` by `priorStrength` races.
public struct RaceMissions: Sendable {
    let store: any EngineStore
    let resolver: any UTCOffsetResolver

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.resolver = resolver
    }

    /// Most race missions one local day may have (a runner may join many races of one day;
    /// two of one distance are one mission).
    public static let perDay = 3
    /// The finish rate assumed for a runner without finished races, and its weight in races.
    public static let priorFinishRate = 0.85
    public static let priorStrength = 4.0
    /// Finished races read for a runner's finish rate (the most recent ones).
    static let racesRead = 20
    /// The model version stored with a race mission (its probability is the finish rate).
    public static let version = "race-finish-rate"

    /// The id of the day's `ordinal`-th race mission (1-based): `race:2026-12-01:1`. Its parts
    /// are a fixed-format day and a number joined by `:`, which neither contains; no offered id
    /// contains `:` and custom ids begin with `custom:` (`MissionRole`).
    static func id(day: CivilDate, ordinal: Int) -> String {
        MissionRole.racePrefix + day.description + ":" + String(ordinal)
    }

    /// The runner's finish probability: (finished + prior × strength) / (races + strength),
    /// over `results`, the runner's rows of races that ended (a race without the runner's row
    /// is not counted).
    public static func finishProbability(results: [StoredRaceResult]) -> Double {
        let finished = Double(results.filter { $0.status == RankingEntry.Status.finished.rawValue }.count)
        return (finished + priorFinishRate * priorStrength) / (Double(results.count) + priorStrength)
    }

    /// Offers `user` the race mission of a race of `distance` metres starting at `start` (Unix
    /// seconds), on the race's local day; nil when that day has the same mission already, or
    /// `perDay` race missions. Unknown runners get nothing.
    @discardableResult
    public func offer(user userID: UserID, distance: Meters, start: EpochSeconds, now: EpochSeconds) throws -> MissionAssignment? {
        guard distance.isFinite, distance > 0, start.isFinite, let user = try store.user(id: userID) else { return nil }
        let spec = MissionSpec.raceFinish(minDistance: distance)
        let canonical = spec.canonicalJSON
        return try insert(spec, pComplete: try finishProbability(user: userID, now: now), version: Self.version, user: userID,
                          day: user.localDay(at: start, resolver: resolver), now: now) { todays in
            todays.filter { $0.kind == MissionKind.raceFinish.rawValue }.count < Self.perDay
                && !todays.contains { $0.isCurrent && $0.specJSON == canonical }
        }
    }

    /// The finish probability of `user` from their last `racesRead` races that started before
    /// `now` and were not cancelled.
    func finishProbability(user userID: UserID, now: EpochSeconds) throws -> Double {
        let results = try store.races(user: userID)
            .filter { $0.cancelledAt == nil && $0.startTime < now }
            .sorted { $0.startTime > $1.startTime }
            .prefix(Self.racesRead)
            .compactMap { race in try store.raceResults(race: race.id).first { ExactText.same($0.userID, userID) } }
        return Self.finishProbability(results: Array(results))
    }

    /// Stores `spec` as the next race mission of `user` on `day`, in one transaction with the
    /// reading of that day's race missions, when `allowed` says their list leaves room for it.
    func insert(_ spec: MissionSpec, pComplete p: Double, version: String, user userID: UserID, day: CivilDate,
                now: EpochSeconds, allowed: ([MissionAssignment]) -> Bool) throws -> MissionAssignment? {
        try store.transaction(runners: [userID]) {
            try insertInTransaction(spec, pComplete: p, version: version, user: userID, day: day, now: now, allowed: allowed)
        }
    }

    /// `insert`'s body, for a caller that holds a transaction with `user`'s lock.
    func insertInTransaction(_ spec: MissionSpec, pComplete p: Double, version: String, user userID: UserID, day: CivilDate,
                             now: EpochSeconds, allowed: ([MissionAssignment]) -> Bool) throws -> MissionAssignment? {
        let todays = try store.assignments(user: userID, day: day)
        let races = todays.filter { $0.role == .race }
        guard allowed(races) else { return nil }
        var ordinal = races.count + 1
        while todays.contains(where: { $0.id == Self.id(day: day, ordinal: ordinal) }) { ordinal += 1 }
        let assignment = MissionAssignment(
            id: Self.id(day: day, ordinal: ordinal), userID: userID, day: day, kind: spec.kind.rawValue,
            specJSON: spec.canonicalJSON, modelVersion: version, pComplete: p,
            xp: MissionXP.xp(for: spec, pComplete: p), status: .offered, offeredAt: now)
        try store.insertAssignment(assignment)
        return assignment
    }

    /// The "why" of a race mission of `spec`.
    static func why(_ spec: MissionSpec?) -> String {
        switch spec {
        case .podium(let place)?:
            return place == 1 ? "the race you are in has started, and against this field a win is within reach"
                : "the race you are in has started, and against this field a place in the top \(place) is within reach"
        default:
            return "you joined a race that day: finish it to complete this mission"
        }
    }

    /// A stored race mission as the day's missions list it; nil when its spec cannot be read.
    public static func todayMission(_ a: MissionAssignment) -> TodayMission? {
        guard let spec = try? MissionSpec(json: try JSONParser.parse(a.specJSON)) else { return nil }
        return TodayMission(assignmentID: a.id, spec: spec, title: MissionTitle.title(for: spec), pComplete: a.pComplete,
                            xp: a.xp, why: why(spec), status: a.status, isStretch: false, isCustom: false, isRace: true,
                            firstDay: a.day, lastDay: a.day)
    }
}

extension RaceResult {
    /// The result of a runner whose ranking row is `entry` among `ranking` (every runner of the
    /// race), for a race of `distance` metres; nil when the figures cannot be a result.
    static func of(_ entry: RankingEntry?, ranking: [RankingEntry], distance: Meters) -> RaceResult? {
        guard distance.isFinite, distance > 0, !ranking.isEmpty else { return nil }
        let finished = entry?.status == .finished
        let place = finished ? entry.map(\.rank).flatMap { (1...ranking.count).contains($0) ? $0 : nil } : nil
        return RaceResult(distance: distance, finished: finished && place != nil, place: place, participants: ranking.count)
    }
}
