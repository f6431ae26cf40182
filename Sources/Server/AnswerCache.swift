import Synchronization

/// A bounded in-memory cache of computed answers, safe across event loops, with invalidation
/// that cannot lose a race against the computation it invalidates (decision 0520).
///
/// Values are grouped by an owner (`Group`, e.g. a user): invalidation works on a group, and a
/// group's values live in one of `shardCount` shards, each behind its own lock (two loops rarely
/// touch the same shard at once). Each shard keeps at most `maximumGroups / shardCount` groups,
/// evicting the least recently used quarter when full; a group keeps at most
/// `maximumValuesPerGroup` values (all are dropped when a new one would exceed it).
///
/// The protocol for a computed value:
/// 1. `lookup` returns the value or a `Ticket` (taken *before* the source of truth is read);
/// 2. on a miss, compute the value from the source of truth;
/// 3. `store(…, ticket:)` keeps it only if the group was not invalidated (or evicted) since the
///    ticket was taken.
/// Writers call `invalidate` *after* their write is durable. A reader that read before the
/// write either stores before the invalidation (and is removed by it) or after (and is refused),
/// so a stale value never outlives an acknowledged write.
public final class AnswerCache<Group: Hashable & Sendable, Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Proof of when a lookup happened: the group's incarnation at that moment.
    public struct Ticket: Sendable, Equatable {
        let generation: UInt64
    }

    struct Entry {
        var values: [Key: Value] = [:]
        /// Unique per shard across incarnations and invalidations; tickets compare against it.
        var generation: UInt64
        /// Shard clock reading at the last use, for LRU eviction.
        var lastUsed: UInt64
    }

    struct Shard {
        var groups: [Group: Entry] = [:]
        var clock: UInt64 = 0
        var generations: UInt64 = 0
    }

    final class ShardBox: Sendable {
        let state = Mutex(Shard())
    }

    private let shards: [ShardBox]
    private let groupsPerShard: Int
    /// Values kept per group, >= 1.
    public let maximumValuesPerGroup: Int
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)

    /// - Parameters:
    ///   - maximumGroups: groups kept in all, >= shardCount (rounded down to a multiple of it).
    ///   - maximumValuesPerGroup: values kept per group, >= 1.
    ///   - shardCount: number of locks, a power of two in 1...1024.
    public init(maximumGroups: Int = 100_000, maximumValuesPerGroup: Int = 16, shardCount: Int = 64) {
        precondition(shardCount > 0 && shardCount <= 1024 && shardCount & (shardCount - 1) == 0,
                     "AnswerCache: shardCount \(shardCount) must be a power of two in 1...1024")
        precondition(maximumGroups >= shardCount, "AnswerCache: maximumGroups \(maximumGroups) < shardCount \(shardCount)")
        precondition(maximumValuesPerGroup >= 1, "AnswerCache: maximumValuesPerGroup must be >= 1")
        shards = (0..<shardCount).map { _ in ShardBox() }
        groupsPerShard = maximumGroups / shardCount
        self.maximumValuesPerGroup = maximumValuesPerGroup
    }

    private func shard(_ group: Group) -> ShardBox {
        shards[group.hashValue & (shards.count - 1)]
    }

    /// The cached value for (`group`, `key`), and a ticket for storing a computed one.
    public func lookup(_ group: Group, _ key: Key) -> (value: Value?, ticket: Ticket) {
        let (value, ticket): (Value?, Ticket) = shard(group).state.withLock { shard in
            shard.clock &+= 1
            let now = shard.clock
            if shard.groups[group] != nil {
                shard.groups[group]!.lastUsed = now
                let entry = shard.groups[group]!
                return (entry.values[key], Ticket(generation: entry.generation))
            }
            if shard.groups.count >= groupsPerShard { Self.evictLeastRecentlyUsed(&shard, keeping: groupsPerShard * 3 / 4) }
            shard.generations &+= 1
            shard.groups[group] = Entry(generation: shard.generations, lastUsed: now)
            return (nil, Ticket(generation: shard.generations))
        }
        if value == nil { misses.add(1, ordering: .relaxed) } else { hits.add(1, ordering: .relaxed) }
        return (value, ticket)
    }

    /// Keeps `value` unless `group` was invalidated or evicted after `ticket` was taken.
    /// Returns whether it was kept.
    @discardableResult
    public func store(_ group: Group, _ key: Key, _ value: Value, ticket: Ticket) -> Bool {
        shard(group).state.withLock { shard in
            guard var entry = shard.groups.removeValue(forKey: group) else { return false }
            defer { shard.groups[group] = entry }
            guard entry.generation == ticket.generation else { return false }
            if entry.values[key] == nil, entry.values.count >= maximumValuesPerGroup { entry.values.removeAll() }
            entry.values[key] = value
            return true
        }
    }

    /// Drops `group`'s values for which `drop` is true (all by default) and refuses every
    /// ticket taken before this call. Call after the write that changes them is durable.
    public func invalidate(_ group: Group, where drop: (Key) -> Bool = { _ in true }) {
        shard(group).state.withLock { shard in
            guard var entry = shard.groups.removeValue(forKey: group) else { return }
            entry.values = entry.values.filter { !drop($0.key) }
            shard.generations &+= 1
            entry.generation = shard.generations
            shard.groups[group] = entry
        }
    }

    /// Drops everything and refuses every ticket taken before this call.
    public func invalidateAll() {
        for box in shards { box.state.withLock { $0.groups.removeAll() } }
    }

    /// Lookups that found a value, and lookups that did not, since start.
    public var counts: (hits: Int, misses: Int) {
        (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed))
    }

    /// Groups currently held, over all shards.
    public var groupCount: Int {
        shards.reduce(0) { total, box in total + box.state.withLock { $0.groups.count } }
    }

    /// Keeps the `keeping` most recently used groups. O(n log n), run once per n/4 new groups.
    private static func evictLeastRecentlyUsed(_ shard: inout Shard, keeping: Int) {
        let byUse = shard.groups.map { ($0.key, $0.value.lastUsed) }.sorted { $0.1 > $1.1 }
        for (group, _) in byUse.dropFirst(keeping) { shard.groups.removeValue(forKey: group) }
    }
}
