#if canImport(Glibc)
import Glibc
#endif
import CSysShims
import Synchronization

/// Something registered with an `EventLoop`: a listener, a connection, the wake-up counter.
protocol EventSource: AnyObject {
    /// Called on the loop thread with the epoll event bits that fired.
    func handle(events: UInt32)
}

enum EpollBits {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let hangUp = EPOLLHUP.rawValue
    static let error = EPOLLERR.rawValue
}

/// One epoll instance driven by one thread, plus an eventfd other threads (and signal
/// handlers) use to wake it. Level-triggered (docs/decisions/0500-reactor-level-triggered.md):
/// a source that leaves bytes unread is simply called again, which keeps backpressure logic
/// to "change the interest set".
///
/// Everything except `wakeUp()` and `execute` must be called on the loop thread. A server runs
/// N of these, each with its own thread and connections (`ConnectionLoop`).
final class EventLoop: @unchecked Sendable {
    private let epollFD: Int32
    /// The eventfd; -1 once closed. Guarded so `wakeUp()` never writes to a recycled number.
    private let wakeFD: Mutex<Int32>
    let rawWakeFD: Int32
    private var sources: [UInt64: EventSource] = [:]
    private var nextToken: UInt64 = 1
    private var events: UnsafeMutableBufferPointer<epoll_event>
    private var onWake: () -> Void = {}
    /// Closures other threads hand to this loop (`execute`), run on the loop thread.
    private let tasks = Mutex<[Task]>([])
    /// A closure handed to the loop; only ever run on the loop thread.
    private struct Task: @unchecked Sendable { let body: () -> Void }

    /// Events fetched per `epoll_wait`, 1...Int32.max (decision 0501).
    static let batchSize = 256
    private static let wakeToken: UInt64 = 0

    init() throws {
        epollFD = try Sys.epollCreate()
        let counter: Int32
        do { counter = try Sys.eventCounter() } catch { Sys.close(epollFD); throw error }
        rawWakeFD = counter
        wakeFD = Mutex(counter)
        events = .allocate(capacity: Self.batchSize)
        events.initialize(repeating: epoll_event())
        try Sys.epollControl(epollFD, EPOLL_CTL_ADD, counter, events: EpollBits.readable, token: Self.wakeToken)
    }

    deinit { events.deallocate() }

    /// Sets what runs on the loop thread after a `wakeUp()`.
    func setWakeHandler(_ handler: @escaping () -> Void) { onWake = handler }

    /// Thread-safe and cheap; a no-op after `close()`.
    func wakeUp() {
        wakeFD.withLock { fd in if fd >= 0 { Sys.signalCounter(fd) } }
    }

    /// Runs `task` on the loop thread soon (after the current batch of events). Thread-safe.
    /// Tasks run in the order they were handed over. A task given after `close()` never runs.
    func execute(_ task: @escaping () -> Void) {
        let wrapped = Task(body: task)
        tasks.withLock { $0.append(wrapped) }
        wakeUp()
    }

    /// Registers `fd`; returns the token that identifies it in `modify`/`remove`.
    @discardableResult
    func add(_ fd: Int32, events: UInt32, source: EventSource) throws -> UInt64 {
        let token = nextToken
        nextToken += 1
        try Sys.epollControl(epollFD, EPOLL_CTL_ADD, fd, events: events, token: token)
        sources[token] = source
        return token
    }

    func modify(_ fd: Int32, token: UInt64, events: UInt32) throws {
        try Sys.epollControl(epollFD, EPOLL_CTL_MOD, fd, events: events, token: token)
    }

    /// Forgets `fd`. Call before closing it. Events already fetched for the token are dropped
    /// (tokens are never reused, so a recycled descriptor number cannot get stale events).
    func remove(_ fd: Int32, token: UInt64) {
        _ = try? Sys.epollControl(epollFD, EPOLL_CTL_DEL, fd, events: 0, token: token)
        sources[token] = nil
    }

    /// Waits once and dispatches what fired.
    /// - Parameter timeoutMilliseconds: -1 waits until something happens.
    func runOnce(timeoutMilliseconds: Int32) throws {
        let count = try Sys.epollWait(epollFD, events, timeoutMilliseconds: timeoutMilliseconds)
        var woke = false
        for i in 0..<count {
            let event = events[i]
            let token = event.data.u64
            if token == Self.wakeToken {
                Sys.drainCounter(rawWakeFD)
                woke = true
                continue
            }
            sources[token]?.handle(events: event.events)
        }
        if woke {
            let due = tasks.withLock { tasks in
                let due = tasks
                tasks.removeAll()
                return due
            }
            for task in due { task.body() }
            onWake()
        }
    }

    func close() {
        wakeFD.withLock { fd in
            if fd >= 0 { Sys.close(fd) }
            fd = -1
        }
        Sys.close(epollFD)
        sources = [:]
    }
}
