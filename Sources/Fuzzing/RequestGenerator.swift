import RunusCore

/// The request lines of one fuzzing connection (record 0540): seeded scenarios, interleaved.
/// A scenario is a short sequence about one runner (a degenerate run, then the requests that
/// read it back), a run-id collision, a race, or a single line (a pathological parameter, a
/// malformed line, a service call). Lines depend only on the seed, the connection, `now`, and
/// the race ids and tokens the daemon answered (`learn`).
public struct RequestGenerator: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        /// Connection index, 0…; with `generation`, it picks the generator's stream and the
        /// runner namespace.
        public var connection: Int
        /// How many daemons were started before this one (runners of earlier daemons are left
        /// alone: their stored runs already crashed one).
        public var generation: Int
        /// Simulated runners `runner-0001`… in the database, read (never written) by some lines.
        public var simulatedRunners: Int
        /// One `model.reload` per this many service calls, on average (0: never): about 50 in a
        /// million lines at 500.
        public var reloadOneIn: Int
        /// (0, 1]: long tracks and huge strings shortened to this fraction (the test slice on a
        /// debug build); 1 in campaigns.
        public var scale: Double

        public init(seed: UInt64, connection: Int, generation: Int = 0, simulatedRunners: Int = 0, reloadOneIn: Int = 500,
                    scale: Double = 1) {
            precondition(scale > 0 && scale <= 1, "RequestGenerator: scale \(scale) is outside (0, 1]")
            self.seed = seed; self.connection = connection; self.generation = generation
            self.simulatedRunners = simulatedRunners; self.reloadOneIn = reloadOneIn; self.scale = scale
        }
    }

    /// A runner this connection created, and the families of the lines sent about it.
    struct Runner: Sendable {
        var id: String
        /// Runs sent for it: client id, first fix, and that fix again when the track is clean
        /// (the daemon must have stored it).
        var runs: [(id: String, start: Double, clean: Double?)] = []
        var families: Set<String> = []
    }

    public let configuration: Configuration
    /// Prefix of every runner id this connection creates: `f<generation>c<connection>`.
    public let namespace: String
    var g: SeededGenerator
    var queue: [FuzzLine] = []
    var queueStart = 0
    var nextID = 1
    var runners: [Runner] = []
    var runnerCount = 0
    var races: [String] = []
    var raceStarts: [String: Double] = [:]
    var tokens: [(race: String, token: String)] = []
    /// Joins of `deletedMidRace`'s runners, answered: deleted on a later pick (record 0553).
    var joinedToDelete: [(race: String, token: String, user: String)] = []
    /// Private races' invites, from their create answers.
    var invites: [String: String] = [:]
    /// `race.create` lines sent per creator (answered or not): a runner may hold 10 unfinished
    /// races, the daemon 10,000 (record 0525), so a create is expected to succeed only below.
    var racesCreated: [String: Int] = [:]
    /// Lines not generated again (`mute`).
    public private(set) var muted: [MuteRule] = []
    public private(set) var mutedFamilies: Set<String> = []

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        namespace = "f\(configuration.generation)c\(configuration.connection)"
        g = SeededGenerator(seed: configuration.seed, stream: UInt64(configuration.generation * 10_000 + configuration.connection))
    }

    /// The next line to send; `now` is the wall clock (Unix s), for race start times and runs
    /// dated around today.
    public mutating func next(now: Double) -> FuzzLine {
        if runners.isEmpty {
            let id = "\(namespace)-u0"
            runners.append(Runner(id: id, families: ["users.upsert"]))
            return upsert(id, now: now)
        }
        prepare(now: now)
        defer { queueStart += 1 }
        return queue[queueStart]
    }

    /// Whether the next line waits for every earlier answer (`FuzzLine.barrier`).
    public mutating func nextIsBarrier(now: Double) -> Bool {
        guard !runners.isEmpty else { return false }
        prepare(now: now)
        return queue[queueStart].barrier
    }

    mutating func prepare(now: Double) {
        while queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
            refill(now: now)
        }
    }

    /// Reads what later lines need from an answer: race ids, start times, participant tokens.
    public mutating func learn(answer: JSONValue, for line: FuzzLine) {
        guard answer["ok"] == .bool(true), let result = answer["result"] else { return }
        if line.family.hasPrefix("race:race.create"), let id = result["race_id"]?.stringValue {
            races.append(id)
            if races.count > 16 { races.removeFirst() }
            raceStarts[id] = result["start_time"]?.doubleValue
            if let invite = result["invite"]?.stringValue { invites[id] = invite }
        }
        if line.family.hasPrefix("race:race.join"), let race = result["race_id"]?.stringValue,
           let token = result["participant_token"]?.stringValue {
            tokens.append((race, token))
            if tokens.count > 32 { tokens.removeFirst() }
        }
        if line.family == "attack:join-to-delete", let race = result["race_id"]?.stringValue,
           let token = result["participant_token"]?.stringValue, let user = line.user {
            joinedToDelete.append((race, token, user))
            if joinedToDelete.count > 8 { joinedToDelete.removeFirst() }
        }
    }

    /// Stops generating `rule.trigger` lines for runners whose earlier lines include all of
    /// `rule.requires` (a crash class already found and minimized).
    public mutating func mute(_ rule: MuteRule) { muted.append(rule) }

    /// Stops generating lines of `family` at all (one that hung the daemon).
    public mutating func mute(family: String) { mutedFamilies.insert(family) }

    // MARK: building lines

    /// The id of the next request: mostly a sequence number (answers are checked in order),
    /// sometimes a pathological value to echo.
    mutating func id() -> RawJSON {
        defer { nextID += 1 }
        guard g.bernoulli(0.1) else { return .number(Double(nextID)) }
        switch g.int(in: 0...4) {
        case 0: return .raw(PathologicalValues.pick(PathologicalValues.numbers, &g))
        case 1: return .string(PathologicalValues.pick(PathologicalValues.strings, &g))
        case 2: return .raw(PathologicalValues.pick(PathologicalValues.validEscapes, &g))
        case 3: return PathologicalValues.nested(depth: g.int(in: 1...100), g.bernoulli(0.5))
        default: return PathologicalValues.pick([.raw("null"), .raw("true"), .object([]), .array([]),
                                                .object([("n", .number(Double(nextID)))])], &g)
        }
    }

    mutating func line(_ op: String, _ parameters: [(String, RawJSON)], family: String, expectation: AnswerExpectation = .valid,
                       user: String? = nil, barrier: Bool = false) -> FuzzLine {
        let request = RawJSON.request(id: id(), op: op, parameters)
        var l = FuzzLine(request, family: family, expectation: expectation,
                         keepsState: OperationCatalog.stateful.contains(op), user: user)
        l.barrier = barrier
        return l
    }

    mutating func upsert(_ user: String, now: Double) -> FuzzLine {
        line("users.upsert", [("user", .string(user)), ("time_zone", .string(PathologicalValues.pick(OperationCatalog.timeZones, &g))),
                              ("weight_kg", .number(Double(g.int(in: 40...120))))],
             family: "users.upsert", expectation: .ok, user: user)
    }

    /// Whether a `family` line about `user` is still generated (`mute`).
    func allowed(_ family: String, user: String) -> Bool {
        guard let runner = runners.first(where: { $0.id == user }) else { return true }
        return !muted.contains { $0.trigger == family && $0.requires.isSubset(of: runner.families) }
    }

    /// Queues `l` unless muted; the runner it is about remembers its family.
    mutating func enqueue(_ l: FuzzLine) {
        if mutedFamilies.contains(l.family) { return }
        if let user = l.user {
            guard allowed(l.family, user: user) else { return }
            if let k = runners.firstIndex(where: { $0.id == user }) { runners[k].families.insert(l.family) }
        }
        queue.append(l)
    }

    /// A context for the catalog's requests: a runner of this connection, one of its runs, a
    /// known race and token, a small track.
    mutating func context(now: Double, for op: String) -> OperationCatalog.Context {
        var runner = PathologicalValues.pick(runners, &g)
        // Deleting is for runners of the deletion scenario only: the others' reads must work.
        if op == "users.delete" { runner = Runner(id: "\(namespace)-nobody") }
        let run = runner.runs.isEmpty ? ("r0", now - 3600, nil) : PathologicalValues.pick(runner.runs, &g)
        let race = races.isEmpty ? "race-1" : PathologicalValues.pick(races, &g)
        let token = tokens.first(where: { $0.race == race })?.token ?? "0-0"
        var points: RawJSON = .array([])
        if OperationCatalog.parameters[op]?.contains("points") == true {  // a track only where one is sent
            let name = g.bernoulli(0.7) ? "clean-intervals" : PathologicalValues.pick(DegenerateTracks.common, &g)
            points = DegenerateTracks.make(name, start: (now - 3600).rounded(), lat: 37.5, lon: 127, scale: configuration.scale, &g).json
        }
        return OperationCatalog.Context(user: runner.id, runID: run.0, day: CivilDate(instant: run.1, utcOffset: 0),
                                        now: now, race: race, token: token, points: points, invite: invites[race])
    }
}

/// A crash class already found: `trigger` lines are not sent again for a runner whose earlier
/// lines include every family in `requires` (so the campaign's lines go to finding others).
public struct MuteRule: Sendable, Equatable, Hashable {
    public let trigger: String
    public let requires: Set<String>

    public init(trigger: String, requires: Set<String>) {
        self.trigger = trigger
        self.requires = requires
    }
}
