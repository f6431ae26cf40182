import RunusCore

/// Race scenarios: a room that starts 30 to 90 s from now (a create still waiting behind slow
/// requests must not ask for a start in the past), this connection's runners join and watch it,
/// then send positions (clean, or degenerate tracks moved to the start), leave, ask for
/// results. Race ids and tokens come from earlier answers (`learn`), so the lines right after a
/// `race.create` use the rooms already known.
extension RequestGenerator {
    mutating func race(now: Double) {
        switch g.int(in: 0...5) {
        case 0, 1:
            var p = OperationCatalog.parameters(for: "race.create", context(now: now, for: "race.create"), &g)
            if g.bernoulli(0.3) {
                let names = ["name", "distance_m", "start_time", "capacity", "public"]
                let name = PathologicalValues.pick(names, &g)
                let values: [RawJSON] = [
                    .string(String(repeating: "🏃‍♀️", count: 80)), .string(String(repeating: "é", count: 81)), .string(""),
                    .number(400), .number(100_000), .raw("399.99999999999994"), .raw("100000.00000000001"),
                    .number((now - 1).rounded(.up)), .number((now + 30 * 86_400 - 5).rounded()), .raw("1e308"), .raw("-0"),
                    .number(2), .number(1000), .number(1001), .raw("1.5"), PathologicalValues.any(&g),
                ]
                p = RawJSON.object(p).setting(name, PathologicalValues.pick(values, &g)).members
            }
            noteCreate(p)
            enqueue(line("race.create", p, family: "race:race.create"))
        case 2:
            guard let race = races.last else { return race(now: now, create: true) }
            let runner = PathologicalValues.pick(runners, &g)
            let invite: [(String, RawJSON)] = invites[race].map { [("invite", .string($0))] } ?? []
            enqueue(line("race.join", [("race_id", .string(race)), ("user", .string(runner.id))] + invite, family: "race:race.join",
                              user: runner.id))
            enqueue(line("race.watch", [("race_id", .string(race))] + invite, family: "race:race.watch"))
        case 3, 4:
            guard let (race, token) = tokens.last else { return race(now: now, create: true) }
            let start = raceStarts[race] ?? now
            let name = g.bernoulli(0.5) ? "clean-5k" : PathologicalValues.pick(DegenerateTracks.common, &g)
            let at = g.bernoulli(0.7) ? max(start, now - 5).rounded() : start - 60
            let track = DegenerateTracks.make(name, start: at, lat: 37.5, lon: 127, scale: configuration.scale, &g)
            let slice = track.points.prefix(g.int(in: 1...max(1, min(track.points.count, 400))))
            enqueue(line("race.position", [("race_id", .string(race)), ("participant_token", .string(token)),
                                                ("points", .array(slice.map { .array($0) }))], family: "race:race.position:\(name)"))
        default:
            let race = races.last ?? "race-1"
            switch g.int(in: 0...2) {
            case 0:
                let invite: [(String, RawJSON)] = invites[race].map { [("invite", .string($0))] } ?? []
                enqueue(line("race.results", [("race_id", .string(race))] + invite, family: "race:race.results"))
            case 1:
                let token = tokens.last(where: { $0.race == race })?.token ?? "0-0"
                enqueue(line("race.leave", [("race_id", .string(race)), ("participant_token", .string(token))], family: "race:race.leave"))
            default:
                var p: [(String, RawJSON)] = []
                for key in ["min_distance_m", "max_distance_m", "from", "to"] where g.bernoulli(0.5) {
                    p.append((key, g.bernoulli(0.7) ? .number(g.uniform(0, 1e5).rounded()) : PathologicalValues.any(&g)))
                }
                enqueue(line("race.list", p, family: "race:race.list"))
            }
        }
    }

    /// A race.create when there is no room yet to join or run in.
    mutating func race(now: Double, create: Bool) {
        let p = OperationCatalog.parameters(for: "race.create", context(now: now, for: "race.create"), &g)
        let below = noteCreate(p) < Self.openRacesPerRunner && racesCreated.values.reduce(0, +) < Self.racesPerConnection
        enqueue(line("race.create", p, family: "race:race.create", expectation: below ? .ok : .valid))
    }

    /// Unfinished races a runner may hold (record 0525).
    static let openRacesPerRunner = 10
    /// A share of the daemon's caps that eight connections stay under: the campaign's hosts are
    /// all new to running, and those share 2,000 open races (record 0552).
    static let racesPerConnection = 200

    /// Counts a create by its `user`; the creates sent before this one.
    @discardableResult
    mutating func noteCreate(_ p: [(String, RawJSON)]) -> Int {
        guard case .string(let user)? = p.first(where: { $0.0 == "user" })?.1 else { return Int.max }
        defer { racesCreated[user, default: 0] += 1 }
        return racesCreated[user, default: 0]
    }
}
