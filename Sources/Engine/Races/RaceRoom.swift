import RunusCore
import Tracking

/// A race's settings, as created.
public struct RaceSettings: Sendable, Equatable {
    public let id: String
    public let name: String
    /// Race distance, metres (400 m … 42.195 km … 100 km).
    public let distance: Meters
    /// Start instant, Unix seconds: the race starts by itself then.
    public let startTime: EpochSeconds
    /// Maximum participants (2 … 1000).
    public let capacity: Int
    /// Listed by `race.list` when true.
    public let isPublic: Bool
    /// The runner who created it (caps count open races per creator).
    public let createdBy: UserID
    /// SHA-256 hex of the secret a private race is watched and joined with (nil for a public
    /// race); the secret itself is given to the host once and kept nowhere.
    public let inviteDigest: String?

    public init(id: String, name: String, distance: Meters, startTime: EpochSeconds, capacity: Int, isPublic: Bool = true,
                createdBy: UserID = "", inviteDigest: String? = nil) {
        self.id = id; self.name = name; self.distance = distance; self.startTime = startTime
        self.capacity = capacity; self.isPublic = isPublic; self.createdBy = createdBy; self.inviteDigest = inviteDigest
    }

    /// A runner still on the course this long after the start is out of time, seconds: 15 min/km,
    /// at least one hour.
    public var cutoff: Seconds { max(3600, distance / 1000 * 900) }
}

public enum RacePhase: String, Sendable, Equatable {
    case waiting, running, finished
}

/// Why a request to a room was refused.
public enum RaceError: Error, Equatable, CustomStringConvertible {
    case full(capacity: Int)
    case alreadyStarted
    case alreadyJoined(UserID)
    case finished
    case unknownParticipant
    /// A point timed ahead of the server clock by more than `RacePositionRules.maximumLead`.
    case pointInTheFuture(index: Int, time: EpochSeconds, now: EpochSeconds, limit: Seconds)
    /// The finish these points make is faster than any runner (`WorldRecordPace`): the runner is
    /// disqualified.
    case implausibleFinish(time: Seconds, distance: Meters, record: Seconds)
    /// The runner was disqualified earlier.
    case disqualified

    public var description: String {
        func s(_ x: Double) -> String { "\(Int(saturating: x.rounded())) s" }
        switch self {
        case .full(let c): return "the race is full (\(c) runners)"
        case .alreadyStarted: return "the race has started; joining is closed"
        case .alreadyJoined(let u): return "'\(u)' has already joined this race"
        case .finished: return "the race is over"
        case .unknownParticipant: return "unknown participant token"
        case .pointInTheFuture(let i, let t, let now, let limit):
            return "points[\(i)] is timed \(t), \(s(t - now)) ahead of the server clock (\(now)); at most \(s(limit)) of skew is accepted"
        case .implausibleFinish(let time, let distance, let record):
            return "a finish in \(s(time)) over \(Int(saturating: distance.rounded())) m is faster than anyone runs (world record \(s(record))): the runner is disqualified"
        case .disqualified: return "the runner was disqualified from this race"
        }
    }
}

/// How fresh race positions must be: the server's clock, not the client's, decides when a point
/// was run (docs/decisions/0525-race-positions-and-rooms.md).
public struct RacePositionRules: Sendable, Equatable {
    /// How far a point may be timed ahead of the server clock, seconds (clock skew).
    public var maximumLead: Seconds = 10
    /// How old a point may be when it arrives, seconds: a phone buffering through a tunnel
    /// sends late points, which count; older ones do not (nobody can fill in a race afterwards).
    public var maximumLag: Seconds = 300
    /// The least race time between two counted points of one runner, seconds: phones sample at
    /// 1 Hz, a few at 2 Hz; closer points are left out (record 0551).
    public var minimumPointSpacing: Seconds = 0.5
    /// The most points one runner counts in one race: 25 h (the longest cutoff) at 1 Hz, with
    /// room to spare (record 0551).
    public var maximumPointsPerRunner = 100_000

    public init() {}

