import RunusCore

/// When the pool may open a connection to a server that may be down: a pure state machine
/// (events in, an action out, no I/O; the pool executes the actions), so the backoff is tested
/// one event at a time with made-up times.
///
/// While the server answers, connections open freely. After a failed connect the pool backs
/// off: requests fail at once with the last reason until `delay(failures)` has passed, then one
/// request probes (tries to connect) while the others keep failing fast, so an outage costs
/// each request microseconds instead of a connect timeout, and the server is not stormed when
/// it returns. Delays double from `firstDelay` to `maximumDelay` (record 0406).
struct ReconnectStateMachine: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Connects are allowed.
        case healthy
        /// The last connect failed; the next is allowed at `retryAt` (monotonic ns).
        case backingOff(failures: Int, retryAt: Int64, reason: String)
        /// One connect is under way after `failures` failed ones.
        case probing(failures: Int, reason: String)
    }

    enum Action: Sendable, Equatable {
        /// Open a connection, then report `connected()` or `connectFailed(…)`.
        case connect
        /// Fail the request now: the server was unreachable (`reason`); the next connect is
        /// allowed in `retryIn` seconds (0: another request is trying now).
        case failFast(reason: String, retryIn: Double)
    }

    /// Seconds before the first retry, and the cap of the doubling.
    let firstDelay: Double
    let maximumDelay: Double
    private(set) var state: State = .healthy

    init(firstDelay: Double = 0.1, maximumDelay: Double = 5) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// Seconds to wait after `failures` (≥ 1) failed connects in a row.
    func delay(failures: Int) -> Double {
        var delay = firstDelay
        for _ in 1..<max(1, min(failures, 64)) where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }

    /// A request needs a new connection at `now` (monotonic ns).
    mutating func connectionWanted(now: Int64) -> Action {
        switch state {
        case .healthy:
            return .connect
        case let .backingOff(failures, retryAt, reason):
            if now >= retryAt {
                state = .probing(failures: failures, reason: reason)
                return .connect
            }
            return .failFast(reason: reason, retryIn: Double(retryAt - now) / 1e9)
        case let .probing(_, reason):
            return .failFast(reason: reason, retryIn: 0)
        }
    }

    /// A connect succeeded: the server is back.
    mutating func connected() {
        state = .healthy
    }

    /// A connect failed at `now` with `reason`.
    mutating func connectFailed(now: Int64, reason: String) {
        switch state {
        case .healthy:
            state = .backingOff(failures: 1, retryAt: now + nanoseconds(delay(failures: 1)), reason: reason)
        case let .probing(failures, _):
            state = .backingOff(failures: failures + 1, retryAt: now + nanoseconds(delay(failures: failures + 1)), reason: reason)
        case let .backingOff(failures, retryAt, _):
            // Another connect, started while the server still looked healthy, failed too: the
            // same outage, so the delay does not grow.
            state = .backingOff(failures: failures, retryAt: retryAt, reason: reason)
        }
    }

    private func nanoseconds(_ seconds: Double) -> Int64 { Int64(Int(saturating: (seconds * 1e9).rounded())) }
}
