import Foundation
import Testing
import RunusCore
import Storage

@Suite("Store conformance: one store shared by several threads")
struct ConcurrencyConformanceTests {
    static let batches = 30
    static let batchSize = 20

    @Test("4 reader threads see only whole committed batches, in order, while a writer inserts", arguments: StoreKind.allCases)
    func readersWhileWriting(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.upsertUser(Sample.user("u1"))
            let seen = Observations()
            let done = Flag()
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            for reader in 0..<4 {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    var last = 0, first = true
                    repeat {
                        do {
                            let runs = try store.allRuns(user: "u1")
                            if runs.count % Self.batchSize != 0 { seen.fail("reader \(reader): partial batch \(runs.count)") }
                            if runs.count < last { seen.fail("reader \(reader): count went back \(last) → \(runs.count)") }
                            if runs.map(\.startTime) != runs.map(\.startTime).sorted() { seen.fail("reader \(reader): out of order") }
                            last = runs.count
                            seen.add(runs.count)
                        } catch {
                            seen.fail("reader \(reader): \(error)")
                        }
                        if first { first = false; started.signal() }
                    } while !done.isSet
                }.start()
            }
            for _ in 0..<4 { started.wait() }  // every reader is running before the first write
            for batch in 0..<Self.batches {
                try store.transaction {
                    for i in 0..<Self.batchSize {
                        let n = batch * Self.batchSize + i
                        try store.insertRun(Sample.run("r\(n)", user: "u1", start: Double(n)))
                    }
                }
            }
            done.set()
            finished.wait()
            #expect(seen.failures == [])
            #expect(seen.values.count >= 4)
            #expect(try store.runCount() == Self.batches * Self.batchSize)
        }
    }

    @Test("threads writing different runners' transactions all commit, none lost", arguments: StoreKind.allCases)
    func disjointWriters(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let seen = Observations()
            onThreads(6) { t in
                do {
                    for k in 0..<10 {
                        try store.transaction {
                            let user = "u\(t)"
                            if try store.user(id: user) == nil { try store.upsertUser(Sample.user(user)) }
                            let xp = try store.rewards(user: user).reduce(0) { $0 + $1.xp }
                            try store.insertRun(Sample.run("r\(k)", user: user, start: Double(k)))
                            try store.insertReward(RewardEntry(userID: user, time: Double(k), xp: xp + 1, reason: "run", ref: "r\(k)"))
                        }
                    }
                } catch {
                    seen.fail("thread \(t): \(error)")
                }
            }
            #expect(seen.failures == [])
            let totals = try store.totals()
            #expect(totals.users == 6 && totals.runs == 60 && totals.rewards == 60)
            // Each award is the runner's total so far + 1: 1, 2, 4, 8, …, 512 → 1023 per runner,
            // which only holds if each transaction saw every earlier one of its runner.
            #expect(totals.xpSum == 6 * 1023)
        }
    }
}

/// A flag set once by one thread and read by others.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