    /// The points that count: refuses the whole batch at its first point ahead of `now` by more
    /// than `maximumLead` (a client clock to fix, not data to keep), and leaves out points
    /// older than `maximumLag` (a batch a client keeps resending would otherwise fail for ever).
    public func fresh(_ points: [TrackPoint], now: EpochSeconds) throws(RaceError) -> [TrackPoint] {
        for (i, p) in points.enumerated() where !(p.time <= now + maximumLead) {
            throw .pointInTheFuture(index: i, time: p.time, now: now, limit: maximumLead)
        }
        return points.filter { $0.time >= now - maximumLag }
    }
}

/// One runner's line in a ranking.
public struct RankingEntry: Sendable, Equatable {
    public enum Status: String, Sendable { case waiting, running, finished, left, stopped, outOfTime = "out_of_time", disqualified }
    public let rank: Int
    public let userID: UserID
    public let status: Status
    /// Distance covered, metres (the race distance once finished).
    public let distance: Meters
    /// Race time of a finisher, seconds from the start (interpolated at the line).
    public let finishTime: Seconds?
    /// Average pace so far, s/km (nil before 10 m).
    public let pace: SecondsPerKm?
    /// Metres behind the leader (0 for the leader; for finishers, the seconds gap is `timeGap`).
    public let gap: Meters
    /// Seconds behind the winner, finishers only.
    public let timeGap: Seconds?
}

/// What the room tells the outside world; the server turns these into pushed lines.
public enum RaceEvent: Sendable, Equatable {
    case waiting(participants: [UserID], countdown: Seconds)
    case started(at: EpochSeconds)
    case ranking([RankingEntry])
    case finished([RankingEntry])
    /// The host called the race off before its start; the room is gone.
    case cancelled
}

/// A race room as a pure state machine: requests and clock ticks in, events out. It owns no
/// socket and reads no clock; the daemon feeds it and fans its events out.
public struct RaceRoom<Tracker: RaceDistanceTracker>: Sendable {
    public let settings: RaceSettings
    public private(set) var phase: RacePhase = .waiting
    private var runners: [Runner] = []
    /// `trackers[i]` is `runners[i]`'s (kept apart so that scans and rankings copy the small
    /// `Runner`s only, not the trackers' state: record 0543).
    private var trackers: [Tracker] = []
    private let makeTracker: @Sendable () -> Tracker
    public var rules = RacePositionRules()

    /// A runner who has sent nothing for this long is shown as stopped, seconds.
    public static var staleAfter: Seconds { 30 }

    struct Runner: Sendable {
        let userID: UserID
        /// SHA-256 hex of the participant token (the token itself is kept nowhere).
        let tokenDigest: String
        /// The distance rankings show, metres: the tracker's, never less than shown before, so
        /// that a part the vehicle rule has not decided yet holds the runner where they were
        /// instead of pulling them back (issue 24; record 0526).
        var shownDistance: Meters = 0
        var left = false
        var finishTime: Seconds?
        var lastPointTime: EpochSeconds?
        var lastHeard: EpochSeconds
        /// Points the tracker has taken (`RacePositionRules.admitted`, record 0551).
        var countedPoints = 0
        /// Sent a finish faster than any runner: out of the race, listed last.
        var disqualified = false
    }

    public init(settings: RaceSettings, makeTracker: @escaping @Sendable () -> Tracker) {
        self.settings = settings; self.makeTracker = makeTracker
    }

    public var participants: [UserID] { runners.filter { !$0.left }.map(\.userID) }

    /// Whether `user` joined this room, whether or not they left since.
    public func includes(user: UserID) -> Bool { runners.contains { ExactText.same($0.userID, user) } }

    /// The runner a participant token (by its digest) belongs to.
    public func participant(tokenDigest: String) -> UserID? { runners.first { $0.tokenDigest == tokenDigest }?.userID }

    /// Runners who joined and have not left, with the digest of their token.
    public var joined: [(user: UserID, tokenDigest: String)] {
        runners.filter { !$0.left }.map { ($0.userID, $0.tokenDigest) }
    }

