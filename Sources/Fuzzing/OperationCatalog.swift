import RunusCore
import Missions

/// The daemon's operations as the fuzzer knows them (docs/protocol.md): for each, a well-formed
/// request built from what a session has (its runners, runs, races and tokens) and the names of
/// the parameters a pathological value may replace.
public enum OperationCatalog {
    /// Every operation the daemon registers, `auth` included (the server's own).
    public static let operations: [String] = [
        "auth", "health", "stats", "model.info", "model.reload", "users.upsert", "users.get", "users.export", "users.delete",
        "runs.ingest", "runs.get", "history", "badges.catalog",
        "progress", "goals.recommend", "missions.today", "missions.score", "missions.evaluate", "missions.progress",
        "missions.custom", "missions.history",
        "race.create", "race.list", "race.join", "race.leave", "race.watch", "race.position", "race.results",
        "race.cancel",
    ]

    /// Operations that write (replayed for a reproducer: they make the state a later request
    /// meets).
    public static let stateful: Set<String> = [
        "users.upsert", "users.delete", "runs.ingest", "missions.today", "missions.custom", "model.reload", "race.create", "race.join",
        "race.leave",
        "race.watch", "race.position", "race.cancel",
    ]

    /// Parameters of each operation, in docs/protocol.md order.
    public static let parameters: [String: [String]] = [
        "auth": ["token"], "health": [], "stats": [], "model.info": [], "model.reload": [],
        "users.upsert": ["user", "time_zone", "birth_year", "sex", "height_cm", "weight_kg", "display_name"],
        "users.get": ["user"], "users.export": ["user", "tracks"], "users.delete": ["user"], "badges.catalog": ["user"],
        "runs.ingest": ["user", "run_id", "points", "summary"], "runs.get": ["user", "run_id"],
        "history": ["user", "from", "to", "bucket"], "progress": ["user"], "goals.recommend": ["user"],
        "missions.today": ["user", "date", "k", "refresh"], "missions.score": ["user", "specs", "date"],
        "missions.evaluate": ["spec", "points", "utc_offset_s"], "missions.progress": ["user", "date", "points"],
        "missions.custom": ["user", "spec", "date"],
        "missions.history": ["user", "from", "to", "kind", "status", "offset", "limit"],
        "race.create": ["user", "name", "distance_m", "start_time", "capacity", "public"],
        "race.list": ["min_distance_m", "max_distance_m", "from", "to"], "race.join": ["race_id", "user", "invite"],
        "race.leave": ["race_id", "participant_token"], "race.watch": ["race_id", "invite"],
        "race.position": ["race_id", "participant_token", "points"], "race.results": ["race_id", "invite"],
        "race.cancel": ["race_id", "user"],
    ]

    /// What a request can be built from.
    public struct Context {
        public var user: String
        public var runID: String
        public var day: CivilDate
        public var now: Double
        public var race: String
        public var token: String
        public var points: RawJSON
        /// The race's `invite` when it is private and its create answer said it.
        public var invite: String?

        public init(user: String, runID: String, day: CivilDate, now: Double, race: String, token: String, points: RawJSON,
                    invite: String? = nil) {
            self.user = user; self.runID = runID; self.day = day; self.now = now
            self.race = race; self.token = token; self.points = points; self.invite = invite
        }
    }

