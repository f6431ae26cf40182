import Synchronization
import RunusCore
import Tracking
import TrackFormats

/// What a `RaceService` does on a store other daemons write too (PostgreSQL replicas, records
/// 0541 and 0543): catching rooms up with the shared log, commands under the race's lock,
/// positions in one round trip, results stored once.
extension RaceService {
    /// Applies what other daemons appended to a room's race (`tail`, entries after the room's
    /// `logSeq`) and hands their events, numbered, to `caughtUp`. A cancelled race throws
    /// `unknownRace` (the caller forgets the room).
    func catchUp(_ entry: inout Room, race: String, tail: RaceLogTail, now: EpochSeconds) throws {
        if tail.cancelled {
            entry.gone = true
            throw RaceServiceError.unknownRace(race)
        }
        var sequenced: [SequencedRaceEvent] = []
        for logged in tail.entries where logged.seq > entry.logSeq {
            let events = Self.apply(logged, to: &entry.room)
            entry.logSeq = logged.seq
            let cause = logged.kind == .position
                ? RaceCause(user: logged.userID, pointTime: logged.points.flatMap { try? CompactTrackCodec.decode($0).points.last?.time })
                : nil
            for event in events {
                entry.eventSeq = Self.nextSeq(after: entry.eventSeq, now: now)
                sequenced.append(SequencedRaceEvent(event: event, seq: entry.eventSeq, cause: cause))
            }
        }
        if !sequenced.isEmpty { caughtUp(race, sequenced) }
    }

    /// Brings race `id`'s room up to the store's log now (another daemon's commands); on a
    /// store only this daemon writes, nothing to do. The events go to `caughtUp`. A race
    /// another daemon cancelled is forgotten, and its watchers are told.
    public func catchUp(_ id: String, now: EpochSeconds) throws {
        guard store.racesAreShared, let box = rooms.withLock({ $0[id] }) else { return }
        try locked(box, id, now: now) { entry in try readTail(&entry, id, now: now) }
    }

    /// `catchUp` of several races, with one read of the store for all of them (`raceTails`):
    /// what a daemon does when another announces commands in many races at once, and at every
    /// tick (record 0543). Races with no room here are skipped; a failed read leaves the rooms
    /// as they are (the next command or tick catches them up).
    public func catchUp(_ ids: [String], now: EpochSeconds) {
        guard store.racesAreShared else { return }
        let boxes = rooms.withLock { rooms in ids.compactMap { id in rooms[id].map { (id: id, box: $0) } } }
        guard !boxes.isEmpty else { return }
        let known = boxes.map { room in room.box.state.withLock { (race: room.id, after: $0.logSeq) } }
        guard let tails = try? store.raceTails(known) else { return }
        for (id, box) in boxes {
            // The tail was read after a logSeq this room has reached, so the entries past its
            // logSeq now follow on from it. A stale room, or a race the read did not find,
            // goes through `readTail` (a reload, or the room forgotten).
            try? locked(box, id, now: now) { entry in
                if !entry.stale, let tail = tails[id] {
                    try catchUp(&entry, race: id, tail: tail, now: now)
                } else {
                    try readTail(&entry, id, now: now)
                }
            }
        }
    }

    /// Every room, caught up (after a lost notification channel came back).
    public func catchUpAll(now: EpochSeconds) {
        catchUp(rooms.withLock { Array($0.keys) }, now: now)
    }

    /// `catchUp` of one room, under its lock.
    func readTail(_ entry: inout Room, _ id: String, now: EpochSeconds) throws {
        if entry.stale { try reload(&entry, id) }
        guard let tail = try store.raceTail(race: id, after: entry.logSeq) else {
            entry.gone = true
            throw RaceServiceError.unknownRace(id)
        }
        try catchUp(&entry, race: id, tail: tail, now: now)
    }

    /// Runs `body` under the room's lock; when it finds the race cancelled by another daemon,
    /// forgets the room afterwards and tells its watchers (`caughtUp`).
    func locked<T>(_ box: RoomBox, _ id: String, now: EpochSeconds?,
                           _ body: (inout sending Room) throws -> sending T) throws -> sending T {
        do {
            return try box.state.withLock(body)
        } catch {
            let (gone, seq) = box.state.withLock { ($0.gone, $0.eventSeq) }
            if gone {
                let removed = rooms.withLock { rooms -> Bool in
                    guard rooms[id] === box else { return false }
                    rooms[id] = nil
                    return true
                }
                if removed { caughtUp(id, [SequencedRaceEvent(event: .cancelled, seq: Self.nextSeq(after: seq, now: now ?? 0))]) }
                throw RaceServiceError.unknownRace(id)
            }
            throw error
        }
    }

    /// Rebuilds a stale room from the log (its event seq carries on).
    func reload(_ entry: inout Room, _ id: String) throws {
        guard let race = try store.race(id: id), race.cancelledAt == nil else { throw RaceServiceError.unknownRace(id) }
        let eventSeq = entry.eventSeq
        entry = try rebuild(race)
        entry.eventSeq = eventSeq
    }

