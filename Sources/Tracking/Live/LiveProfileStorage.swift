import RunusCore

/// Where the accumulator keeps the distance profile and the finished splits: the tracker's own
/// arrays, or, for a snapshot, those arrays read-only plus a small overlay for the undecided
/// tail (so a snapshot never copies the history).
protocol LiveProfileStorage: LiveProfileReader {
    mutating func append(time: EpochSeconds, distance: Meters, moving: Bool)
    mutating func appendSplit(_ split: Split)
    /// Keeps the first `count` entries and the first `splits` splits.
    mutating func truncate(count: Int, splits: Int)
    /// Profile entries the best efforts of totals written here may wait for before they are
    /// advanced over them, ≥ 1 (record 0167).
    static var effortBatch: Int { get }
    /// `body` on the entries as one contiguous buffer, when the storage keeps them so (nil
    /// otherwise): the best efforts then read them without a bounds check per entry.
    func withContiguousEntries<R>(_ body: (LiveProfileEntries) -> R) -> R?
}

/// What the best efforts read of a profile: its length and each entry's time and distance.
protocol LiveProfileReader {
    var count: Int { get }
    func time(_ i: Int) -> EpochSeconds
    func distance(_ i: Int) -> Meters
}

/// Profile entries read in place, for the best efforts' loops (record 0170). Unchecked reads:
/// the efforts' pointers stay below `count`, which `LiveBestEffort.advance` is given and which
/// is at most the buffer's length (`LiveTotals.advanceEfforts` checks it once per batch).
struct LiveProfileEntries: LiveProfileReader {
    let entries: UnsafeBufferPointer<LiveProfileEntry>
    var count: Int { entries.count }
    @inline(__always) func time(_ i: Int) -> EpochSeconds { entries[i].time }
    @inline(__always) func distance(_ i: Int) -> Meters { entries[i].distance }
}

extension LiveProfileStorage {
    /// 32 entries: the batch's overhead per effort (its pointers and minimum loaded and stored)
    /// is then a small part of a fix's work, and a replayed snapshot, which replays the tail
    /// (hundreds of fixes), finishes at most 31 more entries per effort.
    static var effortBatch: Int { 32 }
    func withContiguousEntries<R>(_ body: (LiveProfileEntries) -> R) -> R? { nil }
}

/// A storage a replayed snapshot can read its record back from.
protocol LiveSnapshotStorage: LiveProfileStorage {
    /// The first `count` profile entries, as a batch profile.
    func profile(count: Int) -> DistanceProfile
    /// The first `count` splits.
    func splits(count: Int) -> [Split]
}

/// One entry of the distance profile: a cleaned fix's time (Unix seconds), the cumulative
/// distance there (m) and whether the segment ending there was moving.
struct LiveProfileEntry: Sendable, Equatable {
    var time: EpochSeconds
    var distance: Meters
    var moving: Bool
}