    /// A well-formed request's parameters for `op` (without `id` and `op`).
    public static func parameters(for op: String, _ c: Context, _ g: inout SeededGenerator) -> [(String, RawJSON)] {
        func day(_ offset: Int) -> RawJSON { .string(CivilDate(daysSinceEpoch: c.day.daysSinceEpoch + offset).description) }
        switch op {
        case "auth": return [("token", .string("0123456789abcdef-fuzz"))]
        case "users.upsert":
            return [("user", .string(c.user)), ("time_zone", .string(PathologicalValues.pick(timeZones, &g))),
                    ("birth_year", .number(Double(g.int(in: 1900...2100)))), ("sex", .string(PathologicalValues.pick(["f", "m", "x"], &g))),
                    ("height_cm", .number(Double(g.int(in: 50...260)))), ("weight_kg", .number(Double(g.int(in: 20...350))))]
        case "users.get", "users.delete": return [("user", .string(c.user))]
        case "users.export": return [("user", .string(c.user)), ("tracks", .raw(g.bernoulli(0.5) ? "true" : "false"))]
        case "badges.catalog": return g.bernoulli(0.7) ? [("user", .string(c.user))] : []
        case "runs.ingest":
            // A summary instead of points now and then (record 0232): an indoor run.
            guard g.bernoulli(0.2) else { return [("user", .string(c.user)), ("run_id", .string(c.runID)), ("points", c.points)] }
            return [("user", .string(c.user)), ("run_id", .string(c.runID)), ("summary", summary(start: c.now - 3600, &g))]
        case "runs.get": return [("user", .string(c.user)), ("run_id", .string(c.runID))]
        case "history":
            return [("user", .string(c.user)), ("from", day(-g.int(in: 0...40))), ("to", day(g.int(in: 0...3))),
                    ("bucket", .string(PathologicalValues.pick(["day", "week", "month"], &g)))]
        case "progress", "goals.recommend": return [("user", .string(c.user))]
        case "missions.today":
            var p: [(String, RawJSON)] = [("user", .string(c.user)), ("date", day(0))]
            if g.bernoulli(0.3) { p.append(("k", .number(Double(g.int(in: 1...10))))) }
            if g.bernoulli(0.2) { p.append(("refresh", .raw("true"))) }
            return p
        case "missions.score": return [("user", .string(c.user)), ("specs", .array(SpecFuzzer.examples)), ("date", day(0))]
        case "missions.evaluate":
            return [("spec", SpecFuzzer.example(PathologicalValues.pick(MissionKindNames.singleRun, &g))), ("points", c.points),
                    ("utc_offset_s", .number(Double(g.int(in: -50_400...50_400))))]
        case "missions.progress": return [("user", .string(c.user)), ("date", day(0)), ("points", c.points)]
        case "missions.custom":
            // A kind a run can complete; the day's cap and duplicates answer bad_request, as they should.
            let kinds = MissionKind.allCases.filter { $0 != .raceFinish && $0 != .podium }
            var p: [(String, RawJSON)] = [("user", .string(c.user)), ("spec", SpecFuzzer.example(PathologicalValues.pick(kinds, &g)))]
            if g.bernoulli(0.3) { p.append(("date", day(g.int(in: 0...1)))) }
            return p
        case "missions.history":
            var p: [(String, RawJSON)] = [("user", .string(c.user)), ("from", day(-g.int(in: 0...40))), ("to", day(g.int(in: 0...2)))]
            if g.bernoulli(0.3) { p.append(("kind", .string(PathologicalValues.pick(MissionKind.allCases, &g).rawValue))) }
            if g.bernoulli(0.3) {
                p.append(("status", .string(PathologicalValues.pick(MissionStatus.allCases, &g).rawValue)))
            }
            if g.bernoulli(0.3) { p.append(("offset", .number(Double(g.int(in: 0...20))))) }
            if g.bernoulli(0.3) { p.append(("limit", .number(Double(g.int(in: 1...200))))) }
            return p
        case "race.create":
            return [("user", .string(c.user)), ("name", .string("fuzz race")), ("distance_m", .number(Double(g.int(in: 400...10_000)))),
                    ("start_time", .number((c.now + Double(g.int(in: 30...90))).rounded())),
                    ("capacity", .number(Double(g.int(in: 2...50)))), ("public", .raw(g.bernoulli(0.8) ? "true" : "false"))]
        case "race.list":
            return [("min_distance_m", .number(0)), ("max_distance_m", .number(100_000)), ("from", .number(0)), ("to", .number(1e11))]
        case "race.join": return [("race_id", .string(c.race)), ("user", .string(c.user))] + invite(c)
        case "race.leave": return [("race_id", .string(c.race)), ("participant_token", .string(c.token))]
        case "race.watch", "race.results": return [("race_id", .string(c.race))] + invite(c)
        case "race.cancel": return [("race_id", .string(c.race)), ("user", .string(c.user))]
        case "race.position": return [("race_id", .string(c.race)), ("participant_token", .string(c.token)), ("points", c.points)]
        default: return []
        }
    }

    static func invite(_ c: Context) -> [(String, RawJSON)] { c.invite.map { [("invite", .string($0))] } ?? [] }

    /// A `runs.ingest` summary starting at `start` (record 0232): mostly a plausible indoor run,
    /// else with one number from the pathological list or a wrong type in one key (refused
    /// naming `summary.<key>`, or stored unrewarded, never a trap).
    public static func summary(start: Double, _ g: inout SeededGenerator) -> RawJSON {
        var members: [(String, RawJSON)] = [
            ("start_time", .number(start.rounded())), ("distance_m", .number(Double(g.int(in: 1000...20_000)))),
            ("duration_s", .number(Double(g.int(in: 600...7200)))),
        ]
        if g.bernoulli(0.5) { members.append(("moving_s", .number(Double(g.int(in: 300...600))))) }
        if g.bernoulli(0.5) { members.append(("kcal", .number(Double(g.int(in: 0...900))))) }
        if g.bernoulli(0.5) { members.append(("avg_hr", .number(Double(g.int(in: 90...190))))) }
        if g.bernoulli(0.4) {
            let k = g.int(in: 0...(members.count - 1))
            let (text, json) = PathologicalValues.number(&g)
            members[k].1 = json && g.bernoulli(0.7) ? .raw(text) : PathologicalValues.any(&g)
        }
        return .object(members)
    }

    /// Time zones with odd offsets (+14, −12, half and quarter hours, 30-minute daylight time).
    public static let timeZones = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/St_Johns", "Asia/Kathmandu",
                                   "Australia/Lord_Howe", "Europe/Paris", "America/Los_Angeles", "Asia/Seoul"]
}

/// Kind names grouped as the daemon treats them.
public enum MissionKindNames {
    /// Kinds `missions.evaluate` can decide from one track.
    public static let singleRun: [MissionKind] = MissionKind.allCases.filter { !$0.needsContext }
}
