import Synchronization
import RunusCore
import Tracking

/// A race's final result for one runner, with what it earned.
public struct RaceAward: Sendable, Equatable {
    public let userID: UserID
    public let xp: Int
    public let badges: [String]
}

/// What `race.list` shows of a room.
public struct RaceSummary: Sendable, Equatable {
    public let settings: RaceSettings
    public let phase: RacePhase
    public let participants: Int
}

/// Where a `race.list` page ends: the (start time, id) of its last race. Races are listed by
/// start time then id, so the next page starts strictly after it.
public struct RaceListCursor: Sendable, Equatable {
    public let startTime: EpochSeconds
    public let id: String

    public init(startTime: EpochSeconds, id: String) { self.startTime = startTime; self.id = id }

    /// The wire form: the start time's IEEE bits in hex, `.`, the race id (which ends the text,
    /// so any character in it parses one way).
    public var text: String { String(startTime.bitPattern, radix: 16) + "." + id }

    public init?(text: String) {
        guard let dot = text.firstIndex(of: "."), let bits = UInt64(text[..<dot], radix: 16) else { return nil }
        let start = Double(bitPattern: bits)
        guard start.isFinite else { return nil }
        self.init(startTime: start, id: String(text[text.index(after: dot)...]))
    }
}

/// Caps on rooms, so that creating races cannot exhaust the daemon (record 0525).
public struct RaceLimits: Sendable, Equatable {
    /// Rooms not finished that one creator may have.
    public var openPerCreator = 10
    /// Rooms not finished in the whole daemon.
    public var openInTotal = 10_000
    /// How long a finished room's results stay available, seconds (24 h).
    public var finishedRetention: Seconds = 86_400

    public init() {}
}

/// The live race rooms of one daemon: a registry of pure `RaceRoom`s behind a lock, plus the
/// rewards of finished races (XP to the ledger, badges). Rooms live in memory: a restarted
/// daemon forgets races in progress (docs/decisions/0008-race-rooms.md).
public final class RaceService<Tracker: RaceDistanceTracker>: Sendable {
    struct Room: Sendable {
        var room: RaceRoom<Tracker>
        var awards: [RaceAward]?
    }

    /// One lock per room, so that updates of different races never wait for each other.
    final class RoomBox: Sendable {
        let state: Mutex<Room>
        init(_ room: Room) { state = Mutex(room) }
    }

    private let rooms = Mutex<[String: RoomBox]>([:])
    private let store: any EngineStore
    private let resolver: any UTCOffsetResolver
    private let makeTracker: @Sendable () -> Tracker
    public let limits: RaceLimits
    public let positionRules: RacePositionRules

