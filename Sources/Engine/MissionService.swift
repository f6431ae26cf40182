import RunusCore
import Features
import Missions

/// A mission offered for today, as stored and as answered.
public struct TodayMission: Sendable, Equatable {
    public let assignmentID: String
    public let spec: MissionSpec
    public let title: String
    public let pComplete: Double
    public let xp: Int
    public let why: String
    public let status: MissionStatus
}

/// Today's missions for a runner. The first request of a (runner, local day) scores candidates
/// and stores the chosen missions; later requests that day return the stored ones, so the
/// answer is stable until the day changes.
public final class MissionService: Sendable {
    let store: any EngineStore
    let scorer: any MissionScorer
    let policy: TodayPolicy
    let resolver: any UTCOffsetResolver

    public init(store: any EngineStore, scorer: any MissionScorer, policy: TodayPolicy = TodayPolicy(),
                resolver: any UTCOffsetResolver = FixedOffsetResolver()) {
        self.store = store; self.scorer = scorer; self.policy = policy; self.resolver = resolver
    }

    public var modelVersion: String { scorer.version }

    /// The runner's local day at `now`.
    public func localDay(of user: UserProfile, at now: EpochSeconds) -> CivilDate {
        user.localDay(at: now, resolver: resolver)
    }

    /// Today's `count` missions for `userID` on `day` (default: the runner's local day at `now`).
    public func today(user userID: UserID, day requestedDay: CivilDate?, count: Int, now: EpochSeconds) throws
        -> (day: CivilDate, missions: [TodayMission]) {
        guard let user = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        let day = requestedDay ?? localDay(of: user, at: now)
        // As of the start of the runner's local day: runs later that day do not change the offer.
        let asOf = day.startInstant(utcOffset: user.utcOffset(at: now, resolver: resolver))
        let history = try store.runs(user: userID, from: asOf - 365 * 86_400, to: asOf)
        let state = RunnerState(history: history, asOf: asOf)
        let stored = try store.assignments(user: userID, day: day).filter { $0.modelVersion == scorer.version }
        if stored.count >= count {
            return (day, try stored.prefix(count).map { try Self.todayMission($0, state: state) })
        }
        var policy = self.policy
        policy.count = count
        let chosen = policy.choose(state: state, scorer: scorer)
        var missions: [TodayMission] = []
        for (i, mission) in chosen.enumerated() {
            let id = "\(userID)-\(day)-\(scorer.version)-\(i + 1)"
            if let existing = stored.first(where: { $0.id == id }) {
                missions.append(try Self.todayMission(existing, state: state)); continue
            }
            try store.insertAssignment(MissionAssignment(
                id: id, userID: userID, day: day, kind: mission.spec.kind.rawValue,
                specJSON: mission.spec.canonicalJSON, modelVersion: scorer.version,
                pComplete: mission.pComplete, xp: mission.xp, status: .offered, offeredAt: now))
            missions.append(TodayMission(assignmentID: id, spec: mission.spec, title: mission.title,
                                         pComplete: mission.pComplete, xp: mission.xp, why: mission.why,
                                         status: .offered))
        }
        return (day, missions)
    }

    static func todayMission(_ a: MissionAssignment, state: RunnerState) throws -> TodayMission {
        let spec = try MissionSpec(json: try JSONParser.parse(a.specJSON))
        // The "why" sentence is rebuilt from the same as-of state, so it is stable too.
        return TodayMission(assignmentID: a.id, spec: spec, title: MissionTitle.title(for: spec),
                            pComplete: a.pComplete, xp: a.xp, why: TodayPolicy.why(spec, state: state),
                            status: a.status)
    }
}
