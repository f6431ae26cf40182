#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with a condition variable on the monotonic clock: the pool's lock, and the
/// wait for a connection to come back, with a deadline.
final class PoolLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside `withLock`: releases the lock until `signal` or `deadline` (a `SocketWait.now()`
    /// value); false when the deadline passed.
    func wait(until deadline: Int64) -> Bool {
        let left = deadline - SocketWait.now()
        if left <= 0 { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = Int64(now.tv_nsec) + left % 1_000_000_000
        var until = timespec(tv_sec: now.tv_sec + Int(left / 1_000_000_000) + Int(total / 1_000_000_000),
                             tv_nsec: Int(total % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &until) == 0
    }

    /// Wakes every waiter (a connection came back, or the pool closed).
    func broadcast() { pthread_cond_broadcast(condition) }
}
