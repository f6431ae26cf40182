import RunusCore

/// The scenarios (record 0540). Weights: a degenerate run and its read-backs about a fifth of
/// the picks (most lines, since each has 5–12), single malformed or pathological lines most of
/// the rest; collisions and races now and then; `model.reload` rarely.
extension RequestGenerator {
    /// Requests that read a runner back after a run: stored degenerate runs used to trap here,
    /// not at ingestion.
    static let readBacks = ["missions.today", "missions.score", "progress", "history", "goals.recommend", "runs.get",
                            "missions.progress", "missions.progress+points"]

    mutating func refill(now: Double) {
        let roll = g.uniform()
        switch roll {
        case ..<0.22: degenerateRun(now: now)
        case ..<0.32: readBack(now: now)
        case ..<0.325: collision(now: now)
        case ..<0.33: deletion(now: now)
        case ..<0.35: race(now: now)
        case ..<0.36: attack(now: now)
        case ..<0.55: pathologicalParameter(now: now)
        case ..<0.85: malformed(now: now)
        case ..<0.92: service()
        case ..<0.97: simulatedRunner(now: now)
        default: evaluate(now: now)
        }
    }

    /// Run times: mostly the last six weeks, sometimes the last hours (today's missions).
    mutating func runStart(now: Double) -> Double {
        // Recent runs end before now: the longest clean track lasts 1,500 s, and a fix over
        // 300 s ahead of the server's clock is refused (record 0230).
        (g.bernoulli(0.7) ? now - g.uniform(1800, 45 * 86_400) : now - g.uniform(1800, 4 * 3600)).rounded()
    }

    mutating func position() -> (Double, Double) {
        switch g.int(in: 0...9) {
        case 0: return (g.bernoulli(0.5) ? 89.99 : -89.99, g.uniform(-180, 180))
        case 1: return (g.uniform(-60, 60), g.bernoulli(0.5) ? 179.999 : -179.999)
        default: return (g.uniform(-60, 60), g.uniform(-179, 179))
        }
    }

    /// A new runner (an id with a separator, unicode or NUL now and then), or an existing one.
    /// `fresh`: always a new runner (a clean run that must be stored as sent: an earlier run of
    /// the same runner overlapping it would make it a duplicate, record 0231).
    mutating func scenarioRunner(now: Double, fresh: Bool = false) -> String {
        if !fresh, runners.count > 1, g.bernoulli(0.3) { return PathologicalValues.pick(Array(runners.dropFirst()), &g).id }
        runnerCount += 1
        // U+0000 is refused at the door (record 0544): `deletion` asks for it and expects that.
        let suffixes = ["", "", "", ":x", "-y", "é", "🏃", "\u{1}z", " ", "\u{202E}", ":2026:12", "\\"]
        let id = "\(namespace)-d\(runnerCount)" + PathologicalValues.pick(suffixes, &g)
        runners.append(Runner(id: id))
        if runners.count > 64 { runners.remove(at: 1) }
        enqueue(upsert(id, now: now))
        return id
    }

    /// A degenerate (or clean) run for a runner, then requests that read it back.
    mutating func degenerateRun(now: Double) {
        let name = g.bernoulli(0.002) ? "max-points" : PathologicalValues.pick(DegenerateTracks.common, &g)
        let user = scenarioRunner(now: now, fresh: name.hasPrefix("clean"))
        let (lat, lon) = position()
        let start = runStart(now: now)
        let track = DegenerateTracks.make(name, start: start, lat: lat, lon: lon, scale: configuration.scale, &g)
        let day = CivilDate(instant: start, utcOffset: 0)
        if g.bernoulli(0.4) {
            enqueue(line("missions.today", [("user", .string(user)), ("date", .string(day.description))],
                         family: "prepare:missions.today", expectation: Self.todayExpectation(day, now: now), user: user))
        }
        let runID = "r\(nextID)" + PathologicalValues.pick(["", "", ":1", "-1", "é", ":"], &g)
        let ingest = line("runs.ingest", [("user", .string(user)), ("run_id", .string(runID)), ("points", track.json)],
                          family: "ingest:\(name)", expectation: track.cleanStart.map { .runStartingAt($0) } ?? .valid, user: user)
        let queued = queue.count
        enqueue(ingest)
        if queue.count > queued, let k = runners.firstIndex(where: { $0.id == user }) {
            runners[k].runs.append((runID, start, track.cleanStart))
            if runners[k].runs.count > 8 { runners[k].runs.removeFirst() }
        }
        if let clean = track.cleanStart, g.bernoulli(0.3) {
            // Read-your-writes on one connection: no wait for the ingest's answer.
            enqueue(line("runs.get", [("user", .string(user)), ("run_id", .string(runID))], family: "pipelined:runs.get",
                         expectation: .pipelinedRead(clean), user: user))
        }
        if g.bernoulli(0.15) { enqueue(ingest) }  // idempotent repeat: same id, same answer
        var ops = Self.readBacks
        ops.shuffle(using: &g)
        for (k, op) in ops.prefix(g.int(in: 3...ops.count)).enumerated() {
            readBack(op, user: user, runID: runID, start: start, points: track, stored: track.cleanStart, now: now, barrier: k == 0)
        }
    }

