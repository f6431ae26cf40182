import RunusCore
import Engine
import Server
import Tracking
import TrackFormats

/// `runs.get`: one stored run of a user (docs/protocol.md).
extension DaemonOperations {
    func runsGet(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        let runID = try request.runID()
        let withTrack = try request.optionalBool("track") ?? false
        // The id as `history` lists it: the client's id as sent to runs.ingest (record 0405).
        let stored = try WireErrors.engine("runs.get") { try StoredRun.read(user: user, id: runID, store: store, resolver: resolver) }
        let run = stored.run
        func r(_ x: Double, _ scale: Double = 10) -> JSONValue { .number((x * scale).rounded() / scale) }
        var object: [String: JSONValue] = [
            "id": .string(run.id),
            "local_day": .string(stored.localDay.description),
            "start_time": .number(run.startTime),
            "distance_m": r(run.distance), "elapsed_s": r(run.elapsed), "moving_s": r(run.moving),
            "elevation_gain_m": r(run.elevationGain),
            "moving_pace_s_per_km": run.movingPace.map { r($0) } ?? .null,
            "calories_kcal": run.calories.map { r($0, 1) } ?? .null,
            "source": .string(run.source),
            "has_track": .bool(run.track != nil),
            "distance_source": .string(stored.distanceSource.rawValue),
            "splits": stored.splits.map { splits in .array(splits.map(RunJSON.split)) } ?? .null,
            "excluded": stored.excluded.map { RunJSON.excluded($0, runStart: run.startTime) } ?? .null,
        ]
        // The fixes in the runs.ingest form, as users.export writes them (issue 53, item 5).
        if withTrack { object["points"] = run.track.flatMap { try? CompactTrackCodec.decode($0) }.map(WireTrack.json) ?? .null }
        return ["user": .string(user), "run": .object(object)]
    }
}
