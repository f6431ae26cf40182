import RunusCore
import Missions

/// Why `missions.custom` refused a mission, each naming the value and what was expected.
public enum CustomMissionError: Error, CustomStringConvertible, Equatable {
    /// Race kinds are decided by a race's result, never by a run.
    case raceKind(MissionKind)
    /// A custom mission is for the runner's today or tomorrow.
    case dayOutOfRange(asked: CivilDate, today: CivilDate)
    /// The day has `MissionService.customPerDay` custom missions already.
    case tooMany(day: CivilDate, limit: Int)
    /// The day has this very mission already (one run would earn it twice).
    case duplicate(id: String)

    public var description: String {
        switch self {
        case .raceKind(let kind):
            return "kind \(kind.rawValue) is decided by a race's result, not by a run: race missions cannot be set"
        case .dayOutOfRange(let asked, let today):
            return "date \(asked) is outside \(today)…\(today.adding(days: 1)) (today and tomorrow in the runner's time zone)"
        case .tooMany(let day, let limit):
            return "\(day) has \(limit) missions you set already, the most a day may have"
        case .duplicate(let id):
            return "the day has this mission already (id \(id))"
        }
    }
}

/// Missions the runner sets (record 0535): any kind a run can complete, for today or tomorrow,
/// scored by the served model as `missions.score` scores it and worth `MissionXP` at that
/// probability, stored beside the day's offers and, from then on, listed, followed and completed
/// like them.
extension MissionService {
    /// Most custom missions a runner may set for one local day.
    public static let customPerDay = 3
    /// The model version stored with a custom mission the served model does not score (its
    /// stored probability, 1, is what its XP was priced at: no difficulty bonus).
    public static let unscoredVersion = "unscored"

    /// The id of the day's `ordinal`-th custom mission (1-based): `custom:2026-12-01:1`. Its
    /// parts are a fixed-format day and a number, joined by `:`, which neither contains, and
    /// no offered id (`day-round-slot`) contains `:`, so ids never collide (`MissionRole`).
    static func customID(day: CivilDate, ordinal: Int) -> String {
        MissionRole.customPrefix + day.description + ":" + String(ordinal)
    }

    /// Stores `spec` as a mission of `userID`'s `day` (default: the runner's today at `now`)
    /// and returns it as `today` lists it, with the reason it has no probability when it has none.
    public func custom(user userID: UserID, spec: MissionSpec, day requestedDay: CivilDate?, now: EpochSeconds) throws
        -> (day: CivilDate, mission: TodayMission, reason: String?) {
        guard spec.kind != .raceFinish && spec.kind != .podium else { throw CustomMissionError.raceKind(spec.kind) }
        let moment = try self.moment(user: userID, at: now)
        let today = moment.day
        if let requestedDay, requestedDay < today || requestedDay > today.adding(days: 1) {
            throw CustomMissionError.dayOutOfRange(asked: requestedDay, today: today)
        }
        // Scored on the state `today` offers the day's missions from, so the two agree.
        let (day, state) = try runnerState(moment, day: requestedDay)
        let scored = scored([spec], state: state).first
        let p = scored?.pComplete.flatMap { $0.isFinite ? $0.clamped(to: 0...1, nan: 1) : nil }
        let xp = MissionXP.xp(for: spec, pComplete: p ?? .nan)
        let canonical = spec.canonicalJSON
        return try store.transaction(runners: [userID]) {
            let todays = try store.assignments(user: userID, day: day)
            let customs = todays.filter { $0.role == .custom }
            guard customs.count < Self.customPerDay else { throw CustomMissionError.tooMany(day: day, limit: Self.customPerDay) }
            if let same = todays.first(where: { $0.isCurrent && $0.specJSON == canonical }) {
                throw CustomMissionError.duplicate(id: same.id)
            }
            var ordinal = customs.count + 1
            while todays.contains(where: { $0.id == Self.customID(day: day, ordinal: ordinal) }) { ordinal += 1 }
            let assignment = MissionAssignment(
                id: Self.customID(day: day, ordinal: ordinal), userID: userID, day: day, kind: spec.kind.rawValue,
                specJSON: canonical, modelVersion: p == nil ? Self.unscoredVersion : scorer.version,
                pComplete: p ?? 1, xp: xp, status: .offered, offeredAt: moment.instant)
            try store.insertAssignment(assignment)
            return (day, try Self.todayMission(assignment, state: state, user: moment.profile, day: day),
                    p == nil ? scored?.reason ?? "the served model gave no finite probability" : nil)
        }
    }

    /// The "why" of a mission the runner set.
    static let customWhy = "you set this mission yourself"
}
