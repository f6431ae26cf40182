import Synchronization
import RunusCore
import Tracking
import TrackFormats

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
    /// The runners who joined and have not left, in joining order.
    public let participants: [UserID]
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

/// A room's event with its place in the room's order: `seq` rises with every event of a race,
/// including across restarts (it is at least the server clock in microseconds when the event
/// was made), so a watcher that has shown one state can drop any older one that arrives late.
public struct SequencedRaceEvent: Sendable, Equatable {
    public let event: RaceEvent
    public let seq: Int64
}

/// The race rooms of one daemon: a registry of pure `RaceRoom`s behind a lock, each backed by
/// the store (docs/decisions/0526-durable-races.md): a room's settings and every command it
/// accepted are committed before the answer, so a restarted daemon resumes its races by
/// replaying them (`resume`). Finished races award XP and badges and store their results in
/// one transaction.
public final class RaceService<Tracker: RaceDistanceTracker>: Sendable {
    struct Room: Sendable {
        var room: RaceRoom<Tracker>
        var awards: [RaceAward]?
        /// The last log entry's seq (the next command is `logSeq + 1`).
        var logSeq = 0
        /// The last event's seq.
        var eventSeq: Int64 = 0
        /// The store failed after the room applied a command: memory may be ahead of the log, so
        /// the room is rebuilt from the store before its next command.
        var stale = false
        let createdAt: EpochSeconds
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
    /// Stores a race runner's track as a run (`RunIngestion` with `source: race`); nil keeps
    /// races out of the runners' runs (tests of the room logic alone).
    private let raceRuns: RunIngestion?

    /// XP for finishing (plus per km), and bonuses for the podium (record 0008).
    public static var finishXP: Int { 50 }
    public static var finishXPPerKilometre: Double { 10 }
    public static var winXP: Int { 100 }
    public static var podiumXP: Int { 50 }
    /// The longest cutoff a race can have (100 km at 15 min/km), seconds: how far back `resume`
    /// looks for races still running.
    static var longestCutoff: Seconds { 90_000 }

    public init(store: any EngineStore, resolver: any UTCOffsetResolver = FixedOffsetResolver(),
                limits: RaceLimits = RaceLimits(), positionRules: RacePositionRules = RacePositionRules(),
                runRules: PlausibilityRules? = nil, makeTracker: @escaping @Sendable () -> Tracker) {
        self.store = store; self.resolver = resolver; self.makeTracker = makeTracker
        self.limits = limits; self.positionRules = positionRules
        raceRuns = runRules.map { RunIngestion(store: store, resolver: resolver, rules: $0) }
    }

    /// The digest a secret is kept as (participant tokens, invites).
    public static func digest(_ secret: String) -> String { SHA256.hex(secret) }

    // MARK: resuming

    /// Rebuilds every race the store holds that is not cancelled and not yet past its
    /// retention, by replaying its log; a race that finished while the daemon was down gets its
    /// results and awards now. Returns how many rooms were resumed.
    @discardableResult
    public func resume(now: EpochSeconds) throws -> Int {
        let stored = try store.activeRaces(startingFrom: now - Self.longestCutoff - limits.finishedRetention)
        var resumed = 0
        for race in stored {
            let settings = Self.settings(race)
            guard now < settings.startTime + settings.cutoff + limits.finishedRetention else { continue }
            var room = try rebuild(race)
            let events = room.room.tick(now: now)
            let box = RoomBox(room)
            rooms.withLock { $0[race.id] = box }
            if room.awards == nil, let ranking = Self.finalRanking(events) {
                room.awards = try finish(race.id, distance: settings.distance, ranking: ranking, now: now)
                box.state.withLock { $0.awards = room.awards }
            }
            resumed += 1
        }
        return resumed
    }

    /// A room as its store says: settings, the log replayed, results if stored.
    private func rebuild(_ race: StoredRace) throws -> Room {
        var room = RaceRoom(settings: Self.settings(race), makeTracker: makeTracker)
        room.rules = positionRules
        let entries = try store.raceEntries(race: race.id)
        for entry in entries {
            // A command is logged only once its room accepted it, so replaying it succeeds the
            // same way; an error here (a row written by other code) leaves the room as it was.
            switch entry.kind {
            case .join: _ = try? room.join(user: entry.userID, tokenDigest: entry.tokenDigest, now: entry.time)
            case .leave: _ = try? room.leave(tokenDigest: entry.tokenDigest, now: entry.time)
            case .position:
                let points = entry.points.flatMap { try? CompactTrackCodec.decode($0).points } ?? []
                _ = try? room.position(tokenDigest: entry.tokenDigest, points: points, now: entry.time)
            }
        }
        let results = try store.raceResults(race: race.id)
        let awards = results.isEmpty ? nil : results.filter { $0.status == RankingEntry.Status.finished.rawValue }
            .map { RaceAward(userID: $0.userID, xp: $0.xp, badges: $0.badges) }
        return Room(room: room, awards: awards, logSeq: entries.last?.seq ?? 0, createdAt: race.createdAt)
    }

