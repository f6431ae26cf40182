import Synchronization
import RunusCore
import Tracking
import TrackFormats
import Missions

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
    /// How far ahead of the server clock a race may start, seconds (7 days, record 0552): a
    /// race holds a place in the caps until its cutoff, so this bounds how long anyone's races
    /// can keep others out.
    public var maximumStartLead: Seconds = 7 * 86_400
    /// Races starting more than this after `now` are "ahead", seconds (1 day, record 0552).
    public var farAhead: Seconds = 86_400
    /// Rooms not finished that start ahead, in the whole daemon: half of `openInTotal`, so that
    /// filling the far days leaves room for races starting within a day (record 0552).
    public var openAheadInTotal = 5_000
    /// Rooms not finished whose hosts are new to running (no rewarded run `establishedAfter`
    /// old when the race was created), in the whole daemon (record 0552): throwaway runners
    /// made now cannot fill the cap for the runners who run.
    public var openByNewHostsInTotal = 2_000
    /// How old a host's oldest rewarded run must be for them to count as established, seconds
    /// (14 days: a run is rewarded only within 7 days of its start, so the account ingested it at
    /// least a week before).
    public var establishedAfter: Seconds = 14 * 86_400

    public init() {}
}

/// A room's event with its place in the room's order: `seq` rises with every event of a race,
/// including across restarts (it is at least the server clock in microseconds when the event
/// was made), so a watcher that has shown one state can drop any older one that arrives late.
public struct SequencedRaceEvent: Sendable, Equatable {
    public let event: RaceEvent
    public let seq: Int64
    /// The runner whose position made this event, and the time of its newest point (Unix
    /// seconds), when another daemon accepted that position (record 0541): the daemon's own
    /// answers name the cause from the request.
    public let cause: RaceCause?

    public init(event: RaceEvent, seq: Int64, cause: RaceCause? = nil) { self.event = event; self.seq = seq; self.cause = cause }
}

/// Who moved a ranking: a runner and the time of the newest point they sent.
public struct RaceCause: Sendable, Equatable {
    public let user: UserID
    public let pointTime: EpochSeconds?
}

