#if canImport(Glibc)
import Glibc
#endif
import RunusCore

/// The wall clock (the only reader of the real time; pure code gets a `Clock`).
public struct SystemClock: Clock {
    public init() {}

    public func now() -> EpochSeconds {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
