import RunusCore
import Engine
import Server
import TrackFormats

/// `users.export`'s result written in parts (record 0555): a runner with twenty day-long tracks
/// exports about 94 MB, which a whole answer held in memory (and a JSON tree several times
/// that while it was built). Here the small sections are read when the stream is made (so an
/// unknown runner is a whole error answer), and the runs are read and written one at a time as
/// the client reads. The bytes are those of the whole value written by `JSONWriter` (sorted
/// keys): `badges`, `missions`, `profile`, `races`, `rewards`, then `runs`, then `user`.
final class UsersExportStream: ResultStream, @unchecked Sendable {
    private let user: UserID
    private let withTracks: Bool
    private let profiles: RunnerProfiles
    private let outline: RunnerProfiles.Export
    /// Runs written so far; nil before the head.
    private var written: Int?

    init(user: UserID, withTracks: Bool, store: any EngineStore) throws {
        self.user = user
        self.withTracks = withTracks
        let profiles = RunnerProfiles(store: store)
        self.profiles = profiles
        self.outline = try WireErrors.engine("users.export") { try profiles.export(user) }
    }

    func writeNext(into out: inout [UInt8], partBytes: Int) throws -> Bool {
        guard var index = written else {
            writeHead(into: &out)
            written = 0
            return true
        }
        let start = out.count
        while index < outline.runs.count, out.count - start < partBytes {
            let run = try WireErrors.engine("users.export") { try profiles.exportedRun(outline.runs[index], of: user) }
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.writeRun(run, withTracks: withTracks, into: &out)
            index += 1
        }
        written = index
        guard index == outline.runs.count else { return true }
        out.append(contentsOf: #"],"user":"#.utf8)
        JSONWriter.write(.string(user), into: &out)
        out.append(UInt8(ascii: "}"))
        return false
    }

    /// Everything before the first run: the sections that sort before `runs`.
    private func writeHead(into out: inout [UInt8]) {
        let sections: [(String, JSONValue)] = [
            ("badges", .array(outline.badges.map(Self.badgeJSON))),
            ("missions", .array(outline.assignments.map(Self.assignmentJSON))),
            ("profile", DaemonOperations.profileJSON(outline.profile)),
            ("races", .array(outline.races.map { Self.raceJSON($0.race, $0.result, user: user) })),
            ("rewards", .array(outline.rewards.map(Self.rewardJSON))),
        ]
        out.append(UInt8(ascii: "{"))
        for (key, value) in sections {
            JSONWriter.write(.string(key), into: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.write(value, into: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: #""runs":["#.utf8)
    }

    /// `JSONWriter.write` of the run's object, its `points` (between `moving_s` and
    /// `rewarded` in key order) written straight from the track (`WireTrack.write`).
    static func writeRun(_ run: RunRecord, withTracks: Bool, into out: inout [UInt8]) {
        let members = runMembers(run)
        guard withTracks, let bytes = run.track, let track = try? CompactTrackCodec.decode(bytes) else {
            return JSONWriter.write(.object(members), into: &out)
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        func member(_ key: String, _ write: (inout [UInt8]) -> Void) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.write(.string(key), into: &out)
            out.append(UInt8(ascii: ":"))
            write(&out)
        }
        let keys = members.keys.sorted()
        for key in keys where key < "points" { member(key) { JSONWriter.write(members[key] ?? .null, into: &$0) } }
        member("points") { WireTrack.write(track, into: &$0) }
        for key in keys where key > "points" { member(key) { JSONWriter.write(members[key] ?? .null, into: &$0) } }
        out.append(UInt8(ascii: "}"))
    }

    /// A run's export fields but its points.
    static func runMembers(_ run: RunRecord) -> [String: JSONValue] {
        [
            "id": .string(run.id), "start_time": .number(run.startTime), "distance_m": .number(run.distance),
            "elapsed_s": .number(run.elapsed), "moving_s": .number(run.moving),
            "elevation_gain_m": .number(run.elevationGain), "calories_kcal": run.calories.map { .number($0) } ?? .null,
            "source": .string(run.source), "rewarded": .bool(run.rewarded),
            "unrewarded_reason": run.unrewardedReason.map { .string($0) } ?? .null,
            "has_track": .bool(run.track != nil),
        ]
    }

    static func assignmentJSON(_ a: MissionAssignment) -> JSONValue {
        ["id": .string(a.id), "day": .string(a.day.description), "kind": .string(a.kind),
         "spec": (try? JSONParser.parse(a.specJSON)) ?? .null, "model_version": .string(a.modelVersion),
         "p_complete": a.shownPComplete.map { .number($0) } ?? .null, "xp": .number(Double(a.xp)), "status": .string(a.status.rawValue),
         "run_id": a.runID.map { .string($0) } ?? .null, "progress": a.progress.map { .number($0) } ?? .null,
         "offered_at": .number(a.offeredAt)]
    }

    static func rewardJSON(_ r: RewardEntry) -> JSONValue {
        ["time": .number(r.time), "xp": .number(Double(r.xp)), "reason": .string(r.reason),
         "ref_id": r.refID.map { .string($0) } ?? .null]
    }

    static func badgeJSON(_ b: BadgeAward) -> JSONValue {
        ["id": .string(b.badgeID), "awarded_at": .number(b.awardedAt), "run_id": b.runID.map { .string($0) } ?? .null]
    }

    static func raceJSON(_ race: StoredRace, _ result: StoredRaceResult?, user: UserID) -> JSONValue {
        ["race_id": .string(race.id), "name": .string(race.name), "distance_m": .number(race.distance),
         "start_time": .number(race.startTime), "host": .bool(ExactText.same(race.createdBy, user)),
         "cancelled": .bool(race.cancelledAt != nil),
         "result": result.map { r in
             ["rank": .number(Double(r.rank)), "status": .string(r.status), "distance_m": .number(r.distance),
              "finish_time_s": r.finishTime.map { .number($0) } ?? .null, "xp": .number(Double(r.xp)),
              "badges": .array(r.badges.map { .string($0) })] as JSONValue
         } ?? .null]
    }
}
