import RunusCore
import Tracking
import TrackFormats

/// One stored run as `runs.get` shows it: the record, its local day and, when it has a track,
/// the splits and left-out parts `runs.ingest` answered with (recomputed from the stored track
/// by the same code; the record's own figures are read as stored).
public struct StoredRun: Sendable {
    public let run: RunRecord
    public let localDay: CivilDate
    /// Nil for a summary-only run.
    public let splits: [Split]?
    /// The parts of the track the record left out (`RunMetrics.excludedParts`); nil for a
    /// summary-only run.
    public let excluded: [ExcludedPart]?
    /// Where the distance comes from, as the stored track gives it again (record 0116):
    /// `.summary` for a run stored without a track.
    public let distanceSource: DistanceSource

    /// Reads `user`'s run `id`; throws `EngineError.unknownUser`, `.unknownRun`, or
    /// `.undecodableTrack` for a stored track this version cannot read.
    public static func read(user userID: UserID, id: String, store: any EngineStore,
                            resolver: any UTCOffsetResolver) throws -> StoredRun {
        guard let profile = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        guard let run = try store.run(user: userID, id: id) else { throw EngineError.unknownRun(user: userID, id: id) }
        var splits: [Split]?, excluded: [ExcludedPart]?
        var source = DistanceSource.summary
        if let bytes = run.track {
            let track: Track
            do { track = try CompactTrackCodec.decode(bytes) } catch {
                throw EngineError.undecodableTrack(user: userID, id: id, reason: "\(error)")
            }
            let metrics = RunMetrics(track: track, weightKg: profile.weightKg)
            splits = metrics.splits
            excluded = metrics.excludedParts
            source = metrics.distanceSource
        }
        return StoredRun(run: run, localDay: profile.localDay(at: run.startTime, resolver: resolver), splits: splits,
                         excluded: excluded, distanceSource: source)
    }
}