    /// Races other daemons created since the last look, as rooms here (at most once every
    /// `listSyncInterval`, or always with `force`); a failed read leaves the rooms as they are.
    func loadNewRaces(now: EpochSeconds, force: Bool = false) {
        guard store.racesAreShared else { return }
        let due = lastListSync.withLock { last in
            guard force || now - last >= Self.listSyncInterval || now < last else { return false }
            last = now
            return true
        }
        if due { try? readNewRaces(now: now) }
    }

    /// Reads the races other daemons created that this one has no room for, and adds their
    /// rooms; throws when the store cannot be read (a creation must not count without them).
    func readNewRaces(now: EpochSeconds) throws {
        guard store.racesAreShared else { return }
        let stored = try store.activeRaces(startingFrom: now - Self.longestCutoff - limits.finishedRetention)
        lastListSync.withLock { $0 = now }
        let known = rooms.withLock { Set($0.keys) }
        for race in stored where !known.contains(race.id) && isRetained(race, now: now) {
            guard let room = try? rebuild(race) else { continue }
            rooms.withLock { $0[race.id] = $0[race.id] ?? RoomBox(room) }
        }
    }

    /// A position on a shared store (record 0543), in one round trip: checked against the room,
    /// appended at the end of the log whatever other daemons appended meanwhile
    /// (`appendRaceEntryAtEnd`), then the room applies their entries and this one, in log
    /// order, as every replay does. A position's effect is decided by the log alone (a runner
    /// who left in between has it refused here and in every replay alike), so nothing is
    /// locked for longer than the insert. A refusal is decided on a caught-up room (a join
    /// another daemon logged may be missing here) and logs nothing. A store failure leaves the
    /// room as it was: if the append did commit, the next catch-up applies it like another's.
    func appendPosition(_ command: RaceCommand, to entry: inout Room, race id: String, now: EpochSeconds,
                                _ change: (inout RaceRoom<Tracker>) throws -> [RaceEvent]) throws -> [RaceEvent] {
        if entry.room.positionRefusal(tokenDigest: command.tokenDigest) != nil {
            try readTail(&entry, id, now: now)
            if let refusal = entry.room.positionRefusal(tokenDigest: command.tokenDigest) { throw refusal }
        }
        let logged = RaceLogEntry(raceID: id, seq: entry.logSeq + 1, kind: command.kind,
                                  userID: entry.room.participant(tokenDigest: command.tokenDigest) ?? "",
                                  tokenDigest: command.tokenDigest, time: now, points: command.points)
        guard let appended = try store.appendRaceEntryAtEnd(logged, after: entry.logSeq) else {
            entry.gone = true
            throw RaceServiceError.unknownRace(id)
        }
        guard let own = appended.last, own.seq > entry.logSeq, own.tokenDigest == command.tokenDigest else {
            entry.stale = true  // an answer this code cannot have made: read the log again
            throw RaceServiceError.unknownRace(id)
        }
        try catchUp(&entry, race: id, tail: RaceLogTail(cancelled: false, entries: Array(appended.dropLast())), now: now)
        entry.logSeq = own.seq
        do {
            return try change(&entry.room)
        } catch let error as RaceError {
            throw error  // refused (or disqualified) here as in every replay of the log
        } catch {
            entry.stale = true
            throw error
        }
    }

    /// A command on a shared store: under the race's lock, the room applies what other daemons
    /// appended, then the command, which is appended after them in the same transaction. When
    /// the transaction fails after the room applied the command, the room is rebuilt from the log.
    func lockedAppend(_ command: RaceCommand, to entry: inout Room, race id: String, now: EpochSeconds,
                              _ change: (inout RaceRoom<Tracker>) throws -> [RaceEvent]) throws -> [RaceEvent] {
        var events: [RaceEvent] = []
        var refusal: RaceError?
        var applied = false
        do {
            try store.appendRaceEntry(race: id, after: entry.logSeq) { tail in
                try catchUp(&entry, race: id, tail: tail, now: now)
                let user = command.user ?? entry.room.participant(tokenDigest: command.tokenDigest) ?? ""
                do {
                    events = try change(&entry.room)
                } catch let error as RaceError {
                    guard case .implausibleFinish = error else { throw error }
                    refusal = error
                }
                applied = true
                try holdWrites(command.kind, user: user, settings: entry.room.settings)
                return RaceLogEntry(raceID: id, seq: entry.logSeq + 1, kind: command.kind, userID: user,
                                    tokenDigest: command.tokenDigest, time: now, points: command.points)
            }
            entry.logSeq += 1
        } catch {
            if applied { recover(&entry, race: id) }
            throw error
        }
        if let refusal { throw refusal }
        return events
    }

    /// A finished room on a shared store: under the race's lock, after what other daemons
    /// appended, stores the results (and awards, and race runs) unless a daemon did already,
    /// in which case the room takes those.
    func finishShared(_ entry: inout Room, race id: String, now: EpochSeconds) throws {
        var awards: [RaceAward]?
        try store.appendRaceEntry(race: id, after: entry.logSeq) { tail in
            try catchUp(&entry, race: id, tail: tail, now: now)
            if let stored = try storedAwards(id) {
                awards = stored
            } else {
                awards = try finish(id, settings: entry.room.settings, ranking: entry.room.ranking(now: now), now: now)
            }
            return nil
        }
        entry.awards = awards
    }
}
