import Synchronization
import RunusCore
import Engine
import Tracking
import Server

/// The race operations (docs/protocol.md): rooms live in `RaceService`; this type turns wire
/// requests into service calls and fans the rooms' events out to the connections watching them.
public final class RaceOperations: Sendable {
    typealias Tracker = LiveRaceTracker
    let service: RaceService<Tracker>
    let clock: any Clock
    let pusher: any LinePusher
    /// Connections watching each race, with the seq of the last snapshot (`race.waiting`,
    /// `race.ranking`) pushed to each: a snapshot older than one already pushed is dropped, so a
    /// watcher never sees an older state after a newer one (record 0526).
    private let watchers = Mutex<[String: [UInt64: Int64]]>([:])
    /// Display names of the runners who joined a race, as their profile said at the join
    /// (race answers and events carry them; a runner without one gets null), by the bytes of
    /// their ids, as the store tells runners apart.
    private let displayNames = Mutex<[ExactText: String?]>([:])
    /// The other daemons on the database (record 0541): told of every command this one logs.
    let peers: (any PeerChannel)?
    /// Told when a race wrote a runner's runs or missions (`RaceService.runnerChanged`).
    private let runnerChangedRelay = RunnerChangedRelay()

    /// `changed` hears of every runner whose runs (with the race run's start) or missions (nil)
    /// a race wrote, after the write: the daemon forgets what its `missions.today` cache kept.
    public func onRunnerChanged(_ changed: @escaping @Sendable (UserID, EpochSeconds?) -> Void) {
        runnerChangedRelay.attach(changed)
    }

    /// Limits of `race.create`.
    static let distanceRange: ClosedRange<Double> = 400...100_000
    static let capacityRange = 2...1000
    /// How far ahead a race may be scheduled, seconds (30 days).
    /// `race.list` page size: default and allowed range.
    static let defaultPageSize = 50
    static let pageSizeRange = 1...200

    /// A fresh secret of 128 random bits as 32 hex digits: race ids (≥ 96 bits, so a private
    /// race cannot be found by guessing, record 0525), invites and participant tokens.
    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    let store: any EngineStore

    /// `runRules` are the plausibility rules of `runs.ingest`: a race runner's track is stored
    /// as a run under them (record 0526).
    public init(store: any EngineStore, resolver: any UTCOffsetResolver, clock: any Clock, pusher: any LinePusher,
                limits: RaceLimits = RaceLimits(), runRules: PlausibilityRules = PlausibilityRules(),
                peers: (any PeerChannel)? = nil) {
        // The activity classifier's forest is built at first use: build it here, not inside the
        // first race.join or race.position request.
        _ = ActivityClassifier.default
        self.store = store
        // Events of commands other daemons logged reach this one's watchers through `relay`,
        // which can only point at `self` once it exists.
        let relay = CaughtUpRelay()
        let changed = runnerChangedRelay
        self.service = RaceService(store: store, resolver: resolver, limits: limits, runRules: runRules,
                                   caughtUp: { relay.deliver($0, $1) }, runnerChanged: { changed.deliver($0, $1) },
                                   makeTracker: { LiveRaceTracker() })
        self.clock = clock
        self.pusher = pusher
        self.peers = peers
        relay.attach { [weak self] race, events in self?.publishCaughtUp(race, events) }
    }

    /// What another daemon's peer message asks of the rooms: catch the named races up (their
    /// events go to the watchers here), or every room after a gap in the messages.
    public func received(_ message: PeerMessage) {
        for user in message.forgotten { forget(user) }
        let now = clock.now()
        if message.resync { service.catchUpAll(now: now) }
        service.catchUp(message.races, now: now)
    }

    /// Events of commands another daemon logged, as this daemon's rooms catch up: pushed like
    /// its own, each ranking naming the runner and point that moved it.
    func publishCaughtUp(_ race: String, _ events: [SequencedRaceEvent]) {
        var users: [UserID] = []
        for sequenced in events {
            switch sequenced.event {
            case .waiting(let participants, _): users += participants
            case .ranking(let entries), .finished(let entries): users += entries.map(\.userID)
            case .started, .cancelled: break
            }
        }
        rememberUnnamed(users)
        publish(race, events)
    }