    /// Adds a runner before the start; the token whose digest is `tokenDigest` authenticates
    /// their positions later. "Before the start" (up to its instant) is by `now` against the start time, not by the
    /// phase a clock tick moved the room to: daemons sharing a race tick at their own instants,
    /// and must all accept the same logged commands (record 0541).
    public mutating func join(user: UserID, tokenDigest: String, now: EpochSeconds) throws -> [RaceEvent] {
        guard phase != .finished else { throw RaceError.finished }
        guard now <= settings.startTime else { throw RaceError.alreadyStarted }
        guard !runners.contains(where: { ExactText.same($0.userID, user) && !$0.left }) else { throw RaceError.alreadyJoined(user) }
        guard participants.count < settings.capacity else { throw RaceError.full(capacity: settings.capacity) }
        while let j = runners.firstIndex(where: { ExactText.same($0.userID, user) }) {
            runners.remove(at: j)
            trackers.remove(at: j)
        }
        runners.append(Runner(userID: user, tokenDigest: tokenDigest, lastHeard: now))
        trackers.append(makeTracker())
        return [waitingEvent(now: now)]
    }

    /// A runner leaves (before or during the race); they stay in the results as "left".
    public mutating func leave(tokenDigest: String, now: EpochSeconds) throws -> [RaceEvent] {
        guard let i = runners.firstIndex(where: { $0.tokenDigest == tokenDigest && !$0.left }) else { throw RaceError.unknownParticipant }
        runners[i].left = true
        // Before the start time the runner is simply gone, whatever a tick made of the phase.
        if phase != .finished, now < settings.startTime {
            runners.remove(at: i)
            trackers.remove(at: i)
            return [waitingEvent(now: now)]
        }
        switch phase {
        case .waiting:
            // Past the start time but not yet ticked: the race has begun for this runner.
            return [.ranking(ranking(now: now))]
        case .running:
            return finishIfDone(now: now) ?? [.ranking(ranking(now: now))]
        case .finished:
            return []
        }
    }

    /// Why `position` would refuse a runner's points whatever they are (a token of nobody in the
    /// race, a finished race, a disqualified runner); nil when it takes points that `rules`
    /// accept. What a daemon checks before it logs a position ahead of applying it (record 0543).
    public func positionRefusal(tokenDigest: String) -> RaceError? {
        guard let runner = runners.first(where: { $0.tokenDigest == tokenDigest && !$0.left }) else { return .unknownParticipant }
        if phase == .finished { return .finished }
        if runner.disqualified { return .disqualified }
        return nil
    }

    /// New points of a runner; points before the start do not count. Points must be timed within
    /// `rules` of `now` (the server's clock); a finish faster than `WorldRecordPace` allows
    /// disqualifies the runner and is refused.
    public mutating func position(tokenDigest: String, points: [TrackPoint], now: EpochSeconds) throws -> [RaceEvent] {
        if let refusal = positionRefusal(tokenDigest: tokenDigest) { throw refusal }
        guard let i = runners.firstIndex(where: { $0.tokenDigest == tokenDigest && !$0.left }) else { throw RaceError.unknownParticipant }
        let points = try rules.fresh(points, now: now)
        runners[i].lastHeard = now
        var events: [RaceEvent] = []
        if phase == .waiting, now >= settings.startTime { events += start() }
        guard phase == .running, runners[i].finishTime == nil else { return events }
        let counted = rules.admitted(points, after: runners[i].lastPointTime, counted: runners[i].countedPoints, window: window)
        guard !counted.isEmpty else { return events }
        runners[i].countedPoints += counted.count
        trackers[i].append(counted)
        runners[i].shownDistance = max(runners[i].shownDistance, trackers[i].distance)
        runners[i].lastPointTime = counted[counted.count - 1].time
        if trackers[i].distance >= settings.distance,
           let crossed = trackers[i].profile.time(atDistance: settings.distance) {
            let time = crossed - settings.startTime
            if WorldRecordPace.isSuperhuman(distance: settings.distance, time: time) {
                runners[i].disqualified = true
                throw RaceError.implausibleFinish(time: time, distance: settings.distance,
                                                  record: WorldRecordPace.recordTime(over: settings.distance))
            }
            runners[i].finishTime = time
        }
        if let done = finishIfDone(now: now) { return events + done }
        return events + [.ranking(ranking(now: now))]
    }

