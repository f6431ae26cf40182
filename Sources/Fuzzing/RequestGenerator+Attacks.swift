import RunusCore

/// Issue 55's attacks as scenarios (record 0540): summaries stacked past any human's volume,
/// one runner in many races, position floods, the race cap filled by throwaway runners, and a
/// runner deleted mid-race. Where the outcome does not hang on other answers, the expectation
/// is sharp: the 33rd 10 km summary of a day earns nothing (record 0233), and a deleted
/// runner's token is refused (record 0553).
extension RequestGenerator {
    mutating func attack(now: Double) {
        switch g.int(in: 0...4) {
        case 0: stackedSummaries(now: now)
        case 1: manyRaces(now: now)
        case 2: positionFlood(now: now)
        case 3: fillRaceCap(now: now)
        default: deletedMidRace(now: now)
        }
    }

    /// 33 back-to-back 10 km summaries of 40 minutes, the first 23 h ago: the 32nd makes
    /// 320 km in 24 hours and earns; the 33rd would make 330 km and is `over_volume`.
    mutating func stackedSummaries(now: Double) {
        let user = scenarioRunner(now: now, fresh: true)
        let first = (now - 23 * 3600).rounded()
        for k in 0..<33 {
            let summary = RawJSON.object([("start_time", .number(first + Double(k) * 2400)), ("distance_m", .number(10_000)),
                                          ("duration_s", .number(2400))])
            enqueue(line("runs.ingest", [("user", .string(user)), ("run_id", .string("stack-\(k)")), ("summary", summary)],
                         family: "attack:stacked-summary", expectation: k == 32 ? .unrewarded("over_volume") : .ok, user: user))
        }
    }

    /// A fresh runner joins every room this connection knows (records 0550: at most one whose
    /// window holds a given hour takes them).
    mutating func manyRaces(now: Double) {
        let user = scenarioRunner(now: now, fresh: true)
        for race in races.suffix(6) {
            let invite: [(String, RawJSON)] = invites[race].map { [("invite", .string($0))] } ?? []
            enqueue(line("race.join", [("race_id", .string(race)), ("user", .string(user))] + invite, family: "race:race.join",
                         user: user))
        }
    }

    /// One batch of up to 3,000 points at 10 Hz for a known token (record 0551 keeps one per 0.5 s).
    mutating func positionFlood(now: Double) {
        guard let (race, token) = tokens.last else { return race(now: now, create: true) }
        let start = max(raceStarts[race] ?? now, now - 280).rounded()
        let count = max(2, Int(3000 * configuration.scale))
        let points: [RawJSON] = (0..<count).map { k in
            .array([.number(start + Double(k) / 10), .number(37.5 + Double(k) * 3e-6), .number(127)])
        }
        enqueue(line("race.position", [("race_id", .string(race)), ("participant_token", .string(token)), ("points", .array(points))],
                     family: "attack:position-flood"))
    }

    /// Throwaway runners each create races as far ahead as allowed and a little beyond (record
    /// 0552), within this connection's share of the daemon's cap.
    mutating func fillRaceCap(now: Double) {
        for _ in 0..<3 {
            let user = scenarioRunner(now: now, fresh: true)
            for lead: Double in [6.9 * 86_400, 7 * 86_400 + 3600, 29 * 86_400] {
                let p: [(String, RawJSON)] = [("user", .string(user)), ("name", .string("cap")), ("distance_m", .number(5000)),
                                              ("start_time", .number((now + lead).rounded()))]
                guard noteCreate(p) < Self.openRacesPerRunner, racesCreated.values.reduce(0, +) < Self.racesPerConnection else { return }
                enqueue(line("race.create", p, family: "race:race.create", expectation: lead > 7.0 * 86_400 ? .error("bad_request") : .valid))
            }
        }
    }

    /// First a runner of their own joins a known race; on a later pick, once the join's token
    /// is known, they are deleted and their token is used: it must be refused.
    mutating func deletedMidRace(now: Double) {
        if let (race, token, user) = joinedToDelete.first {
            joinedToDelete.removeFirst()
            enqueue(line("users.delete", [("user", .string(user))], family: "attack:delete-racer", expectation: .ok, user: user,
                         barrier: true))
            let points: [RawJSON] = (0..<5).map { k in .array([.number((now + Double(k)).rounded()), .number(37.5), .number(127)]) }
            enqueue(line("race.position", [("race_id", .string(race)), ("participant_token", .string(token)), ("points", .array(points))],
                         family: "attack:deleted-racer-position", expectation: .refused, user: user, barrier: true))
            return
        }
        guard let race = races.last else { return race(now: now, create: true) }
        runnerCount += 1
        let user = "\(namespace)-racer\(runnerCount)"
        var upsert = upsert(user, now: now)
        upsert.barrier = true
        enqueue(upsert)
        let invite: [(String, RawJSON)] = invites[race].map { [("invite", .string($0))] } ?? []
        enqueue(line("race.join", [("race_id", .string(race)), ("user", .string(user))] + invite, family: "attack:join-to-delete",
                     user: user, barrier: true))
    }
}
