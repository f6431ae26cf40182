import RunusCore
import Synchronization

/// A race's creation and the caps it counts (records 0525, 0552).
extension RaceService {
    /// Creates a room and stores it; refuses a duplicate id, and a creator or a daemon at its
    /// cap of open rooms.
    ///
    /// This daemon's creations run one at a time, and the count and the insert are one
    /// `creatingRace` step of the store: on a shared store no other daemon creates meanwhile,
    /// and the count includes every race the others created before (read inside the step), so
    /// replicas creating at once cannot pass a cap together. The room joins this daemon's
    /// registry once the race is committed.
    public func create(_ settings: RaceSettings, now: EpochSeconds) throws {
        try creation.withLock { _ in try createAlone(settings, now: now) }
    }

    private func createAlone(_ settings: RaceSettings, now: EpochSeconds) throws {
        var room = RaceRoom(settings: settings, makeTracker: makeTracker)
        room.rules = positionRules
        let newHost = try !hostIsEstablished(settings.createdBy, at: now)
        let created = try store.creatingRace { () throws -> RoomBox in
            try readNewRaces(now: now)
            try rooms.withLock { rooms in
                guard rooms[settings.id] == nil else { throw RaceServiceError.duplicate(settings.id) }
                var open = 0, mine = 0, ahead = 0, byNewHosts = 0
                let isAhead = { (start: EpochSeconds) in start > now + self.limits.farAhead }
                for box in rooms.values {
                    let (creator, phase, start, new) = box.state.withLock {
                        ($0.room.settings.createdBy, $0.room.phase, $0.room.settings.startTime, $0.newHost)
                    }
                    guard phase != .finished else { continue }
                    open += 1
                    if isAhead(start) { ahead += 1 }
                    if new { byNewHosts += 1 }
                    if ExactText.same(creator, settings.createdBy) { mine += 1 }
                }
                if open >= limits.openInTotal { throw RaceServiceError.tooManyRaces(limit: limits.openInTotal) }
                if isAhead(settings.startTime), ahead >= limits.openAheadInTotal {
                    throw RaceServiceError.tooManyRacesAhead(limit: limits.openAheadInTotal)
                }
                if newHost, byNewHosts >= limits.openByNewHostsInTotal {
                    throw RaceServiceError.tooManyRacesByNewHosts(limit: limits.openByNewHostsInTotal)
                }
                if mine >= limits.openPerCreator {
                    throw RaceServiceError.tooManyRacesByCreator(settings.createdBy, limit: limits.openPerCreator)
                }
            }
            try store.insertRace(StoredRace(id: settings.id, name: settings.name, distance: settings.distance,
                                            startTime: settings.startTime, capacity: settings.capacity,
                                            isPublic: settings.isPublic, createdBy: settings.createdBy,
                                            inviteDigest: settings.inviteDigest, createdAt: now))
            var created = Room(room: room, createdAt: now)
            created.newHost = newHost
            return RoomBox(created)
        }
        // A shared store's race may have been loaded by a `race.list` in between: keep that room.
        rooms.withLock { $0[settings.id] = $0[settings.id] ?? created }
    }
}