    /// The instants whose points count, Unix seconds: from the start to the cutoff.
    public var window: ClosedRange<EpochSeconds> { settings.startTime...(settings.startTime + settings.cutoff) }

    /// The points of a batch this runner's tracker would take now (`RacePositionRules.admitted`,
    /// record 0551): none for a token of nobody, a finished runner or a room not yet running
    /// by `now`. What the daemon logs of a position.
    public func admitted(tokenDigest: String, points: [TrackPoint], now: EpochSeconds) -> [TrackPoint] {
        guard phase != .finished, now >= settings.startTime,
              let runner = runners.first(where: { $0.tokenDigest == tokenDigest && !$0.left }),
              runner.finishTime == nil, !runner.disqualified else { return [] }
        return rules.admitted(points, after: runner.lastPointTime, counted: runner.countedPoints, window: window)
    }

    /// Time passes: the race starts at its start time and ends at its cutoff.
    public mutating func tick(now: EpochSeconds) -> [RaceEvent] {
        switch phase {
        case .waiting:
            return now >= settings.startTime ? start() + [.ranking(ranking(now: now))] : [waitingEvent(now: now)]
        case .running:
            return finishIfDone(now: now) ?? [.ranking(ranking(now: now))]
        case .finished:
            return []
        }
    }

    private mutating func start() -> [RaceEvent] {
        phase = .running
        return [.started(at: settings.startTime)]
    }

    private mutating func finishIfDone(now: EpochSeconds) -> [RaceEvent]? {
        let active = runners.filter { !$0.left && !$0.disqualified }
        let allDone = !active.isEmpty && active.allSatisfy { $0.finishTime != nil }
        let outOfTime = now >= settings.startTime + settings.cutoff
        guard phase == .running, allDone || outOfTime || active.isEmpty else { return nil }
        phase = .finished
        return [.finished(ranking(now: now))]
    }

    private func waitingEvent(now: EpochSeconds) -> RaceEvent {
        .waiting(participants: participants, countdown: max(0, settings.startTime - now))
    }

    /// The ranking: finishers by race time, then runners on course by distance, then runners who
    /// left; ties by user id so that the order is total.
    public func ranking(now: EpochSeconds) -> [RankingEntry] {
        let rows = runners.map { (runner: $0, distance: $0.finishTime != nil ? settings.distance : min($0.shownDistance, settings.distance)) }
        func group(_ r: Runner) -> Int { r.finishTime != nil ? 0 : r.disqualified ? 3 : (r.left ? 2 : 1) }
        let sorted = rows.sorted { a, b in
            let ga = group(a.runner), gb = group(b.runner)
            if ga != gb { return ga < gb }
            if let ta = a.runner.finishTime, let tb = b.runner.finishTime, ta != tb { return ta < tb }
            if a.distance != b.distance { return a.distance > b.distance }
            return a.runner.userID < b.runner.userID
        }
        let leaderDistance = sorted.first?.distance ?? 0
        let winnerTime = sorted.first?.runner.finishTime
        return sorted.enumerated().map { i, row in
            let r = row.runner
            let status: RankingEntry.Status
            if r.finishTime != nil { status = .finished }
            else if r.disqualified { status = .disqualified }
            else if r.left { status = .left }
            else if phase == .waiting { status = .waiting }
            else if phase == .finished { status = .outOfTime }
            else if now - r.lastHeard > Self.staleAfter { status = .stopped }
            else { status = .running }
            let elapsed = r.finishTime ?? ((r.lastPointTime ?? settings.startTime) - settings.startTime)
            let pace = row.distance >= 10 ? elapsed / (row.distance / 1000) : nil
            return RankingEntry(rank: i + 1, userID: r.userID, status: status, distance: row.distance,
                                finishTime: r.finishTime, pace: pace, gap: max(0, leaderDistance - row.distance),
                                timeGap: r.finishTime.flatMap { t in winnerTime.map { t - $0 } })
        }
    }
}