    static func settings(_ race: StoredRace) -> RaceSettings {
        RaceSettings(id: race.id, name: race.name, distance: race.distance, startTime: race.startTime, capacity: race.capacity,
                     isPublic: race.isPublic, createdBy: race.createdBy, inviteDigest: race.inviteDigest)
    }

    // MARK: rooms

    /// Creates a room and stores it; refuses a duplicate id, and a creator or a daemon at its
    /// cap of open rooms.
    public func create(_ settings: RaceSettings, now: EpochSeconds) throws {
        var room = RaceRoom(settings: settings, makeTracker: makeTracker)
        room.rules = positionRules
        // Counted, stored and inserted under the registry's lock (room locks nest inside it,
        // never the other way), so that concurrent creations cannot pass a cap together.
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
            try store.insertRace(StoredRace(id: settings.id, name: settings.name, distance: settings.distance,
                                            startTime: settings.startTime, capacity: settings.capacity,
                                            isPublic: settings.isPublic, createdBy: settings.createdBy,
                                            inviteDigest: settings.inviteDigest, createdAt: now))
            rooms[settings.id] = RoomBox(Room(room: room, createdAt: now))
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
        return (page.map { RaceSummary(settings: $0.settings, phase: $0.phase, participants: $0.participants) }, next)
    }

    /// The room's settings, invite digest included (for the daemon's access checks).
    public func settings(_ id: String) throws -> RaceSettings { try box(id).state.withLock { $0.room.settings } }

    private func box(_ id: String) throws -> RoomBox {
        guard let box = rooms.withLock({ $0[id] }) else { throw RaceServiceError.unknownRace(id) }
        return box
    }

    public func summary(_ id: String) throws -> RaceSummary {
        let r = try box(id).state.withLock { $0.room }
        return RaceSummary(settings: r.settings, phase: r.phase, participants: r.participants)
    }

    public func join(_ id: String, user: UserID, token: String, now: EpochSeconds) throws -> [SequencedRaceEvent] {
        guard try store.user(id: user) != nil else { throw RaceServiceError.unknownUser(user) }
        let digest = Self.digest(token)
        return try update(id, now: now, log: (.join, user, digest, nil)) {
            try $0.join(user: user, tokenDigest: digest, now: now)
        }
    }

    /// A runner leaves; one who leaves a running race has what they ran stored as a run now.
    public func leave(_ id: String, token: String, now: EpochSeconds) throws -> [SequencedRaceEvent] {
        let digest = Self.digest(token)
        let user = try participant(id, tokenDigest: digest) ?? ""
        let running = try summary(id).phase == .running
        let events = try update(id, now: now, log: (.leave, user, digest, nil)) { try $0.leave(tokenDigest: digest, now: now) }
        if running { storeLeaverRun(race: id, user: user, tokenDigest: digest, now: now) }
        return events
    }

    /// New points of a runner. The points that count (`positionRules.fresh`) are kept in the
    /// compact track form, and the room is given them as that form reads back, so that a
    /// replayed room is the live one bit for bit.
    public func position(_ id: String, token: String, points: [TrackPoint], now: EpochSeconds) throws -> [SequencedRaceEvent] {
        let digest = Self.digest(token)
        let fresh = try positionRules.fresh(points, now: now)
        let encoded = CompactTrackCodec.encode(Track(points: fresh))
        let stored = try CompactTrackCodec.decode(encoded).points
        let user = try participant(id, tokenDigest: digest) ?? ""
        return try update(id, now: now, log: (.position, user, digest, encoded)) {
            try $0.position(tokenDigest: digest, points: stored, now: now)
        }
    }

    /// The host (`createdBy`) calls race `id` off before its start: the room is forgotten and
    /// its id answers `unknownRace` from then on. Returns the event for its watchers.
    public func cancel(_ id: String, by user: UserID, now: EpochSeconds) throws -> [SequencedRaceEvent] {
        try rooms.withLock { rooms in
            guard let box = rooms[id] else { throw RaceServiceError.unknownRace(id) }
            let (host, phase, seq) = box.state.withLock { ($0.room.settings.createdBy, $0.room.phase, $0.eventSeq) }
            guard host == user else { throw RaceServiceError.notHost(race: id, user: user) }
            guard phase == .waiting else { throw RaceError.alreadyStarted }
            try store.cancelRace(id: id, at: now)
            rooms[id] = nil
            return [SequencedRaceEvent(event: .cancelled, seq: Self.nextSeq(after: seq, now: now))]
        }
    }

