import Dispatch
import Synchronization

/// A fixed set of threads running offloaded requests in submission order (FIFO start).
/// Dedicated threads rather than a Dispatch queue: libdispatch on Linux grows its shared pool
/// slowly while its threads are blocked elsewhere in the process, and an offloaded request
/// then waited over 10 s in a test run (decision 0510).
final class WorkerPool: Sendable {
    private struct Job: @unchecked Sendable { let body: () -> Void }
    private let jobs = Mutex<[Job]>([])
    private let available = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Threads, 1...Int.max.
    let threadCount: Int

    init(threads: Int) {
        precondition(threads > 0, "a worker pool needs at least one thread, got \(threads)")
        threadCount = threads
        for _ in 0..<threads { Sys.spawnThread { [self] in work() } }
    }

    /// Queues `job`; some pool thread runs it soon. Thread-safe.
    func async(_ job: @escaping () -> Void) {
        let wrapped = Job(body: job)
        jobs.withLock { $0.append(wrapped) }
        available.signal()
    }

    /// Lets the threads exit once the queue is empty.
    func shutdown() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        for _ in 0..<threadCount { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let job { job.body(); continue }
            if stopping.load(ordering: .sequentiallyConsistent) { return }
        }
    }
}