    /// Resumes the races the store holds (a restarted daemon carries on with them) and loads
    /// their runners' display names. Returns how many were resumed.
    @discardableResult
    public func resume() throws -> Int {
        let count = try service.resume(now: clock.now())
        for race in service.list().races { rememberNames(race.participants) }
        return count
    }

    private func rememberNames(_ users: [UserID]) {
        let names = users.map { user in (user, (try? store.user(id: user))??.displayName) }
        displayNames.withLock { for (user, name) in names { $0[ExactText(user)] = .some(name) } }
    }

    public func register(on router: Router) {
        router.register("race.create") { [self] in try create($0) }
        router.register("race.list") { [self] in try list($0) }
        router.register("race.join") { [self] in try join($0) }
        router.register("race.leave") { [self] in try leave($0) }
        router.register("race.watch") { [self] in try watch($0) }
        router.register("race.position") { [self] in try position($0) }
        router.register("race.results") { [self] in try results($0) }
        router.register("race.cancel") { [self] in try cancel($0) }
    }

    /// Advances every room's clock and pushes what happened (the daemon calls it every second).
    public func tick() {
        for (race, events) in service.tick(now: clock.now()) { publish(race, events) }
    }

    /// `users.delete` deleted a runner here: this daemon's rooms forget them, and so do the
    /// other daemons', told through the peer channel (record 0553).
    public func forgetDeleted(_ user: UserID) {
        forget(user)
        peers?.announceForgotten(users: [user])
    }

    /// A runner was deleted: their rooms forget them and their watchers see the rankings
    /// without them (record 0553).
    public func forget(_ user: UserID) {
        displayNames.withLock { $0[ExactText(user)] = nil }  // an account made later has its own
        for (race, events) in service.forget(user, now: clock.now()) { publish(race, events) }
    }

    /// Forgets a closed connection's subscriptions.
    public func connectionClosed(_ id: UInt64) {
        watchers.withLock { all in for key in all.keys { all[key]?[id] = nil } }
    }

    // MARK: operations

    func create(_ request: Request) throws -> JSONValue {
        let creator = try request.string("user")
        guard try store.user(id: creator) != nil else { throw RequestError.notFound("race.create: no user '\(creator.prefix(128))'; send users.upsert first") }
        let name = try request.string("name")
        guard (1...80).contains(name.count) else { throw RequestError.badRequest("race.create: 'name' must have 1 to 80 characters", field: "name") }
        let distance = try request.double("distance_m")
        guard Self.distanceRange.contains(distance) else {
            throw RequestError.badRequest("race.create: distance_m \(distance) is outside [\(Self.distanceRange.lowerBound), \(Self.distanceRange.upperBound)]", field: "distance_m")
        }
        let now = clock.now()
        let start = try request.double("start_time")
        guard start >= now - 1 else {
            throw RequestError.badRequest("race.create: start_time \(start) is before now (\(Int(saturating: now)))", field: "start_time")
        }
        // At most `RaceLimits.maximumStartLead` ahead (7 days, record 0552).
        let lead = service.limits.maximumStartLead
        guard start <= now + lead else {
            throw RequestError.badRequest("race.create: " + RaceServiceError.startTooFar(start: start, now: now, limit: lead).description,
                                          field: "start_time")
        }
        var capacity = 50
        if request.optional("capacity") != nil {
            capacity = try request.int("capacity")
            guard Self.capacityRange.contains(capacity) else {
                throw RequestError.badRequest("race.create: capacity \(capacity) is outside 2...1000", field: "capacity")
            }
        }
        let isPublic = try request.optionalBool("public") ?? true
        let id = "race-" + Self.secret()
        let invite = isPublic ? nil : Self.secret()
        try call(id) {
            try service.create(RaceSettings(id: id, name: name, distance: distance, startTime: start, capacity: capacity,
                                            isPublic: isPublic, createdBy: creator,
                                            inviteDigest: invite.map { RaceService<Tracker>.digest($0) }), now: now)
        }
        var answer = summaryJSON(try service.summary(id))
        if let invite, case .object(var members) = answer {
            members["invite"] = .string(invite)
            answer = .object(members)
        }
        return answer
    }

