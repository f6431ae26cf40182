/// Lets through the first `perWindow` lines of an event per window and counts the rest, so a
/// client cannot flood the log (record 0513: `auth_failed`). Pure state: the caller passes the
/// time and writes the lines.
///
///     var limiter = LogRateLimiter(perWindow: 10, windowNanoseconds: 1_000_000_000)
///     let (write, suppressed) = limiter.admit(now: t)   // suppressed: from an ended window
public struct LogRateLimiter: Sendable {
    /// Lines written per window, >= 1.
    let perWindow: Int
    /// Window length in nanoseconds, > 0.
    let windowNanoseconds: Int64
    private var windowStart: Int64?
    private var written = 0
    private var suppressed = 0

    public init(perWindow: Int, windowNanoseconds: Int64) {
        precondition(perWindow >= 1 && windowNanoseconds > 0, "LogRateLimiter needs perWindow >= 1 and a positive window")
        self.perWindow = perWindow
        self.windowNanoseconds = windowNanoseconds
    }

    /// One event at `now` (monotonic ns): whether to write its line, and how many lines the
    /// window that has just ended suppressed (0 if none, or if already reported by `flush`).
    public mutating func admit(now: Int64) -> (write: Bool, suppressedBefore: Int) {
        var report = 0
        if windowStart.map({ now - $0 >= windowNanoseconds }) ?? true {
            report = suppressed
            windowStart = now
            written = 0
            suppressed = 0
        }
        if written < perWindow {
            written += 1
            return (true, report)
        }
        suppressed += 1
        return (false, report)
    }

    /// The count of lines suppressed in a window that has ended by `now`, once; nil when there
    /// is nothing to report. Called periodically, so a burst's count is not held back until the
    /// next event.
    public mutating func flush(now: Int64) -> Int? {
        guard suppressed > 0, let windowStart, now - windowStart >= windowNanoseconds else { return nil }
        defer { suppressed = 0 }
        return suppressed
    }
}