    /// One to three read-backs about an earlier runner of this connection.
    mutating func readBack(now: Double) {
        let runner = PathologicalValues.pick(runners, &g)
        let run = runner.runs.isEmpty ? ("r0", now, nil) : PathologicalValues.pick(runner.runs, &g)
        for _ in 0..<g.int(in: 1...3) {
            // The points of missions.progress are a new track; runs.get expects the stored run's.
            let name = PathologicalValues.pick(DegenerateTracks.common, &g)
            let track = DegenerateTracks.make(name, start: run.1, lat: 10, lon: 10, scale: configuration.scale, &g)
            readBack(PathologicalValues.pick(Self.readBacks, &g), user: runner.id, runID: run.0, start: run.1, points: track,
                     stored: run.2, now: now)
        }
    }

    /// The read-back `op` for `user`; dates are the run's UTC day, a day either side, or none
    /// (today). Each is a well-formed request for an existing runner: it must succeed.
    mutating func readBack(_ op: String, user: String, runID: String, start: Double, points: WirePoints, stored: Double?,
                           now: Double, barrier: Bool = false) {
        let day = CivilDate(instant: start, utcOffset: 0)
        let shifted = CivilDate(daysSinceEpoch: day.daysSinceEpoch + g.int(in: -1...1))
        let date: [(String, RawJSON)] = g.bernoulli(0.8) ? [("date", .string(shifted.description))] : []
        let u: (String, RawJSON) = ("user", .string(user))
        let family = "follow:\(op)"
        switch op {
        case "missions.today":
            var p = [u] + date
            if g.bernoulli(0.3) { p.append(("k", .number(Double(g.int(in: 1...10))))) }
            if g.bernoulli(0.1) { p.append(("refresh", .raw("true"))) }
            let expectation = date.isEmpty ? AnswerExpectation.ok : Self.todayExpectation(shifted, now: now)
            enqueue(line(op, p, family: family, expectation: expectation, user: user, barrier: barrier))
        case "missions.score":
            enqueue(line(op, [u, ("specs", .array(SpecFuzzer.examples))] + date, family: family, expectation: .ok, user: user, barrier: barrier))
        case "history":
            let from = CivilDate(daysSinceEpoch: shifted.daysSinceEpoch - g.int(in: 0...400))
            let to = CivilDate(daysSinceEpoch: shifted.daysSinceEpoch + g.int(in: 0...2))
            enqueue(line(op, [u, ("from", .string(from.description)), ("to", .string(to.description)),
                              ("bucket", .string(PathologicalValues.pick(["day", "week", "month"], &g)))],
                         family: family, expectation: .ok, user: user, barrier: barrier))
        case "runs.get":
            if g.bernoulli(0.8) {
                enqueue(line(op, [u, ("run_id", .string(runID))], family: family,
                             expectation: stored.map { .runStartingAt($0) } ?? .valid, user: user, barrier: barrier || stored != nil))
            } else {
                // The id the old `user:run` key would have matched: another run, so not found.
                enqueue(line(op, [u, ("run_id", .string("\(user):\(runID)"))], family: "follow:runs.get-joined",
                             expectation: stored == nil ? .valid : .error("not_found"), user: user, barrier: barrier || stored != nil))
            }
        case "missions.progress":
            enqueue(line(op, [u] + date, family: family, expectation: .ok, user: user, barrier: barrier))
        case "missions.progress+points":
            enqueue(line("missions.progress", [u, ("points", points.json)] + date, family: family, user: user, barrier: barrier))
        default:  // progress, goals.recommend
            enqueue(line(op, [u], family: family, expectation: .ok, user: user, barrier: barrier))
        }
    }

