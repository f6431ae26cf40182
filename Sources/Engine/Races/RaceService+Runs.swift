import RunusCore
import Tracking
import TrackFormats
import Missions

/// The end of a race for its runners: results and awards, and each runner's track stored as
/// their run (record 0526), with the race result that decides their race missions (record 0649).
extension RaceService {
    /// Awards the finishers and stores every runner's result, in one transaction.
    func finish(_ raceID: String, settings: RaceSettings, ranking: [RankingEntry], now: EpochSeconds) throws -> [RaceAward] {
        let distance = settings.distance
        var stored: [(UserID, EpochSeconds)] = []
        let awards = try store.transaction {
            stored = []  // a transaction tried again starts over
            var awards: [RaceAward] = []
            var rows: [StoredRaceResult] = []
            for entry in ranking {
                // A runner deleted since their room last read the log (on another daemon) gets
                // no row: an account made later with the same id inherits nothing (record 0553).
                guard let user = try store.user(id: entry.userID) else { continue }
                var xp = 0
                var badges: [String] = []
                if entry.status == .finished {
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
            try store.releaseRaceHolds(race: raceID)  // the race is over: its runners are free (record 0550)
            // Every runner's track becomes a run in the same transaction (a crash leaves both or
            // neither); a runner who left was stored then, and storing again changes nothing.
            // The log is read once and split by runner (a 1,000-runner race has millions of rows).
            for (user, entries) in Self.positionsByRunner(try store.raceEntries(race: raceID)) {
                let entry = ranking.first { ExactText.same($0.userID, user) }
                let finish = entry?.finishTime.map { settings.startTime + $0 }
                if let start = storeRaceRun(race: raceID, settings: settings, user: user, positions: entries, until: finish,
                                            now: now, result: RaceResult.of(entry, ranking: ranking, distance: distance)) {
                    stored.append((user, start))
                }
            }
            return awards
        }
        // After the commit, so nothing reads the runs before they are there and keeps that.
        for (user, start) in stored { runnerChanged(user, start) }
        return awards
    }

    /// The `position` entries of a log per runner (by token digest), runners in first-seen order.
    /// Only runners whose join is in the log count: a deleted runner's join is gone with them,
    /// so positions another daemon logged for them before it heard are no run of anyone's
    /// (record 0553).
    static func positionsByRunner(_ log: [RaceLogEntry]) -> [(UserID, [RaceLogEntry])] {
        var order: [String] = [], byDigest: [String: [RaceLogEntry]] = [:]
        let joined = Set(log.lazy.filter { $0.kind == .join }.map(\.tokenDigest))
        for entry in log where entry.kind == .position && joined.contains(entry.tokenDigest) {
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
    /// `result` is the runner's race result, which decides their race missions. Returns the
    /// run's start when it tried to store one (also when that failed: it may have failed after
    /// its commit), for `runnerChanged` once the caller's transaction is over.
    func storeRaceRun(race: String, settings: RaceSettings, user: UserID, positions: [RaceLogEntry],
                              until: EpochSeconds?, now: EpochSeconds, result: RaceResult?) -> EpochSeconds? {
        guard let raceRuns else { return nil }
        var points: [TrackPoint] = []
        for entry in positions {
            guard let bytes = entry.points, let track = try? CompactTrackCodec.decode(bytes) else { continue }
            // A finisher's run ends at the first point on or past the line.
            for p in track.points where p.time >= settings.startTime && (points.last.map { p.time > $0.time } ?? true)
                && !(points.last.map { last in until.map { last.time >= $0 } ?? false } ?? false) {
                points.append(p)
            }
        }
        guard points.count >= 2 else { return nil }
        _ = try? raceRuns.ingest(user: user, clientRunID: race, track: Track(points: points), now: now, source: "race",
                                 race: result)
        return points[0].time
    }

    /// Stores a leaver's run now (the end's ingest then finds it).
    func storeLeaverRun(race: String, user: UserID, tokenDigest: String, now: EpochSeconds) {
        guard raceRuns != nil, let settings = try? settings(race), let log = try? store.raceEntries(race: race) else { return }
        let positions = log.filter { $0.kind == .position && $0.tokenDigest == tokenDigest }
        let participants = max(1, (try? summary(race, now: now))?.participants.count ?? 1)
        // A stored distance is checked before it becomes a result (RaceResult requires > 0).
        let result = settings.distance.isFinite && settings.distance > 0
            ? RaceResult(distance: settings.distance, finished: false, place: nil, participants: participants) : nil
        let start = storeRaceRun(race: race, settings: settings, user: user, positions: positions, until: nil, now: now,
                                 result: result)
        if let start { runnerChanged(user, start) }
    }
}