    /// XP for finishing (plus per km), and bonuses for the podium (record 0008).
    public static var finishXP: Int { 50 }
    public static var finishXPPerKilometre: Double { 10 }
    public static var winXP: Int { 100 }
    public static var podiumXP: Int { 50 }

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver(),
                limits: RaceLimits = RaceLimits(), positionRules: RacePositionRules = RacePositionRules(),
                makeTracker: @escaping @Sendable () -> Tracker) {
        self.store = store; self.resolver = resolver; self.makeTracker = makeTracker
        self.limits = limits; self.positionRules = positionRules
    }

    /// Creates a room; refuses a duplicate id, and a creator or a daemon at its cap of open rooms.
    public func create(_ settings: RaceSettings) throws {
        var room = RaceRoom(settings: settings, makeTracker: makeTracker)
        room.rules = positionRules
        // Counted and inserted under the registry's lock (room locks nest inside it, never the
        // other way), so that concurrent creations cannot pass a cap together.
        try rooms.withLock { rooms in
            guard rooms[settings.id] == nil else { throw RaceServiceError.duplicate(settings.id) }
            var open = 0, mine = 0
            for box in rooms.values {
                let (creator, phase) = box.state.withLock { ($0.room.settings.createdBy, $0.room.phase) }
                guard phase != .finished else { continue }
                open += 1
                if creator == settings.createdBy { mine += 1 }
            }
            if open >= limits.openInTotal { throw RaceServiceError.tooManyRaces(limit: limits.openInTotal) }
            if mine >= limits.openPerCreator {
                throw RaceServiceError.tooManyRacesByCreator(settings.createdBy, limit: limits.openPerCreator)
            }
            rooms[settings.id] = RoomBox(Room(room: room))
        }
    }

    /// Public rooms not finished, by start time then id, optionally filtered by distance (metres)
    /// and start time (Unix seconds) ranges: the `limit` after `cursor`, and the cursor of the
    /// next page (nil on the last one).
    public func list(distance: ClosedRange<Meters>? = nil, start: ClosedRange<EpochSeconds>? = nil,
                     after cursor: RaceListCursor? = nil, limit: Int = .max) -> (races: [RaceSummary], next: RaceListCursor?) {
        let boxes = rooms.withLock { Array($0.values) }
        let all = boxes.map { $0.state.withLock { $0.room } }
                .filter { $0.settings.isPublic && $0.phase != .finished }
                .filter { r in distance.map { $0.contains(r.settings.distance) } ?? true }
                .filter { r in start.map { $0.contains(r.settings.startTime) } ?? true }
                .filter { r in cursor.map { (r.settings.startTime, r.settings.id) > ($0.startTime, $0.id) } ?? true }
                .sorted { ($0.settings.startTime, $0.settings.id) < ($1.settings.startTime, $1.settings.id) }
        let page = all.prefix(max(0, limit))
        let next = page.count < all.count ? page.last.map { RaceListCursor(startTime: $0.settings.startTime, id: $0.settings.id) } : nil
        return (page.map { RaceSummary(settings: $0.settings, phase: $0.phase, participants: $0.participants.count) }, next)
    }

    /// The room's settings, invite included (for the daemon's access checks).
    public func settings(_ id: String) throws -> RaceSettings { try box(id).state.withLock { $0.room.settings } }

    private func box(_ id: String) throws -> RoomBox {
        guard let box = rooms.withLock({ $0[id] }) else { throw RaceServiceError.unknownRace(id) }
        return box
    }

    public func summary(_ id: String) throws -> RaceSummary {
        let r = try box(id).state.withLock { $0.room }
        return RaceSummary(settings: r.settings, phase: r.phase, participants: r.participants.count)
    }

    public func join(_ id: String, user: UserID, token: String, now: EpochSeconds) throws -> [RaceEvent] {
        guard try store.user(id: user) != nil else { throw RaceServiceError.unknownUser(user) }
        return try update(id, now: now) { try $0.join(user: user, token: token, now: now) }
    }

    public func leave(_ id: String, token: String, now: EpochSeconds) throws -> [RaceEvent] {
        try update(id, now: now) { try $0.leave(token: token, now: now) }
    }

    public func position(_ id: String, token: String, points: [TrackPoint], now: EpochSeconds) throws -> [RaceEvent] {
        try update(id, now: now) { try $0.position(token: token, points: points, now: now) }
    }

    /// The host (`createdBy`) calls race `id` off before its start: the room is forgotten and
    /// its id answers `unknownRace` from then on. Returns the event for its watchers.
    public func cancel(_ id: String, by user: UserID) throws -> [RaceEvent] {
        try rooms.withLock { rooms in
            guard let box = rooms[id] else { throw RaceServiceError.unknownRace(id) }
            let (host, phase) = box.state.withLock { ($0.room.settings.createdBy, $0.room.phase) }
            guard host == user else { throw RaceServiceError.notHost(race: id, user: user) }
            guard phase == .waiting else { throw RaceError.alreadyStarted }
            rooms[id] = nil
        }
        return [.cancelled]
    }

    /// The runner a participant token belongs to in race `id`.
    public func participant(_ id: String, token: String) throws -> UserID? {
        try box(id).state.withLock { $0.room.participant(token: token) }
    }

    /// Advances every room's clock; returns the events per race id. Rooms finished more than
    /// `limits.finishedRetention` before `now` are forgotten.
    public func tick(now: EpochSeconds) -> [(String, [RaceEvent])] {
        rooms.withLock { rooms in
            rooms = rooms.filter { _, box in
                box.state.withLock { entry in
                    let room = entry.room
                    return room.phase != .finished || now < room.settings.startTime + room.settings.cutoff + limits.finishedRetention
                }
            }
        }
        let ids = rooms.withLock { Array($0.keys).sorted() }
        return ids.compactMap { id in
            let events = (try? update(id, now: now) { $0.tick(now: now) }) ?? []
            return events.isEmpty ? nil : (id, events)
        }
    }

    /// The final ranking and awards, once the race is over.
    public func results(_ id: String, now: EpochSeconds) throws -> (ranking: [RankingEntry], awards: [RaceAward]) {
        try box(id).state.withLock { r in
            guard r.room.phase == .finished, let awards = r.awards else { throw RaceServiceError.notFinished(id) }
            return (r.room.ranking(now: now), awards)
        }
    }

    /// Applies `change` to a room under the lock; when it finishes the race, awards XP and badges
    /// in one store transaction.
    private func update(_ id: String, now: EpochSeconds, _ change: (inout RaceRoom<Tracker>) throws -> [RaceEvent]) throws -> [RaceEvent] {
        let box = try box(id)
        let (events, finished) = try box.state.withLock { entry -> ([RaceEvent], [RankingEntry]?) in
            let events = try change(&entry.room)
            for case .finished(let ranking) in events where entry.awards == nil { return (events, ranking) }
            return (events, nil)
        }
        if let finished {
            let awards = try award(raceID: id, ranking: finished, now: now)
            box.state.withLock { $0.awards = awards }
        }
        return events
    }

    private func award(raceID: String, ranking: [RankingEntry], now: EpochSeconds) throws -> [RaceAward] {
        let distance = try summary(raceID).settings.distance
        return try store.transaction {
            var awards: [RaceAward] = []
            for entry in ranking where entry.status == .finished {
                guard let user = try store.user(id: entry.userID) else { continue }
                var xp = Self.finishXP + Int(saturating: (distance / 1000 * Self.finishXPPerKilometre).rounded())
                try store.insertReward(RewardEntry(userID: user.id, time: now, xp: xp,
                                                   reason: RewardReason.raceFinish, ref: raceID))
                if entry.rank <= 3 {
                    let bonus = entry.rank == 1 ? Self.winXP : Self.podiumXP
                    try store.insertReward(RewardEntry(userID: user.id, time: now, xp: bonus,
                                                       reason: entry.rank == 1 ? RewardReason.raceWin : RewardReason.racePodium,
                                                       ref: raceID))
                    xp += bonus
                }
                let badges = try BadgeAwarding(store: store, resolver: resolver).award(to: user, at: now, runID: nil)
                awards.append(RaceAward(userID: user.id, xp: xp, badges: badges.map(\.id)))
            }
            return awards
        }
    }
}

public enum RaceServiceError: Error, Equatable, CustomStringConvertible {
    case unknownRace(String)
    case duplicate(String)
    case unknownUser(UserID)
    case notFinished(String)
    case tooManyRacesByCreator(UserID, limit: Int)
    case tooManyRaces(limit: Int)
    /// Only the runner who created a race may cancel it.
    case notHost(race: String, user: UserID)

    public var description: String {
        switch self {
        case .unknownRace(let id): return "no race '\(id)'"
        case .duplicate(let id): return "a race '\(id)' exists already"
        case .unknownUser(let id): return "unknown user '\(id)'"
        case .notFinished(let id): return "race '\(id)' is not over yet"
        case .tooManyRacesByCreator(let user, let limit):
            return "'\(user)' has \(limit) races not yet finished, the most one runner may have open"
        case .tooManyRaces(let limit): return "the daemon holds \(limit) races not yet finished, its limit; try again later"
        case .notHost(let race, let user): return "'\(user)' did not create race '\(race)'; only its host may cancel it"
        }
    }
}
