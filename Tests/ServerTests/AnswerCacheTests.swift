import Foundation
import Testing
import Synchronization
@testable import Server

@Suite("AnswerCache")
struct AnswerCacheTests {
    @Test("a value computed before an invalidation is refused; one computed after is kept")
    func ticketAfterInvalidation() {
        let cache = AnswerCache<String, Int, String>(maximumGroups: 64, shardCount: 4)
        let (missing, early) = cache.lookup("ana", 1)
        #expect(missing == nil)
        cache.invalidate("ana")  // a write committed while "ana"'s answer was being computed
        #expect(cache.store("ana", 1, "stale", ticket: early) == false)
        #expect(cache.lookup("ana", 1).value == nil)
        let (_, late) = cache.lookup("ana", 1)
        #expect(cache.store("ana", 1, "fresh", ticket: late))
        #expect(cache.lookup("ana", 1).value == "fresh")
        // Another group's invalidation does not touch this one.
        cache.invalidate("bo")
        #expect(cache.lookup("ana", 1).value == "fresh")
        cache.invalidateAll()
        #expect(cache.lookup("ana", 1).value == nil)
        #expect(cache.store("ana", 1, "stale", ticket: late) == false)
    }

    @Test("a partial invalidation keeps the values it spares but refuses older tickets")
    func partialInvalidation() {
        let cache = AnswerCache<String, Int, String>(maximumGroups: 64, shardCount: 4)
        for key in 0..<4 { cache.store("ana", key, "v\(key)", ticket: cache.lookup("ana", key).ticket) }
        let pending = cache.lookup("ana", 9).ticket
        cache.invalidate("ana") { $0 >= 2 }
        #expect((0..<4).map { cache.lookup("ana", $0).value } == ["v0", "v1", nil, nil])
        #expect(cache.store("ana", 9, "stale", ticket: pending) == false)
    }

    @Test("groups are bounded (least recently used go first) and so are values per group")
    func bounds() {
        let cache = AnswerCache<Int, Int, Int>(maximumGroups: 16, maximumValuesPerGroup: 3, shardCount: 1)
        for g in 0..<16 { cache.store(g, 0, g, ticket: cache.lookup(g, 0).ticket) }
        _ = cache.lookup(0, 0)  // group 0 is now the most recently used
        cache.store(16, 0, 16, ticket: cache.lookup(16, 0).ticket)  // full: a quarter goes
        #expect(cache.groupCount <= 16)
        #expect(cache.lookup(0, 0).value == 0, "the most recently used group was evicted")
        #expect(cache.lookup(16, 0).value == 16)
        #expect(cache.lookup(1, 0).value == nil, "the least recently used group survived")
        for key in 0..<3 { cache.store(99, key, key, ticket: cache.lookup(99, key).ticket) }
        cache.store(99, 3, 3, ticket: cache.lookup(99, 3).ticket)
        #expect((0..<4).compactMap { cache.lookup(99, $0).value } == [3])
    }

    /// Oracle: per group, a version number is the source of truth. Writers bump it, invalidate,
    /// then publish it as acknowledged. A reader that saw acknowledgement `a` before its lookup
    /// must never get a value older than `a`, whatever the interleaving.
    @Test("under concurrent readers and writers no value older than an acknowledged write is served")
    func noStaleAfterAcknowledgement() {
        let groups = 8
        let cache = AnswerCache<Int, Int, Int>(maximumGroups: 64, maximumValuesPerGroup: 2, shardCount: 4)
        final class Counter: Sendable { let value = Atomic<Int>(0) }
        let truth = (0..<groups).map { _ in Counter() }
        let acknowledged = (0..<groups).map { _ in Counter() }
        let stale = Atomic<Int>(0), hits = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            var rng = SystemRandomNumberGenerator()
            for i in 0..<20_000 {
                let g = Int.random(in: 0..<groups, using: &rng)
                if worker == 0, i % 5 == 0 {
                    let v = truth[g].value.add(1, ordering: .sequentiallyConsistent).newValue
                    cache.invalidate(g)
                    acknowledged[g].value.store(v, ordering: .sequentiallyConsistent)
                    continue
                }
                let a = acknowledged[g].value.load(ordering: .sequentiallyConsistent)
                let (value, ticket) = cache.lookup(g, 0)
                let served: Int
                if let value { served = value; hits.add(1, ordering: .relaxed) } else {
                    served = truth[g].value.load(ordering: .sequentiallyConsistent)
                    cache.store(g, 0, served, ticket: ticket)
                }
                if served < a { stale.add(1, ordering: .relaxed) }
            }
        }
        #expect(stale.load(ordering: .relaxed) == 0)
        #expect(hits.load(ordering: .relaxed) > 0, "the cache never hit: the test exercised nothing")
    }
}