    /// Two runners whose stored run ids are built by concatenation (`user:run`) and collide:
    /// runner `X:2026` run `12-01` and runner `X` run `2026:12-01`. Each must get its own run
    /// back. The `-` variant does not collide and checks the check.
    mutating func collision(now: Double) {
        runnerCount += 1
        let base = "\(namespace)-bob\(runnerCount)"
        let separator = g.bernoulli(0.8) ? ":" : "-"
        let a = (user: "\(base)\(separator)2026", run: "12-01")
        let b = (user: base, run: "2026\(separator)12-01")
        let startA = runStart(now: now), startB = startA - 86_400 * Double(g.int(in: 1...5))
        for u in [a.user, b.user] {
            runners.append(Runner(id: u))
            var l = upsert(u, now: now)
            l.barrier = true
            enqueue(l)
        }
        var ingests = [(a, startA), (b, startB)]
        if g.bernoulli(0.5) { ingests.reverse() }
        for (who, start) in ingests {
            let track = DegenerateTracks.make("clean-5k", start: start, lat: 48.85, lon: 2.35, scale: configuration.scale, &g)
            enqueue(line("runs.ingest", [("user", .string(who.user)), ("run_id", .string(who.run)), ("points", track.json)],
                         family: "collision:runs.ingest", expectation: .runStartingAt(start), user: who.user, barrier: true))
        }
        for (who, start) in ingests.shuffled(using: &g) {
            enqueue(line("runs.get", [("user", .string(who.user)), ("run_id", .string(who.run))],
                         family: "collision:runs.get", expectation: .runStartingAt(start), user: who.user, barrier: true))
        }
    }

    /// Operations whose parameters are fuzzed or whose lines are corrupted: all but
    /// `model.reload` (sent on its own, rarely) and `users.delete`, whose pathological
    /// variants stay in the deletion scenario (a corrupted or odd id could name a runner whose
    /// reads must keep working, such as a simulated `runner-0001`).
    static let fuzzedOperations = OperationCatalog.operations.filter { $0 != "model.reload" && $0 != "users.delete" }

    /// `missions.today` answers yesterday to tomorrow in the runner's zone (record 0524): the
    /// runner's today is the UTC day or one either side, so only the UTC day is always inside.
    static func todayExpectation(_ day: CivilDate, now: Double) -> AnswerExpectation {
        day == CivilDate(instant: now, utcOffset: 0) ? .ok : .valid
    }

    /// A runner who asks for their data and then to be forgotten (users.export, users.delete):
    /// afterwards the runner and its run are gone. Never one of `runners`, whose reads must work.
    mutating func deletion(now: Double) {
        runnerCount += 1
        let user = "\(namespace)-gone\(runnerCount)" + PathologicalValues.pick(["", ":x", "é", "\u{1}z"], &g)
        let u: (String, RawJSON) = ("user", .string(user))
        var upsert = upsert(user, now: now)
        upsert.barrier = true
        enqueue(upsert)
        let start = runStart(now: now)
        let track = DegenerateTracks.make("clean-5k", start: start, lat: 59.33, lon: 18.06, scale: configuration.scale, &g)
        enqueue(line("runs.ingest", [u, ("run_id", .string("r1")), ("points", track.json)], family: "delete:runs.ingest",
                     expectation: .runStartingAt(start), user: user, barrier: true))
        enqueue(line("users.export", [u, ("tracks", .raw(g.bernoulli(0.5) ? "true" : "false"))], family: "delete:users.export",
                     expectation: .ok, user: user, barrier: true))
        enqueue(line("users.delete", [u], family: "delete:users.delete", expectation: .ok, user: user, barrier: true))
        if g.bernoulli(0.3) {
            // Deleting again, or with an odd id of this namespace (never another runner's).
            let odd = "\(namespace)-gone" + PathologicalValues.pick(PathologicalValues.strings, &g)
            enqueue(line("users.delete", [("user", g.bernoulli(0.5) ? .string(user) : .string(odd))], family: "delete:users.delete-odd",
                         user: user, barrier: true))
        }
        enqueue(line("users.get", [("user", .string(user + "\u{0}"))], family: "delete:users.get-nul", expectation: .error("bad_request"),
                     user: user, barrier: true))
        enqueue(line("users.get", [u], family: "delete:users.get", expectation: .error("not_found"), user: user, barrier: true))
        enqueue(line("runs.get", [u, ("run_id", .string("r1"))], family: "delete:runs.get", expectation: .error("not_found"),
                     user: user, barrier: true))
    }

    /// Every operation with one parameter replaced (or dropped, duplicated, or joined by an
    /// unknown one).
    mutating func pathologicalParameter(now: Double) {
        let op = PathologicalValues.pick(Self.fuzzedOperations, &g)
        let context = context(now: now, for: op)
        var p = OperationCatalog.parameters(for: op, context, &g)
        let names = OperationCatalog.parameters[op] ?? []
        switch g.int(in: 0...9) {
        case 0...5:
            let name = names.isEmpty ? "x" : PathologicalValues.pick(names, &g)
            p = RawJSON.object(p).setting(name, pathologicalValue(for: name, now: now)).members
        case 6: if !p.isEmpty { p.remove(at: g.int(in: 0...(p.count - 1))) }
        case 7: if let first = p.first { p.append((first.0, PathologicalValues.any(&g))) }
        case 8: p.append((PathologicalValues.pick(PathologicalValues.strings, &g), PathologicalValues.any(&g)))
        default: p = p.map { ($0.0, pathologicalValue(for: $0.0, now: now)) }
        }
        enqueue(line(op, p, family: "param:\(op)", user: p.contains { $0.0 == "user" } ? context.user : nil))
    }

