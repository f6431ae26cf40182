import RunusCore

/// One race at a time (docs/decisions/0550-one-race-at-a-time.md): a join takes the UTC hours
/// of the race's running window for its runner in the store, in the join's own transaction; a
/// leave, the race's end, its cancel and the runner's deletion give them back. The store's key
/// `(user_id, hour)` is what refuses a second race, so two daemons cannot both let a runner
/// into overlapping races; a log replay takes no holds (the log holds only joins that had one).
extension RaceService {
    /// The hold a runner in race `settings` takes: every UTC hour its window `[start, cutoff)` touches.
    static func hold(user: UserID, settings: RaceSettings) -> RaceHold {
        let first = Int(saturating: (settings.startTime / 3600).rounded(.down))
        // The hour the cutoff falls in, or the one before when it falls on the hour (a race of
        // 10:00 to 11:00 holds 10:00 only, and one of 11:00 can follow it).
        let last = Int(saturating: ((settings.startTime + settings.cutoff) / 3600).rounded(.up)) - 1
        return RaceHold(userID: user, raceID: settings.id, hours: first...max(first, last))
    }

    /// The store writes of a command besides its log entry, in its transaction: a join holds
    /// the race's hours, a leave gives them back.
    func holdWrites(_ kind: RaceLogEntry.Kind, user: UserID, settings: RaceSettings) throws {
        switch kind {
        case .join:
            do {
                try store.holdRace(Self.hold(user: user, settings: settings))
            } catch let conflict as RaceHoldConflict {
                throw RaceServiceError.inAnotherRace(user: user, race: settings.id, holder: conflict.holder)
            }
        case .leave: try store.releaseRaceHold(user: user, race: settings.id)
        case .position: break
        }
    }

    /// Whether a runner may join race `settings`, read before the room is touched: the race
    /// that holds one of its hours for them, named. The join's own hold decides (two joins at
    /// once); this only spares the room a join it would have to undo.
    func checkFree(_ user: UserID, for settings: RaceSettings) throws {
        let hold = Self.hold(user: user, settings: settings)
        for hour in hold.hours {
            if let holder = try store.raceHolder(user: user, hour: hour), holder != settings.id {
                throw RaceServiceError.inAnotherRace(user: user, race: settings.id, holder: holder)
            }
        }
    }
}
