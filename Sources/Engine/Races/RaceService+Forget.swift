import RunusCore

/// A deleted runner leaves every race (docs/decisions/0553-deleted-runner-leaves-races.md).
extension RaceService {
    /// Rooms not finished, and the runners in them who have not left: what `/metrics` shows.
    public func openRoomCounts() -> (rooms: Int, runners: Int) {
        let boxes = rooms.withLock { Array($0.values) }
        var rooms = 0, runners = 0
        for box in boxes {
            let (finished, count) = box.state.withLock { ($0.room.phase == .finished, $0.room.participants.count) }
            guard !finished else { continue }
            rooms += 1
            runners += count
        }
        return (rooms, runners)
    }

    /// The store's deletion of `user` took their joins, positions, results and race hours; every
    /// room here that still has them is rebuilt from the log, where they no longer are. Their
    /// token then names nobody (positions are refused), their name leaves the rankings, and
    /// nothing of theirs is left for an account later made with the same id. Returns each
    /// unfinished room's new ranking, for its watchers. A room that cannot be read now stays
    /// marked stale and is rebuilt before its next command.
    public func forget(_ user: UserID, now: EpochSeconds) -> [(race: String, events: [SequencedRaceEvent])] {
        let boxes = rooms.withLock { Array($0) }
        var out: [(race: String, events: [SequencedRaceEvent])] = []
        for (id, box) in boxes {
            let held = box.state.withLock { entry -> Bool in
                guard entry.room.includes(user: user) else { return false }
                entry.stale = true
                return true
            }
            guard held else { continue }
            let events = try? update(id, now: now, command: nil, readsTail: false) { room in
                room.phase == .finished ? [] : [.ranking(room.ranking(now: now))]
            }
            if let events, !events.isEmpty { out.append((id, events)) }
        }
        return out
    }
}
