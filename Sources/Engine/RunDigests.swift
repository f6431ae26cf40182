import Synchronization
import RunusCore
import Tracking
import TrackFormats
import Missions

/// Digests (`RunDigest`: best efforts and covered cells) of stored runs, read from their
/// tracks (record 0645). A run record keeps neither, so each digest costs a track read and a
/// decode; `RunDigestCache` keeps them in the daemon, so that a runner's track is decoded once
/// per daemon, not at every state it enters. A summary-only run, a row of older code without a
/// track, or a track this version cannot decode has no digest (left out, never a failure).
public enum RunDigests {
    /// The digest of one stored run's track bytes; nil when there are none or they do not decode.
    public static func digest(track bytes: [UInt8]?) -> RunDigest? {
        guard let bytes, let track = try? CompactTrackCodec.decode(bytes) else { return nil }
        return RunDigest(run: MissionRun(track: track))
    }

    /// The digest to keep for `run` as it is stored (record 0648), computed from its track bytes
    /// as a daemon's first read would compute it ("no digest" without a usable track). For
    /// writers that store many runs at once (`runus simulate`, `runus import`): a daemon then
    /// finds every runner's digests kept, instead of digesting a whole history on an event-loop
    /// thread at the runner's first request.
    public static func stored(for run: RunRecord) -> StoredRunDigest {
        StoredRunDigest(userID: run.userID, runID: run.id, start: run.startTime, distance: run.distance,
                        bytes: RunDigestCodec.encode(digest(track: run.track)))
    }

    /// The digests of `runs` (records as `runs(user:from:to:)` returns them, without tracks):
    /// from `cache`, else from the digests the store keeps (record 0648: one read for all the
    /// runs the cache lacks), else computed from the run's track, then kept in the store for
    /// the next daemon and in `cache`. A failure to keep them costs only a later recomputation,
    /// so it does not fail the read.
    public static func digests(of runs: [RunRecord], store: any RunStore, cache: RunDigestCache?) throws -> [RunDigest] {
        var found: [Int: RunDigest?] = [:]
        var missing: [Int] = []
        for (i, record) in runs.enumerated() {
            if let known = cache?.lookup(record) { found[i] = known.digest } else { missing.append(i) }
        }
        if !missing.isEmpty {
            // By the ids' bytes, as the store tells runners and runs apart (`ExactText`).
            var stored: [ExactText: [ExactText: StoredRunDigest]] = [:]
            for user in Set(missing.map { ExactText(runs[$0].userID) }) {
                stored[user] = Dictionary((try store.runDigests(user: user.text)).map { (ExactText($0.runID), $0) },
                                          uniquingKeysWith: { a, _ in a })
            }
            var computed: [StoredRunDigest] = []
            for i in missing {
                let record = runs[i]
                let digest: RunDigest?
                if let kept = stored[ExactText(record.userID)]?[ExactText(record.id)], kept.matches(record), let decoded = RunDigestCodec.decode(kept.bytes) {
                    digest = decoded
                } else {
                    var bytes = record.track
                    if bytes == nil { bytes = try store.run(user: record.userID, id: record.id)?.track }
                    digest = Self.digest(track: bytes)
                    computed.append(StoredRunDigest(userID: record.userID, runID: record.id, start: record.startTime,
                                                    distance: record.distance, bytes: RunDigestCodec.encode(digest)))
                }
                cache?.store(digest, for: record)
                found[i] = .some(digest)
            }
            try? store.storeRunDigests(computed)
        }
        return runs.indices.compactMap { found[$0] ?? nil }
    }
}

/// The daemon's digests of stored runs, by (runner, run id, start, distance), ids compared by
/// their bytes (`ExactText`, as the store compares them): a stored run never
/// changes under its key (ingestion is idempotent by id; a run re-stored with other totals has
/// another key). Bounded: past `capacity` entries it starts over (a miss only costs a decode).
public final class RunDigestCache: Sendable {
    struct Key: Hashable, Sendable {
        let user: ExactText
        let run: ExactText
        let start: EpochSeconds
        let distance: Meters
    }

    /// A looked-up entry: `digest` nil when the run has none (kept too, so it is not read again).
    public struct Entry: Sendable { public let digest: RunDigest? }

    private let entries = Mutex<[Key: Entry]>([:])
    public let capacity: Int

    /// - Parameter capacity: entries kept, ≥ 1 (a digest is a few hundred bytes to a few kB).
    public init(capacity: Int = 50_000) { self.capacity = max(1, capacity) }

    static func key(_ r: RunRecord) -> Key { Key(user: ExactText(r.userID), run: ExactText(r.id), start: r.startTime, distance: r.distance) }

    public func lookup(_ record: RunRecord) -> Entry? { entries.withLock { $0[Self.key(record)] } }

    public func store(_ digest: RunDigest?, for record: RunRecord) {
        entries.withLock { e in
            if e.count >= capacity { e.removeAll(keepingCapacity: true) }
            e[Self.key(record)] = Entry(digest: digest)
        }
    }

    public var count: Int { entries.withLock { $0.count } }
}
