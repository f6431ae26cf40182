import RunusCore
import Tracking
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// The answer to `runs.ingest` (docs/protocol.md), built once and stored.
struct IngestAnswer {
    let run: RunRecord
    let metrics: RunMetrics
    let day: CivilDate
    let missions: [RunIngestion.CheckedMission]
    let runXP: Int
    let badges: [Badge]
    let level: LevelStatus
    let clientRunID: String
    /// Why the run earns nothing, when it does not (record 0230, 0231).
    let unrewarded: Unrewarded?
    /// The client id of the stored run this one repeats (record 0231).
    let duplicateOf: String?

    struct Unrewarded {
        /// A code: `too_old`, `too_fast`, `too_short`, `duplicate`.
        let reason: String
        /// One sentence for the runner.
        let message: String
    }

    static func rounded(_ x: Double, _ digits: Double = 1) -> JSONValue {
        let scale = pow(10, digits)
        return .number((x * scale).rounded() / scale)
    }

    var json: JSONValue {
        let missionXP = missions.filter(\.completedNow).reduce(0) { $0 + $1.assignment.xp }
        var runObject: [String: JSONValue] = [
            "id": .string(clientRunID),
            "local_day": .string(day.description),
            "start_time": .number(run.startTime),
            "distance_m": Self.rounded(run.distance),
            "elapsed_s": Self.rounded(run.elapsed),
            "moving_s": Self.rounded(run.moving),
            "elevation_gain_m": Self.rounded(run.elevationGain),
            // A summary has no splits (record 0232): null, as runs.get answers for it.
            "splits": metrics.distanceSource == .summary ? .null : .array(metrics.splits.map(RunJSON.split)),
            "excluded": RunJSON.excluded(metrics.excludedParts, runStart: run.startTime),
            "distance_source": .string(metrics.distanceSource.rawValue),
            "device_distance_note": metrics.deviceDistanceNote.map { .string($0) } ?? .null,
        ]
        runObject["moving_pace_s_per_km"] = metrics.movingPace.map { Self.rounded($0) } ?? .null
        runObject["calories_kcal"] = run.calories.map { Self.rounded($0, 0) } ?? .null
        return [
            "rewarded": .bool(unrewarded == nil),
            "unrewarded": unrewarded.map { ["reason": .string($0.reason), "message": .string($0.message)] } ?? .null,
            "duplicate_of": duplicateOf.map { .string($0) } ?? .null,
            "run": .object(runObject),
            "missions": .array(missions.map(Self.missionJSON)),
            "xp": ["run": .number(Double(runXP)), "missions": .number(Double(missionXP)),
                   "awarded": .number(Double(runXP + missionXP)), "total": .number(Double(level.xp))],
            "level": Self.levelJSON(level),
            "badges_awarded": .array(badges.map(Self.badgeJSON)),
        ]
    }

    static func levelJSON(_ level: LevelStatus) -> JSONValue {
        ["level": .number(Double(level.level)), "xp": .number(Double(level.xp)),
         "xp_to_next_level": .number(Double(level.xpToNextLevel)),
         "level_start_xp": .number(Double(level.levelStartXP)), "next_level_xp": .number(Double(level.nextLevelXP))]
    }

    static func badgeJSON(_ badge: Badge) -> JSONValue {
        ["id": .string(badge.id), "name": .string(badge.name), "description": .string(badge.description),
         "icon": .string(badge.icon)]
    }
}