    /// The runner a participant token belongs to in race `id`.
    public func participant(_ id: String, token: String) throws -> UserID? {
        try participant(id, tokenDigest: Self.digest(token))
    }

    private func participant(_ id: String, tokenDigest: String) throws -> UserID? {
        try box(id).state.withLock { $0.room.participant(tokenDigest: tokenDigest) }
    }

    /// Advances every room's clock; returns the events per race id. Rooms finished more than
    /// `limits.finishedRetention` before `now` are forgotten (their rows stay in the store).
    public func tick(now: EpochSeconds) -> [(String, [SequencedRaceEvent])] {
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
            let events = (try? update(id, now: now, log: nil) { $0.tick(now: now) }) ?? []
            return events.isEmpty ? nil : (id, events)
        }
    }

    /// The ranking of race `id` at `now` (what a watcher who arrives mid-race is shown first).
    public func ranking(_ id: String, now: EpochSeconds) throws -> [RankingEntry] {
        try box(id).state.withLock { $0.room.ranking(now: now) }
    }

    /// The final ranking and awards, once the race is over.
    public func results(_ id: String, now: EpochSeconds) throws -> (ranking: [RankingEntry], awards: [RaceAward]) {
        try box(id).state.withLock { r in
            guard r.room.phase == .finished, let awards = r.awards else { throw RaceServiceError.notFinished(id) }
            return (r.room.ranking(now: now), awards)
        }
    }

    // MARK: updating

    /// The seq of an event made at `now` after one numbered `last`.
    static func nextSeq(after last: Int64, now: EpochSeconds) -> Int64 {
        let clock = Int64(Int(saturating: (now * 1e6).rounded(.down)))
        return max(last &+ 1, clock)
    }

    /// Applies `change` to a room under its lock and, for a command (`log`), commits it to the
    /// store before returning; when the change finishes the race, awards XP and badges and
    /// stores the results in one transaction. A command the room refuses is not logged, except
    /// a finish faster than anyone runs, which disqualifies the runner (state that must survive).
    private func update(_ id: String, now: EpochSeconds, log: (RaceLogEntry.Kind, UserID, String, [UInt8]?)?,
                        _ change: (inout RaceRoom<Tracker>) throws -> [RaceEvent]) throws -> [SequencedRaceEvent] {
        let box = try box(id)
        let (events, finished) = try box.state.withLock { entry -> ([SequencedRaceEvent], [RankingEntry]?) in
            if entry.stale {
                guard let race = try store.activeRaces(startingFrom: entry.room.settings.startTime)
                        .first(where: { $0.id == id }) else { throw RaceServiceError.unknownRace(id) }
                let eventSeq = entry.eventSeq
                entry = try rebuild(race)
                entry.eventSeq = eventSeq
            }
            let events: [RaceEvent]
            do {
                events = try change(&entry.room)
            } catch let error as RaceError {
                if case .implausibleFinish = error, let log { try append(log, to: &entry, race: id, now: now) }
                throw error
            }
            if let log { try append(log, to: &entry, race: id, now: now) }
            var sequenced: [SequencedRaceEvent] = []
            for event in events {
                entry.eventSeq = Self.nextSeq(after: entry.eventSeq, now: now)
                sequenced.append(SequencedRaceEvent(event: event, seq: entry.eventSeq))
            }
            return (sequenced, entry.awards == nil ? Self.finalRanking(events) : nil)
        }
        if let finished {
            let awards = try finish(id, distance: try summary(id).settings.distance, ranking: finished, now: now)
            box.state.withLock { $0.awards = awards }
        }
        return events
    }

    /// Commits one command to the race's log; when the store fails the room is marked stale
    /// (rebuilt from the log before its next command) and the error goes to the caller.
    private func append(_ log: (RaceLogEntry.Kind, UserID, String, [UInt8]?), to entry: inout Room, race: String,
                        now: EpochSeconds) throws {
        let seq = entry.logSeq + 1
        do {
            try store.appendRaceEntry(RaceLogEntry(raceID: race, seq: seq, kind: log.0, userID: log.1,
                                                   tokenDigest: log.2, time: now, points: log.3))
            entry.logSeq = seq
        } catch {
            // Memory is one command ahead of the log: go back to what the log says now, or, if
            // the store cannot even be read, before the room's next command.
            let eventSeq = entry.eventSeq
            if let race = try? store.activeRaces(startingFrom: entry.room.settings.startTime).first(where: { $0.id == race }),
               let rebuilt = try? rebuild(race) {
                entry = rebuilt
                entry.eventSeq = eventSeq
            } else {
                entry.stale = true
            }
            throw error
        }
    }

