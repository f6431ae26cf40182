import RunusCore
import Tracking
import TrackFormats
import Missions

extension RunDigests {
    /// What `refresh` found for a runner's stored runs, and what it wrote.
    public struct RefreshCounts: Sendable, Equatable {
        /// Runs read.
        public var runs = 0
        /// Digests kept in the current form for the run as stored: left as they are.
        public var current = 0
        /// Digests kept in an older form (codec version 1: surges unknown, record 0658):
        /// computed again from the track.
        public var upgraded = 0
        /// Runs with no digest kept, one kept for other totals, or bytes this version does not
        /// read: computed from the track.
        public var computed = 0
        /// Of `upgraded` and `computed`, runs without a usable track: kept as "no digest".
        public var withoutTrack = 0

        public init() {}

        public static func + (a: Self, b: Self) -> Self {
            var c = a
            c.runs += b.runs; c.current += b.current; c.upgraded += b.upgraded
            c.computed += b.computed; c.withoutTrack += b.withoutTrack
            return c
        }
    }

    /// Brings the digests kept for `user`'s stored runs to the current codec (record 0661): a
    /// digest of an older version, one missing, one kept for other totals, or bytes that do not
    /// decode is computed again from the run's track and kept, as a daemon would compute it at
    /// the runner's next request (except that a daemon keeps a version-1 digest as it is). Reads
    /// a track only for such runs, and writes `batch` digests at a time; running it again
    /// finds every digest current. A daemon's `RunDigestCache` keeps what it read before:
    /// restart it (or let its cache start over) to read the new digests.
    public static func refresh(user: UserID, store: any RunStore, batch: Int = 256) throws -> RefreshCounts {
        var counts = RefreshCounts()
        let runs = try store.runs(user: user, from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude)
        counts.runs = runs.count
        var kept: [ExactText: StoredRunDigest] = [:]
        for digest in try store.runDigests(user: user) { kept[ExactText(digest.runID)] = digest }
        var pending: [StoredRunDigest] = []
        for record in runs {
            let old = kept[ExactText(record.id)].flatMap { $0.matches(record) ? RunDigestCodec.decode($0.bytes) : nil }
            switch old {
            case .some(.some(let digest)) where digest.surges == nil:
                counts.upgraded += 1
            case .some:
                counts.current += 1
                continue
            case .none:
                counts.computed += 1
            }
            let digest = Self.digest(track: try store.run(user: record.userID, id: record.id)?.track)
            if digest == nil { counts.withoutTrack += 1 }
            pending.append(StoredRunDigest(userID: record.userID, runID: record.id, start: record.startTime,
                                           distance: record.distance, bytes: RunDigestCodec.encode(digest)))
            if pending.count >= max(1, batch) {
                try store.storeRunDigests(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        if !pending.isEmpty { try store.storeRunDigests(pending) }
        return counts
    }
}
