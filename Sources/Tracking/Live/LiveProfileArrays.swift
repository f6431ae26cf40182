import RunusCore

/// The decided profile: cleaned fixes of the run so far, and the splits finished on them. One
/// array of entries, so that a fix costs one append (one uniqueness and capacity check) and a
/// best effort finds a fix's time next to its distance (record 0167).
struct LiveProfileArrays: LiveSnapshotStorage, Sendable {
    var entries: [LiveProfileEntry] = []
    var splits: [Split] = []

    var count: Int { entries.count }
    func time(_ i: Int) -> EpochSeconds { entries[i].time }
    func distance(_ i: Int) -> Meters { entries[i].distance }
    mutating func append(time: EpochSeconds, distance: Meters, moving: Bool) {
        entries.append(LiveProfileEntry(time: time, distance: distance, moving: moving))
    }
    mutating func appendSplit(_ split: Split) { splits.append(split) }
    mutating func truncate(count n: Int, splits k: Int) {
        entries.removeLast(entries.count - n)
        splits.removeLast(splits.count - k)
    }

    func profile(count n: Int) -> DistanceProfile { Self.profile(entries.prefix(n)) }

    func withContiguousEntries<R>(_ body: (LiveProfileEntries) -> R) -> R? {
        entries.withUnsafeBufferPointer { body(LiveProfileEntries(entries: $0)) }
    }

    /// A batch profile of `entries`, in order.
    static func profile<C: Collection>(_ entries: C) -> DistanceProfile where C.Element == LiveProfileEntry {
        DistanceProfile(times: entries.map(\.time), distances: entries.map(\.distance), moving: entries.map(\.moving))
    }

    func splits(count n: Int) -> [Split] { Array(splits.prefix(n)) }

    /// Makes room for `extra` more entries, copying the array once if it is shared (a
    /// snapshot's contiguous copy of the decided profile, `LiveTracker.copiesHistory`).
    mutating func reserve(extra: Int) {
        entries.reserveCapacity(entries.count + extra)
    }
}