    /// A value for parameter `name`: a degenerate track or spec where one is expected, else any.
    mutating func pathologicalValue(for name: String, now: Double) -> RawJSON {
        switch name {
        case "points" where g.bernoulli(0.6):
            let (lat, lon) = position()
            let track = PathologicalValues.pick(DegenerateTracks.common, &g)
            return DegenerateTracks.make(track, start: runStart(now: now), lat: lat, lon: lon, scale: configuration.scale, &g).json
        case "spec" where g.bernoulli(0.7): return SpecFuzzer.spec(&g)
        case "summary" where g.bernoulli(0.7): return OperationCatalog.summary(start: runStart(now: now), &g)
        case "specs" where g.bernoulli(0.7): return .array((0..<g.int(in: 0...51)).map { _ in SpecFuzzer.spec(&g) })
        default: return PathologicalValues.any(&g)
        }
    }

    mutating func malformed(now: Double) {
        let op = PathologicalValues.pick(Self.fuzzedOperations, &g)
        let context = context(now: now, for: op)
        let parameters = OperationCatalog.parameters(for: op, context, &g)
        let request = RawJSON.request(id: id(), op: op, parameters)
        let (bytes, family) = LineCorruptor.corrupt(request, scale: configuration.scale, &g)
        // A corruption may leave the request valid: it is about its runner like any other.
        let user = parameters.contains { $0.0 == "user" } ? context.user : nil
        enqueue(FuzzLine(bytes: bytes, family: "malformed:\(family)", keepsState: OperationCatalog.stateful.contains(op), user: user))
    }

    mutating func service() {
        if configuration.reloadOneIn > 0, g.int(in: 1...configuration.reloadOneIn) == 1 {
            enqueue(line("model.reload", [], family: "service:model.reload", expectation: .ok))
            return
        }
        let op = PathologicalValues.pick(["health", "stats", "model.info", "auth"], &g)
        var p: [(String, RawJSON)] = []
        // A token holding U+0000 is refused as no store can hold it (record 0544); any other is
        // accepted by a daemon without tokens.
        var refusable = false
        if op == "auth" {
            let token = PathologicalValues.pick(PathologicalValues.strings, &g)
            refusable = token.unicodeScalars.contains("\u{0}")
            p.append(("token", .string(token)))
        }
        // An unknown extra parameter is ignored, unless its value breaks the line.
        let extra = g.bernoulli(0.3)
        if extra { p.append((PathologicalValues.pick(PathologicalValues.strings, &g), PathologicalValues.any(&g))) }
        enqueue(line(op, p, family: "service:\(op)", expectation: extra ? .valid : refusable ? .error("bad_request") : .ok))
    }

    /// Reads of the simulated runners (rich histories; never written by the fuzzer).
    mutating func simulatedRunner(now: Double) {
        guard configuration.simulatedRunners > 0 else { return service() }
        let number = String(g.int(in: 1...configuration.simulatedRunners))
        let user = "runner-" + String(repeating: "0", count: max(0, 4 - number.count)) + number
        let op = PathologicalValues.pick(["missions.score", "progress", "history", "goals.recommend", "missions.progress"], &g)
        let track = DegenerateTracks.make("clean-5k", start: now - 7200, lat: 37.5, lon: 127, scale: configuration.scale, &g)
        switch op {
        case "missions.score":
            enqueue(line(op, [("user", .string(user)), ("specs", .array(SpecFuzzer.examples))], family: "simulated:\(op)", expectation: .ok))
        case "history":
            enqueue(line(op, [("user", .string(user)), ("from", .string("2026-01-01")), ("to", .string("2026-12-31"))],
                              family: "simulated:\(op)", expectation: .ok))
        default:
            enqueue(line(op, [("user", .string(user))] + (op == "missions.progress" && g.bernoulli(0.5) ? [("points", track.json)] : []),
                              family: "simulated:\(op)", expectation: .ok))
        }
    }

    /// `missions.evaluate`: a (broken) spec against a degenerate track; nothing stored.
    mutating func evaluate(now: Double) {
        let (lat, lon) = position()
        let name = PathologicalValues.pick(DegenerateTracks.common, &g)
        let track = DegenerateTracks.make(name, start: runStart(now: now), lat: lat, lon: lon, scale: configuration.scale, &g)
        var p: [(String, RawJSON)] = [("spec", SpecFuzzer.spec(&g)), ("points", track.json)]
        if g.bernoulli(0.5) { p.append(("utc_offset_s", .raw(PathologicalValues.pick(["0", "-50400", "50400", "-0", "3600", "1e-320"], &g)))) }
        enqueue(line("missions.evaluate", p, family: "evaluate:\(track.name)"))
    }
}
