import Foundation
import Testing
import RunusCore
@testable import Storage

/// Thread-safe box for what the threads observe.
final class Observations: @unchecked Sendable {
    private let lock = NSLock()
    private var _writerDone = false
    private var _failures: [String] = []
    private var _reads = 0

    var writerDone: Bool { lock.withLock { _writerDone } }
    var failures: [String] { lock.withLock { _failures } }
    var reads: Int { lock.withLock { _reads } }
    func finishWriter() { lock.withLock { _writerDone = true } }
    func fail(_ message: String) { lock.withLock { _failures.append(message) } }
    func countRead() { lock.withLock { _reads += 1 } }
}

@Suite("One store shared by several threads")
struct ConcurrencyTests {
    static let batches = 40
    static let batchSize = 25

    @Test("4 reader threads see only whole committed batches, in order, while a writer inserts")
    func readersWhileWriting() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            try store.upsertUser(Sample.user("u1"))
            let seen = Observations()
            let readersStarted = DispatchGroup()
            let finished = DispatchGroup()

            for reader in 0..<4 {
                readersStarted.enter()
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    var last = 0
                    var first = true
                    repeat {
                        do {
                            let runs = try store.allRuns(user: "u1")
                            let count = try store.runCount()
                            if runs.count % Self.batchSize != 0 { seen.fail("reader \(reader): partial batch \(runs.count)") }
                            if runs.count < last { seen.fail("reader \(reader): count went back \(last) → \(runs.count)") }
                            if count < runs.count { seen.fail("reader \(reader): runCount \(count) < \(runs.count)") }
                            if runs.map(\.startTime) != runs.map(\.startTime).sorted() {
                                seen.fail("reader \(reader): runs out of order")
                            }
                            last = runs.count
                            seen.countRead()
                        } catch {
                            seen.fail("reader \(reader): \(error)")
                        }
                        if first { first = false; readersStarted.leave() }
                    } while !seen.writerDone
                }.start()
            }

            finished.enter()
            Thread {
                defer { seen.finishWriter(); finished.leave() }
                readersStarted.wait()  // every reader is running before the first write
                do {
                    for batch in 0..<Self.batches {
                        try store.transaction {
                            for i in 0..<Self.batchSize {
                                let n = batch * Self.batchSize + i
                                try store.insertRun(Sample.run("r\(n)", user: "u1", start: Double(n)))
                            }
                        }
                    }
                } catch {
                    seen.fail("writer: \(error)")
                }
            }.start()

            finished.wait()
            #expect(seen.failures == [])
            #expect(seen.reads >= 4)
            #expect(try store.runCount() == Self.batches * Self.batchSize)
            try store.close()
        }
    }
}