    func list(_ request: Request) throws -> JSONValue {
        let minD = try request.optionalNumber("min_distance_m", 0...1e6) ?? 0
        let maxD = try request.optionalNumber("max_distance_m", 0...1e6) ?? 1e6
        let from = try request.optionalNumber("from", 0...1e11) ?? 0
        let to = try request.optionalNumber("to", 0...1e11) ?? 1e11
        guard minD <= maxD, from <= to else { throw RequestError.badRequest("race.list: empty range", field: minD <= maxD ? "to" : "max_distance_m") }
        var limit = Self.defaultPageSize
        if request.optional("limit") != nil {
            limit = try request.int("limit")
            guard Self.pageSizeRange.contains(limit) else {
                throw RequestError.badRequest("race.list: limit \(limit) is outside \(Self.pageSizeRange.lowerBound)...\(Self.pageSizeRange.upperBound)", field: "limit")
            }
        }
        var cursor: RaceListCursor?
        if let value = request.optional("cursor") {
            guard let text = value.stringValue, let parsed = RaceListCursor(text: text) else {
                throw RequestError.badRequest("race.list: cursor \(JSONWriter.string(value).prefix(60)) is not a next_cursor this daemon gave", field: "cursor")
            }
            cursor = parsed
        }
        let page = service.list(distance: minD...maxD, start: from...to, after: cursor, limit: limit, now: clock.now())
        rememberUnnamed(page.races.flatMap(\.participants))
        return ["races": .array(page.races.map(summaryJSON)), "next_cursor": page.next.map { .string($0.text) } ?? .null]
    }

    /// A private race is reached only with its invite: without it, the race does not exist for
    /// the caller (`not_found`, as for an unknown id, so a guess learns nothing).
    func checkAccess(_ request: Request, race: String) throws {
        let settings = try call(race) { try service.settings(race, now: clock.now()) }
        guard let invite = settings.inviteDigest else { return }
        let given = request.optional("invite")?.stringValue.map { Array(RaceService<Tracker>.digest($0).utf8) } ?? []
        guard Self.constantTimeEqual(given, Array(invite.utf8)) else {
            throw RequestError.notFound("\(request.op): no race '\(race.prefix(80))' (a private race needs its 'invite')")
        }
    }

