import Foundation
import RunusCore
import Engine
import Server
import Tracking
import TrackFormats

/// `runs.get`: one stored run of a user (docs/protocol.md).
extension DaemonOperations {
    func runsGet(_ request: Request) throws -> JSONValue {
        let user = try request.string("user")
        let runID = try request.string("run_id")
        guard !runID.isEmpty, runID.utf8.count <= 260 else {
            throw RequestError.badRequest("runs.get: parameter 'run_id' must be 1 to 260 bytes, got \(runID.utf8.count)")
        }
        guard let profile = try store.user(id: user) else { throw Self.unknownUser("runs.get", user) }
        // The id as `history` lists it: the client's id as sent to runs.ingest (record 0405).
        guard let run = try store.run(user: user, id: runID) else {
            throw RequestError.notFound("runs.get: user '\(user)' has no run '\(runID.prefix(260))'")
        }
        func r(_ x: Double, _ scale: Double = 10) -> JSONValue { .number((x * scale).rounded() / scale) }
        var splits: JSONValue = .null
        if let bytes = run.track {
            let track: Track
            do { track = try CompactTrackCodec.decode(bytes) } catch {
                throw RequestError(code: .internal, message: "runs.get: the stored track of run '\(run.id)' cannot be decoded: \(error)")
            }
            // The same computation runs.ingest answered with, so the splits are the same.
            let metrics = RunMetrics(track: track, weightKg: profile.weightKg)
            splits = .array(metrics.splits.map {
                ["index": .number(Double($0.index)), "distance_m": r($0.distance),
                 "duration_s": r($0.duration), "pace_s_per_km": r($0.pace)]
            })
        }
        return [
            "user": .string(user),
            "run": [
                "id": .string(run.id),
                "local_day": .string(profile.localDay(at: run.startTime, resolver: resolver).description),
                "start_time": .number(run.startTime),
                "distance_m": r(run.distance), "elapsed_s": r(run.elapsed), "moving_s": r(run.moving),
                "elevation_gain_m": r(run.elevationGain),
                "moving_pace_s_per_km": run.movingPace.map { r($0) } ?? .null,
                "calories_kcal": run.calories.map { r($0, 1) } ?? .null,
                "source": .string(run.source),
                "has_track": .bool(run.track != nil),
                "splits": splits,
            ],
        ]
    }
}
