import Foundation
import Testing
import RunusCore
@testable import Storage

@Suite("Batches are fast enough for the simulator")
struct BatchInsertTests {
    /// Upper bound for 100k assignment inserts in one transaction in a debug build. Measured
    /// 1.35–1.6 s on the loaded 2-core build machine (docs/decisions/0404), once 15.6 s with
    /// five other builds running; the bound only catches a regression of the kind it guards
    /// against (a commit and fsync per row: 100k × 3.4 ms ≈ 340 s), not noise from other jobs.
    static let limitSeconds = 60.0

    @Test("100,000 assignments in one transaction into a file database")
    func hundredThousandAssignments() throws {
        try withTemporaryDatabasePath { path in
            let store = try SQLiteStore(path: path)
            try store.transaction { for u in 0..<100 { try store.upsertUser(Sample.user("u\(u)")) } }
            let count = 100_000
            // Built before the clock starts: the simulator hands over finished records too.
            let assignments = (0..<count).map { i in
                var a = Sample.assignment("a\(i)", user: "u\(i % 100)",
                                          day: Sample.day.adding(days: i / 500), offeredAt: Double(i))
                a.pTrue = 0.5
                return a
            }
            let cpuStart = threadCPUSeconds()
            let clock = ContinuousClock()
            let elapsed = try clock.measure {
                try store.transaction { for a in assignments { try store.insertAssignment(a) } }
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let cpu = threadCPUSeconds() - cpuStart
            print("storage: \(count) assignment inserts in one transaction took \(seconds) s wall, \(cpu) s CPU")
            #expect(try store.assignmentCount() == count)
            #expect(seconds < Self.limitSeconds)
            try store.close()
        }
    }
}

/// CPU time of the calling thread in seconds (less sensitive than wall time to other jobs on
/// the machine).
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