    /// Compares without an early exit, so timing does not reveal a matching prefix.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<min(a.count, b.count) { difference |= a[i] ^ b[i] }
        return difference == 0 && a.count == b.count
    }

    func join(_ request: Request) throws -> JSONValue {
        let race = try raceID(request)
        let user = try request.string("user")
        try checkAccess(request, race: race)
        let token = Self.secret()
        let (events, offered) = try call(race) { try service.joinOffering(race, user: user, token: token, now: clock.now()) }
        rememberNames([user])
        publish(race, events)
        peers?.announce(races: [race])
        let mission: JSONValue = offered.flatMap { a in
            RaceMissions.todayMission(a).map { m in
                guard case .object(var members) = DaemonOperations.todayMissionJSON(m) else { return .null }
                members["day"] = .string(a.day.description)
                return .object(members)
            }
        } ?? .null
        return ["race_id": .string(race), "participant_token": .string(token), "race": summaryJSON(try service.summary(race)),
                "mission": mission]
    }

    /// The host calls the race off before its start; watchers get `race.cancelled`.
    func cancel(_ request: Request) throws -> JSONValue {
        let race = try raceID(request)
        let user = try request.string("user")
        let events = try call(race) { try service.cancel(race, by: user, now: clock.now()) }
        publish(race, events)
        peers?.announce(races: [race])
        watchers.withLock { $0[race] = nil }
        return ["race_id": .string(race), "cancelled": true]
    }

    func leave(_ request: Request) throws -> JSONValue {
        let race = try raceID(request)
        let token = try request.string("participant_token")
        publish(race, try call(race) { try service.leave(race, token: token, now: clock.now()) })
        peers?.announce(races: [race])
        return ["race_id": .string(race), "left": true]
    }

    func watch(_ request: Request) throws -> JSONValue {
        let race = try raceID(request)
        try checkAccess(request, race: race)
        let summary = try call(race) { try service.summary(race, now: clock.now()) }
        rememberUnnamed(summary.participants)
        watchers.withLock { all in
            let last = all[race]?[request.connectionID] ?? Int64.min
            all[race, default: [:]][request.connectionID] = last
        }
        // The standing now, so that a watcher who arrives mid-race (or after a restart) has a
        // state before the next event; its seq orders it among the events that follow.
        let ranking = try call(race) { try service.ranking(race, now: clock.now()) }
        rememberUnnamed(ranking.map(\.userID))
        return ["race_id": .string(race), "watching": true, "race": summaryJSON(summary),
                "ranking": .array(ranking.map(entryJSON))]
    }

    func position(_ request: Request) throws -> JSONValue {
        let race = try raceID(request)
        let token = try request.string("participant_token")
        let track = try WireTrack.track(from: request.optional("points"), op: "race.position", allowReadings: false)
        let (events, dropped) = try call(race) { try service.positionCounting(race, token: token, points: track.points, now: clock.now()) }
        // Rankings caused by this position name the runner and the newest point, so a client can
        // tell when its update went out (the race load test measures that delay).
        let cause: JSONValue? = try? call(race) { try service.participant(race, token: token) }.map { user in
            ["user": .string(user), "point_time": track.points.last.map { .number($0.time) } ?? .null]
        }
        publish(race, events, cause: cause)
        peers?.announce(races: [race])
        // Points older than the lag were left out (the room filtered the same way).
        let fresh = (try? service.positionRules.fresh(track.points, now: clock.now()).count) ?? track.points.count
        // Of those, the point budget (record 0551) left out `dropped`: too close together, before
        // the start or after the cutoff, or past the runner's most points in a race.
        return ["race_id": .string(race), "accepted": .number(Double(max(0, fresh - dropped))),
                "stale": .number(Double(track.points.count - fresh)), "dropped": .number(Double(dropped))]
    }

    func results(_ request: Request) throws -> JSONValue {
        let race = try raceID(request)
        try checkAccess(request, race: race)
        let (ranking, awards) = try call(race) { try service.results(race, now: clock.now()) }
        rememberUnnamed(ranking.map(\.userID))
        return [
            "race_id": .string(race),
            "ranking": .array(ranking.map(entryJSON)),
            "top_three": .array(ranking.filter { $0.status == .finished }.prefix(3).map(entryJSON)),
            "awards": .array(awards.map { ["user": .string($0.userID), "xp": .number(Double($0.xp)),
                                           "badges": .array($0.badges.map { .string($0) })] }),
        ]
    }

    // MARK: helpers

    /// The request's `race_id`. Every race this daemon or another ever made is `race-` and 32
    /// lowercase hex digits (`secret()`): any other text names no race, answered `not_found` at
    /// once, without a store query (on PostgreSQL, where a replica looks up races it has not
    /// seen, text the server cannot hold, such as U+0000, never reaches it).
    func raceID(_ request: Request) throws -> String {
        let race = try request.string("race_id")
        guard Self.isWellFormedRaceID(race) else { return try call(race) { throw RaceServiceError.unknownRace(race) } }
        return race
    }

    static func isWellFormedRaceID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 37, bytes.starts(with: Array("race-".utf8)) else { return false }
        return bytes.dropFirst(5).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Loads the display names of runners this daemon has not seen join (they joined through
    /// another daemon on the database, or before a restart).
    private func rememberUnnamed(_ users: [UserID]) {
        let unknown = displayNames.withLock { names in users.filter { names[ExactText($0)] == nil } }
        if !unknown.isEmpty { rememberNames(unknown) }
    }

    /// Runs a race service call, its errors translated by `WireErrors` (named by the race).
    private func call<T>(_ race: String, _ body: () throws -> T) throws -> T {
        try WireErrors.engine("race \(race.prefix(80))", body)
    }

    /// Pushes a race's events to its watchers. The check against each watcher's last snapshot
    /// and the push happen under one lock, so two requests publishing at once cannot reorder
    /// snapshots on a connection.
    func publish(_ race: String, _ events: [SequencedRaceEvent], cause: JSONValue? = nil) {
        guard !events.isEmpty, watchers.withLock({ !($0[race]?.isEmpty ?? true) }) else { return }
        let lines: [(seq: Int64, snapshot: Bool, line: [UInt8])] = events.map { sequenced in
            var json = eventJSON(race, sequenced.event, now: clock.now())
            var snapshot = false
            if case .object(var members) = json {
                members["seq"] = .number(Double(sequenced.seq))
                switch sequenced.event {
                case .ranking:
                    snapshot = true
                    if let own = sequenced.cause {
                        members["cause"] = ["user": .string(own.user), "point_time": own.pointTime.map { .number($0) } ?? .null]
                    } else if let cause {
                        members["cause"] = cause
                    }
                case .waiting: snapshot = true
                default: break
                }
                json = .object(members)
            }
            var line = JSONWriter.bytes(json)
            line.append(0x0A)
            return (sequenced.seq, snapshot, line)
        }
        watchers.withLock { all in
            guard var targets = all[race] else { return }
            for (id, last) in targets {
                var newest = last
                for item in lines where !item.snapshot || item.seq > newest {
                    guard pusher.push(connectionID: id, line: item.line) else { targets[id] = nil; break }
                    if item.snapshot { newest = item.seq }
                    targets[id] = newest
                }
            }
            all[race] = targets
        }
    }

    func eventJSON(_ race: String, _ event: RaceEvent, now: EpochSeconds) -> JSONValue {
        switch event {
        case .waiting(let participants, let countdown):
            return ["event": "race.waiting", "race_id": .string(race), "participant_count": .number(Double(participants.count)),
                    "participants": participantsJSON(participants), "countdown_s": .number(countdown.rounded())]
        case .started(let at):
            return ["event": "race.started", "race_id": .string(race), "start_time": .number(at)]
        case .ranking(let entries):
            return ["event": "race.ranking", "race_id": .string(race), "at": .number((now * 1000).rounded() / 1000),
                    "ranking": .array(entries.map(entryJSON))]
        case .cancelled:
            return ["event": "race.cancelled", "race_id": .string(race)]
        case .finished(let entries):
            return ["event": "race.finished", "race_id": .string(race), "results": .array(entries.map(entryJSON)),
                    "top_three": .array(entries.filter { $0.status == .finished }.prefix(3).map(entryJSON))]
        }
    }

    func entryJSON(_ e: RankingEntry) -> JSONValue {
        func r(_ x: Double) -> JSONValue { .number((x * 10).rounded() / 10) }
        let name = displayNames.withLock { $0[ExactText(e.userID)] ?? nil }
        return ["rank": .number(Double(e.rank)), "user": .string(e.userID), "display_name": name.map { .string($0) } ?? .null,
                "status": .string(e.status.rawValue),
                "distance_m": r(e.distance), "gap_m": r(e.gap), "elapsed_pace_s_per_km": e.pace.map(r) ?? .null,
                "finish_time_s": e.finishTime.map(r) ?? .null, "time_gap_s": e.timeGap.map(r) ?? .null]
    }

    /// Runners of a race as every answer and event shows them: `{user, display_name}` in
    /// joining order.
    func participantsJSON(_ users: [UserID]) -> JSONValue {
        let names = displayNames.withLock { all in users.map { all[ExactText($0)] ?? nil } }
        return .array(zip(users, names).map { user, name in
            ["user": .string(user), "display_name": name.map { .string($0) } ?? .null]
        })
    }

    func summaryJSON(_ s: RaceSummary) -> JSONValue {
        ["race_id": .string(s.settings.id), "name": .string(s.settings.name), "distance_m": .number(s.settings.distance),
         "start_time": .number(s.settings.startTime), "capacity": .number(Double(s.settings.capacity)),
         "public": .bool(s.settings.isPublic), "phase": .string(s.phase.rawValue),
         "participant_count": .number(Double(s.participants.count)), "participants": participantsJSON(s.participants),
         "created_by": .string(s.settings.createdBy)]
    }
}

/// Points the race service's catch-up events at the operations once they exist.
final class RunnerChangedRelay: Sendable {
    private let target = Mutex<(@Sendable (UserID, EpochSeconds?) -> Void)?>(nil)
    func attach(_ deliver: @escaping @Sendable (UserID, EpochSeconds?) -> Void) { target.withLock { $0 = deliver } }
    func deliver(_ user: UserID, _ start: EpochSeconds?) { target.withLock { $0 }?(user, start) }
}

final class CaughtUpRelay: Sendable {
    private let target = Mutex<(@Sendable (String, [SequencedRaceEvent]) -> Void)?>(nil)
    func attach(_ deliver: @escaping @Sendable (String, [SequencedRaceEvent]) -> Void) { target.withLock { $0 = deliver } }
    func deliver(_ race: String, _ events: [SequencedRaceEvent]) { target.withLock { $0 }?(race, events) }
}