/// A command for a race's log: what the room is asked, by whose token; `user` nil means the
/// runner the token belongs to in the room (looked up once the room is caught up).
struct RaceCommand {
    let kind: RaceLogEntry.Kind
    let user: UserID?
    let tokenDigest: String
    let points: [UInt8]?
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
        /// This room has tried to offer its runners their podiums (record 0652): once per room
        /// in memory, so a rebuilt or resumed room tries again (the store keeps one a day).
        var podiumsOffered = false
        /// The store failed after the room applied a command: memory may be ahead of the log, so
        /// the room is rebuilt from the store before its next command.
        var stale = false
        /// Another daemon cancelled the race: the room is to be forgotten (once its lock is
        /// released: the registry's lock is never taken inside a room's).
        var gone = false
        let createdAt: EpochSeconds
        /// Its host had no rewarded run `RaceLimits.establishedAfter` old when it was created
        /// (record 0552): it counts in `openByNewHostsInTotal`. Read from the store whenever the
        /// room is built, so restarts and replicas count alike.
        var newHost = false
    }

    /// One lock per room, so that updates of different races never wait for each other.
    final class RoomBox: Sendable {
        let state: Mutex<Room>
        init(_ room: Room) { state = Mutex(room) }
    }

    let rooms = Mutex<[String: RoomBox]>([:])
    /// Orders this daemon's creations (count, insert, registry), taken before anything else
    /// and never while a room's lock or the store's is held.
    let creation = Mutex(())
    let store: any EngineStore
    let resolver: any UTCOffsetResolver
    let makeTracker: @Sendable () -> Tracker
    public let limits: RaceLimits
    public let positionRules: RacePositionRules
    /// Stores a race runner's track as a run (`RunIngestion` with `source: race`); nil keeps
    /// races out of the runners' runs (tests of the room logic alone).
    let raceRuns: RunIngestion?
    /// Offers a race mission to each runner who joins (record 0649); nil with `raceRuns` (no
    /// race run could decide it).
    private let raceMissions: RaceMissions?
    /// Told after this service wrote a runner's runs or missions (a race run, whose start it
    /// gives, or a race mission: nil), so that what a daemon kept of them is forgotten.
    let runnerChanged: @Sendable (UserID, EpochSeconds?) -> Void
    /// Receives the events of commands other daemons on a shared store appended (record 0541),
    /// as this daemon's rooms catch up with them, in order.
    let caughtUp: @Sendable (String, [SequencedRaceEvent]) -> Void
    /// When `list` last read the store's races (monotonic-free: the callers' `now`), for a
    /// shared store: races other daemons created are listed from then on.
    let lastListSync = Mutex<EpochSeconds>(-.infinity)
    /// How often `list` reads the races other daemons created, seconds.
    public static var listSyncInterval: Seconds { 1 }

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
                runRules: PlausibilityRules? = nil,
                caughtUp: @escaping @Sendable (String, [SequencedRaceEvent]) -> Void = { _, _ in },
                runnerChanged: @escaping @Sendable (UserID, EpochSeconds?) -> Void = { _, _ in },
                makeTracker: @escaping @Sendable () -> Tracker) {
        self.store = store; self.resolver = resolver; self.makeTracker = makeTracker; self.caughtUp = caughtUp
        self.limits = limits; self.positionRules = positionRules; self.runnerChanged = runnerChanged
        raceRuns = runRules.map { RunIngestion(store: store, resolver: resolver, rules: $0) }
        raceMissions = runRules.map { _ in RaceMissions(store: store, resolver: resolver) }
    }

    /// The digest a secret is kept as (participant tokens, invites).
    public static func digest(_ secret: String) -> String { SHA256.hex(secret) }

    // MARK: resuming

    /// Rebuilds every race the store holds that is not cancelled and not yet past its
    /// retention, by replaying its log; a race that finished while the daemon was down gets its
    /// results and awards now (or, on a shared store, the ones another daemon stored). Returns
    /// how many rooms were resumed.
    @discardableResult
    public func resume(now: EpochSeconds) throws -> Int {
        let stored = try store.activeRaces(startingFrom: now - Self.longestCutoff - limits.finishedRetention)
        var resumed = 0
        for race in stored {
            guard isRetained(race, now: now) else { continue }
            let box = RoomBox(try rebuild(race))
            rooms.withLock { $0[race.id] = $0[race.id] ?? box }
            _ = try? update(race.id, now: now, command: nil) { $0.tick(now: now) }
            resumed += 1
        }
        return resumed
    }

    /// Whether a stored race is still one a daemon keeps a room for at `now`.
    func isRetained(_ race: StoredRace, now: EpochSeconds) -> Bool {
        let settings = Self.settings(race)
        return race.cancelledAt == nil && now < settings.startTime + settings.cutoff + limits.finishedRetention
    }

    /// A room as its store says: settings, the log replayed, results if stored.
    func rebuild(_ race: StoredRace) throws -> Room {
        var room = RaceRoom(settings: Self.settings(race), makeTracker: makeTracker)
        room.rules = positionRules
        let entries = try store.raceEntries(race: race.id)
        // A command is logged only once its room accepted it, so replaying it succeeds the
        // same way; an error here (a row written by other code) leaves the room as it was.
        for entry in entries { _ = Self.apply(entry, to: &room) }
        var built = Room(room: room, awards: try storedAwards(race.id), logSeq: entries.last?.seq ?? 0, createdAt: race.createdAt)
        built.newHost = try !hostIsEstablished(race.createdBy, at: race.createdAt)
        return built
    }

    /// The awards of a race whose results are stored; nil when there are none yet.
    func storedAwards(_ race: String) throws -> [RaceAward]? {
        let results = try store.raceResults(race: race)
        return results.isEmpty ? nil : results.filter { $0.status == RankingEntry.Status.finished.rawValue }
            .map { RaceAward(userID: $0.userID, xp: $0.xp, badges: $0.badges) }
    }

    /// Applies one logged command to a room (at the time it was accepted); its events, or none
    /// when the room refuses it.
    static func apply(_ entry: RaceLogEntry, to room: inout RaceRoom<Tracker>) -> [RaceEvent] {
        switch entry.kind {
        case .join: return (try? room.join(user: entry.userID, tokenDigest: entry.tokenDigest, now: entry.time)) ?? []
        case .leave: return (try? room.leave(tokenDigest: entry.tokenDigest, now: entry.time)) ?? []
        case .position:
            let points = entry.points.flatMap { try? CompactTrackCodec.decode($0).points } ?? []
            return (try? room.position(tokenDigest: entry.tokenDigest, points: points, now: entry.time)) ?? []
        }
    }

    static func settings(_ race: StoredRace) -> RaceSettings {
        RaceSettings(id: race.id, name: race.name, distance: race.distance, startTime: race.startTime, capacity: race.capacity,
                     isPublic: race.isPublic, createdBy: race.createdBy, inviteDigest: race.inviteDigest)
    }

    // MARK: rooms

    /// Public rooms not finished, by start time then id, optionally filtered by distance (metres)
    /// and start time (Unix seconds) ranges: the `limit` after `cursor`, and the cursor of the
    /// next page (nil on the last one). On a shared store, `now` lets it read the races other
    /// daemons created (within `listSyncInterval`) and catch the page's rooms up.
    public func list(distance: ClosedRange<Meters>? = nil, start: ClosedRange<EpochSeconds>? = nil,
                     after cursor: RaceListCursor? = nil, limit: Int = .max,
                     now: EpochSeconds? = nil) -> (races: [RaceSummary], next: RaceListCursor?) {
        if let now { loadNewRaces(now: now) }
        func page() -> (rooms: ArraySlice<RaceRoom<Tracker>>, next: RaceListCursor?) {
            let boxes = self.rooms.withLock { Array($0.values) }
            let all: [RaceRoom<Tracker>] = boxes.map { $0.state.withLock { $0.room } }
                .filter { r in r.settings.isPublic && r.phase != .finished }
                .filter { r in distance.map { $0.contains(r.settings.distance) } ?? true }
                .filter { r in start.map { $0.contains(r.settings.startTime) } ?? true }
                .filter { r in cursor.map { (r.settings.startTime, r.settings.id) > ($0.startTime, $0.id) } ?? true }
                .sorted { ($0.settings.startTime, $0.settings.id) < ($1.settings.startTime, $1.settings.id) }
            let chosen = all.prefix(max(0, limit))
            let next = chosen.count < all.count ? chosen.last.map { RaceListCursor(startTime: $0.settings.startTime, id: $0.settings.id) } : nil
            return (chosen, next)
        }
        var (chosen, next) = page()
        if let now, store.racesAreShared {
            // Participants and phases as the log says now (a room may have been cancelled).
            for r in chosen { try? catchUp(r.settings.id, now: now) }
            (chosen, next) = page()
        }
        return (chosen.map { RaceSummary(settings: $0.settings, phase: $0.phase, participants: $0.participants) }, next)
    }

    /// The room's settings, invite digest included (for the daemon's access checks).
    public func settings(_ id: String, now: EpochSeconds? = nil) throws -> RaceSettings {
        try box(id, now: now).state.withLock { $0.room.settings }
    }

    /// The room of race `id`. On a shared store, a race another daemon created is loaded from
    /// the store on first use, and with `now` the room is caught up with the log first.
    private func box(_ id: String, now: EpochSeconds? = nil) throws -> RoomBox {
        if let box = rooms.withLock({ $0[id] }) {
            if let now, store.racesAreShared { try locked(box, id, now: now) { try readTail(&$0, id, now: now) } }
            return box
        }
        guard store.racesAreShared, let race = try store.race(id: id),
              isRetained(race, now: now ?? race.startTime) else { throw RaceServiceError.unknownRace(id) }
        let loaded = RoomBox(try rebuild(race))
        return rooms.withLock { rooms in
            if let other = rooms[id] { return other }  // another request loaded it meanwhile
            rooms[id] = loaded
            return loaded
        }
    }

    public func summary(_ id: String, now: EpochSeconds? = nil) throws -> RaceSummary {
        let r = try box(id, now: now).state.withLock { $0.room }
        return RaceSummary(settings: r.settings, phase: r.phase, participants: r.participants)
    }

    public func join(_ id: String, user: UserID, token: String, now: EpochSeconds) throws -> [SequencedRaceEvent] {
        try joinOffering(id, user: user, token: token, now: now).events
    }

    /// `join`, with the race mission it offered (nil when the day had it already, had its
    /// three, or the write failed: the join stands without it, record 0649).
    public func joinOffering(_ id: String, user: UserID, token: String, now: EpochSeconds) throws
        -> (events: [SequencedRaceEvent], mission: MissionAssignment?) {
        guard try store.user(id: user) != nil else { throw RaceServiceError.unknownUser(user) }
        try checkFree(user, for: try settings(id, now: now))
        let digest = Self.digest(token)
        let events = try update(id, now: now, command: RaceCommand(kind: .join, user: user, tokenDigest: digest, points: nil)) {
            try $0.join(user: user, tokenDigest: digest, now: now)
        }
        return (events, offerMission(race: id, user: user, now: now))
    }

    /// Offers the joined race's mission (record 0649).
    private func offerMission(race: String, user: UserID, now: EpochSeconds) -> MissionAssignment? {
        guard let raceMissions, let settings = try? settings(race, now: now) else { return nil }
        guard let offered = try? raceMissions.offer(user: user, distance: settings.distance, start: settings.startTime, now: now)
        else { return nil }
        runnerChanged(user, nil)
        return offered
    }

    /// A runner leaves; one who leaves a running race has what they ran stored as a run now.
    public func leave(_ id: String, token: String, now: EpochSeconds) throws -> [SequencedRaceEvent] {
        let digest = Self.digest(token)
        // Read inside the room's lock, once it is caught up with the log.
        let left = Mutex<(user: UserID, running: Bool)>(("", false))
        let events = try update(id, now: now, command: RaceCommand(kind: .leave, user: nil, tokenDigest: digest, points: nil)) { room in
            let running = room.phase == .running
            let user = room.participant(tokenDigest: digest) ?? ""
            left.withLock { $0 = (user, running) }
            return try room.leave(tokenDigest: digest, now: now)
        }
        let (user, running) = left.withLock { $0 }
        if running { storeLeaverRun(race: id, user: user, tokenDigest: digest, now: now) }
        return events
    }

    /// New points of a runner. The points that count (`positionRules.fresh`) are kept in the
    /// compact track form, and the room is given them as that form reads back, so that a
    /// replayed room is the live one bit for bit.
    public func position(_ id: String, token: String, points: [TrackPoint], now: EpochSeconds) throws -> [SequencedRaceEvent] {
        try positionCounting(id, token: token, points: points, now: now).events
    }

    /// `position`, with how many fresh points the point budget left out (record 0551): only the
    /// points the runner's tracker takes are logged, and a batch that adds none logs nothing
    /// (it is still refused for a token of nobody, a finished race or a disqualified runner).
    /// The room applies the same budget when it applies the entry, live and in every replay.
    public func positionCounting(_ id: String, token: String, points: [TrackPoint], now: EpochSeconds) throws
        -> (events: [SequencedRaceEvent], dropped: Int) {
        let digest = Self.digest(token)
        let fresh = try positionRules.fresh(points, now: now)
        let box = try box(id)
        let admitted: [TrackPoint] = try locked(box, id, now: now) { entry in
            if entry.stale { try reload(&entry, id) }
            if entry.room.positionRefusal(tokenDigest: digest) != nil, store.racesAreShared { try readTail(&entry, id, now: now) }
            if let refusal = entry.room.positionRefusal(tokenDigest: digest) { throw refusal }
            return entry.room.admitted(tokenDigest: digest, points: fresh, now: now)
        }
        guard !admitted.isEmpty else { return ([], fresh.count) }
        let encoded = CompactTrackCodec.encode(Track(points: admitted))
        let stored = try CompactTrackCodec.decode(encoded).points
        let events = try update(id, now: now, command: RaceCommand(kind: .position, user: nil, tokenDigest: digest, points: encoded)) {
            try $0.position(tokenDigest: digest, points: stored, now: now)
        }
        return (events, fresh.count - admitted.count)
    }

    /// The host (`createdBy`) calls race `id` off before its start: the room is forgotten and
    /// its id answers `unknownRace` from then on. Returns the event for its watchers. On a
    /// shared store it happens under the race's lock, after what other daemons appended (a
    /// runner who joined elsewhere a moment ago is in the room checked).
    public func cancel(_ id: String, by user: UserID, now: EpochSeconds) throws -> [SequencedRaceEvent] {
        let box = try box(id, now: now)
        let seq: Int64 = try locked(box, id, now: now) { entry in
            func check(_ room: RaceRoom<Tracker>) throws {
                guard ExactText.same(room.settings.createdBy, user) else { throw RaceServiceError.notHost(race: id, user: user) }
                guard room.phase == .waiting, now < room.settings.startTime else { throw RaceError.alreadyStarted }
            }
            if store.racesAreShared {
                try store.appendRaceEntry(race: id, after: entry.logSeq) { tail in
                    try catchUp(&entry, race: id, tail: tail, now: now)
                    try check(entry.room)
                    try store.cancelRace(id: id, at: now)
                    try store.releaseRaceHolds(race: id)
                    return nil
                }
            } else {
                try check(entry.room)
                try store.transaction {
                    try store.cancelRace(id: id, at: now)
                    try store.releaseRaceHolds(race: id)
                }
            }
            return entry.eventSeq
        }
        rooms.withLock { $0[id] = nil }
        return [SequencedRaceEvent(event: .cancelled, seq: Self.nextSeq(after: seq, now: now))]
    }

    /// The runner a participant token belongs to in race `id`.
    public func participant(_ id: String, token: String, now: EpochSeconds? = nil) throws -> UserID? {
        try box(id, now: now).state.withLock { $0.room.participant(tokenDigest: Self.digest(token)) }
    }

    /// Advances every room's clock; returns the events per race id. Rooms finished more than
    /// `limits.finishedRetention` before `now` are forgotten (their rows stay in the store). On a
    /// shared store each room is caught up with the log first, and a finished race whose results
    /// another daemon stored takes them.
    public func tick(now: EpochSeconds) -> [(String, [SequencedRaceEvent])] {
        // Each room's lock is taken outside the registry's: a room may be held for a store
        // round trip, and every request looks its room up in the registry.
        let boxes = rooms.withLock { $0 }
        let expired = boxes.filter { _, box in
            box.state.withLock { entry in
                let room = entry.room
                return room.phase == .finished && now >= room.settings.startTime + room.settings.cutoff + limits.finishedRetention
            }
        }
        if !expired.isEmpty {
            rooms.withLock { rooms in
                for (id, box) in expired where rooms[id] === box { rooms[id] = nil }
            }
        }
        let ids = rooms.withLock { Array($0.keys).sorted() }
        catchUp(ids, now: now)
        return ids.compactMap { id in
            let events = (try? update(id, now: now, command: nil, readsTail: false) { $0.tick(now: now) }) ?? []
            return events.isEmpty ? nil : (id, events)
        }
    }

    /// The ranking of race `id` at `now` (what a watcher who arrives mid-race is shown first).
    public func ranking(_ id: String, now: EpochSeconds) throws -> [RankingEntry] {
        try box(id, now: now).state.withLock { $0.room.ranking(now: now) }
    }

    /// The final ranking and awards, once the race is over.
    public func results(_ id: String, now: EpochSeconds) throws -> (ranking: [RankingEntry], awards: [RaceAward]) {
        try box(id, now: now).state.withLock { r in
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

    /// Applies `change` to a room under its lock and, for a command, commits it to the store
    /// before returning; when the race is over and has no results yet, awards XP and badges and
    /// stores the results in one transaction. A command the room refuses is not logged, except
    /// a finish faster than anyone runs, which disqualifies the runner (state that must survive).
    ///
    /// On a shared store (record 0541) a command runs under the race's lock in the store, after
    /// the room has applied what other daemons appended; a tick reads that first without the lock.
    func update(_ id: String, now: EpochSeconds, command: RaceCommand?, readsTail: Bool = true,
                        _ change: (inout RaceRoom<Tracker>) throws -> [RaceEvent]) throws -> [SequencedRaceEvent] {
        let box = try box(id)
        let shared = store.racesAreShared
        let (events, finished) = try locked(box, id, now: now) { entry -> ([SequencedRaceEvent], [RankingEntry]?) in
            if entry.stale { try reload(&entry, id) }
            let events: [RaceEvent]
            switch (command, shared) {
            case (nil, false):
                events = try change(&entry.room)
            case (nil, true):
                if readsTail { try readTail(&entry, id, now: now) }
                events = try change(&entry.room)
            case (let command?, false):
                let user = command.user ?? entry.room.participant(tokenDigest: command.tokenDigest) ?? ""
                do {
                    events = try change(&entry.room)
                } catch let error as RaceError {
                    if case .implausibleFinish = error { try append(command, user: user, to: &entry, race: id, now: now) }
                    throw error
                }
                try append(command, user: user, to: &entry, race: id, now: now)
            case (let command?, true):
                events = command.kind == .position
                    ? try appendPosition(command, to: &entry, race: id, now: now, change)
                    : try lockedAppend(command, to: &entry, race: id, now: now, change)
            }
            var sequenced: [SequencedRaceEvent] = []
            for event in events {
                entry.eventSeq = Self.nextSeq(after: entry.eventSeq, now: now)
                sequenced.append(SequencedRaceEvent(event: event, seq: entry.eventSeq))
            }
            guard entry.awards == nil, entry.room.phase == .finished else { return (sequenced, nil) }
            if shared {
                // Under the race's lock, after the whole log: one daemon stores the results,
                // the others read them (a failure is tried again at the next tick).
                try? finishShared(&entry, race: id, now: now)
                return (sequenced, nil)
            }
            return (sequenced, Self.finalRanking(events) ?? entry.room.ranking(now: now))
        }
        if let finished {
            let awards = try finish(id, settings: try settings(id), ranking: finished, now: now)
            box.state.withLock { $0.awards = awards }
        }
        offerPodiums(box, now: now)
        return events
    }

    /// Offers the runners of a room that is running their podium missions, once (record 0652),
    /// outside the room's lock; `RaceMissions.offerPodiums` offers nothing once the start is
    /// `podiumOfferWindow` past. A failed write is not tried again by this room.
    private func offerPodiums(_ box: RoomBox, now: EpochSeconds) {
        guard let raceMissions else { return }
        let due: (field: [UserID], settings: RaceSettings)? = box.state.withLock { entry in
            guard entry.room.phase == .running, !entry.podiumsOffered else { return nil }
            entry.podiumsOffered = true
            return (entry.room.participants, entry.room.settings)
        }
        guard let due, let offered = try? raceMissions.offerPodiums(
            field: due.field, distance: due.settings.distance, start: due.settings.startTime, now: now) else { return }
        for assignment in offered { runnerChanged(assignment.userID, nil) }
    }

    /// Commits one command to the race's log (a store only this daemon writes); when the store
    /// fails the room goes back to what the log says.
    private func append(_ command: RaceCommand, user: UserID, to entry: inout Room, race: String,
                        now: EpochSeconds) throws {
        let seq = entry.logSeq + 1
        let logged = RaceLogEntry(raceID: race, seq: seq, kind: command.kind, userID: user,
                                  tokenDigest: command.tokenDigest, time: now, points: command.points)
        do {
            if command.kind == .position {
                try store.appendRaceEntry(logged)
            } else {
                let settings = entry.room.settings
                try store.transaction {
                    try holdWrites(command.kind, user: user, settings: settings)
                    try store.appendRaceEntry(logged)
                }
            }
            entry.logSeq = seq
        } catch {
            recover(&entry, race: race)
            throw error
        }
    }

    /// Memory is one command ahead of the log: go back to what the log says now, or, if the
    /// store cannot even be read, before the room's next command.
    func recover(_ entry: inout Room, race: String) {
        let eventSeq = entry.eventSeq
        if let stored = try? store.race(id: race), let rebuilt = try? rebuild(stored) {
            entry = rebuilt
            entry.eventSeq = eventSeq
        } else {
            entry.stale = true
        }
    }

    static func finalRanking(_ events: [RaceEvent]) -> [RankingEntry]? {
        for case .finished(let ranking) in events { return ranking }
        return nil
    }
}
