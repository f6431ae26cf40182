#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// The monotonic clock and waits on libpq's socket: the only system calls this module makes
/// itself (libpq owns the socket and does all reading and writing). Every wait has a deadline,
/// which is how a request to a server that stopped answering fails instead of hanging
/// (record 0406).
enum SocketWait {
    /// Now on the monotonic clock, nanoseconds.
    static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    /// The deadline `seconds` from now (clamped to a day, so nothing overflows).
    static func deadline(after seconds: Double) -> Int64 {
        now() + Int64(Int(saturating: min(max(seconds, 0), 86_400) * 1e9))
    }

    enum Outcome: Equatable {
        case ready
        case timedOut
        case failed(String)
    }

    /// Waits until `socket` is readable (`reading`) or writable (`writing`), or `deadline` (a
    /// `now()` value) passes. Interrupted waits resume with the time left.
    static func wait(_ socket: Int32, reading: Bool, writing: Bool, until deadline: Int64) -> Outcome {
        guard socket >= 0 else { return .failed("libpq has no socket") }
        var events: Int16 = 0
        if reading { events |= Int16(POLLIN) }
        if writing { events |= Int16(POLLOUT) }
        while true {
            let left = deadline - now()
            if left <= 0 { return .timedOut }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            // Round up so that a wait never ends just before the deadline and spins.
            let milliseconds = Int32(min((left + 999_999) / 1_000_000, Int64(Int32.max)))
            let rc = poll(&descriptor, 1, milliseconds)
            if rc > 0 { return .ready }  // readable, writable, or hung up: libpq finds out which
            if rc == 0 { continue }      // the loop checks the deadline
            if errno == EINTR { continue }
            return .failed("poll: \(String(cString: strerror(errno)))")
        }
    }

    /// Sleeps `seconds` (a retry's backoff).
    static func sleep(seconds: Double) {
        let nanoseconds = Int(saturating: min(max(seconds, 0), 86_400) * 1e9)
        var request = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