    static func finalRanking(_ events: [RaceEvent]) -> [RankingEntry]? {
        for case .finished(let ranking) in events { return ranking }
        return nil
    }

    /// Awards the finishers and stores every runner's result, in one transaction.
    private func finish(_ raceID: String, distance: Meters, ranking: [RankingEntry], now: EpochSeconds) throws -> [RaceAward] {
        return try store.transaction {
            var awards: [RaceAward] = []
            var rows: [StoredRaceResult] = []
            for entry in ranking {
                var xp = 0
                var badges: [String] = []
                if entry.status == .finished, let user = try store.user(id: entry.userID) {
                    xp = Self.finishXP + Int(saturating: (distance / 1000 * Self.finishXPPerKilometre).rounded())
                    try store.insertReward(RewardEntry(userID: user.id, time: now, xp: xp,
                                                       reason: RewardReason.raceFinish, ref: raceID))
                    if entry.rank <= 3 {
                        let bonus = entry.rank == 1 ? Self.winXP : Self.podiumXP
                        try store.insertReward(RewardEntry(userID: user.id, time: now, xp: bonus,
                                                           reason: entry.rank == 1 ? RewardReason.raceWin : RewardReason.racePodium,
                                                           ref: raceID))
                        xp += bonus
                    }
                    badges = try BadgeAwarding(store: store, resolver: resolver).award(to: user, at: now, runID: nil).map(\.id)
                    awards.append(RaceAward(userID: user.id, xp: xp, badges: badges))
                }
                rows.append(StoredRaceResult(raceID: raceID, rank: entry.rank, userID: entry.userID, status: entry.status.rawValue,
                                             distance: entry.distance, finishTime: entry.finishTime, pace: entry.pace,
                                             gap: entry.gap, timeGap: entry.timeGap, xp: xp, badges: badges, finishedAt: now))
            }
            try store.insertRaceResults(rows)
            // Every runner's track becomes a run in the same transaction (a crash leaves both or
            // neither); a runner who left was stored then, and storing again changes nothing.
            // The log is read once and split by runner (a 1,000-runner race has millions of rows).
            let settings = try self.settings(raceID)
            for (user, entries) in Self.positionsByRunner(try store.raceEntries(race: raceID)) {
                let finish = ranking.first { $0.userID == user }?.finishTime.map { settings.startTime + $0 }
                storeRaceRun(race: raceID, settings: settings, user: user, positions: entries, until: finish, now: now)
            }
            return awards
        }
    }

    /// The `position` entries of a log per runner (by token digest), runners in first-seen order.
    static func positionsByRunner(_ log: [RaceLogEntry]) -> [(UserID, [RaceLogEntry])] {
        var order: [String] = [], byDigest: [String: [RaceLogEntry]] = [:]
        for entry in log where entry.kind == .position {
            if byDigest[entry.tokenDigest] == nil { order.append(entry.tokenDigest) }
            byDigest[entry.tokenDigest, default: []].append(entry)
        }
        return order.compactMap { digest in byDigest[digest].flatMap { e in e.first.map { ($0.userID, e) } } }
    }

    /// Stores what a runner ran in race `race` (their `position` entries, in log order) as their
    /// run (client run id: the race id; `source: race`): run XP, mission checks and history,
    /// like any run. Only points from the start (to the finish instant `until` for a finisher)
    /// count. A track that cannot be a run (fewer than two usable points, refused by the
    /// plausibility rules) is not stored: the race result stands without it.
    private func storeRaceRun(race: String, settings: RaceSettings, user: UserID, positions: [RaceLogEntry],
                              until: EpochSeconds?, now: EpochSeconds) {
        guard let raceRuns else { return }
        var points: [TrackPoint] = []
        for entry in positions {
            guard let bytes = entry.points, let track = try? CompactTrackCodec.decode(bytes) else { continue }
            // A finisher's run ends at the first point on or past the line.
            for p in track.points where p.time >= settings.startTime && (points.last.map { p.time > $0.time } ?? true)
                && !(points.last.map { last in until.map { last.time >= $0 } ?? false } ?? false) {
                points.append(p)
            }
        }
        guard points.count >= 2 else { return }
        _ = try? raceRuns.ingest(user: user, clientRunID: race, track: Track(points: points), now: now, source: "race")
    }

    /// Stores a leaver's run now (the end's ingest then finds it).
    private func storeLeaverRun(race: String, user: UserID, tokenDigest: String, now: EpochSeconds) {
        guard raceRuns != nil, let settings = try? settings(race), let log = try? store.raceEntries(race: race) else { return }
        let positions = log.filter { $0.kind == .position && $0.tokenDigest == tokenDigest }
        storeRaceRun(race: race, settings: settings, user: user, positions: positions, until: nil, now: now)
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
