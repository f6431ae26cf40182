import RunusCore

/// Auto-pause with hysteresis on a smoothed speed (records 0102, 0151), one fix at a time, for
/// batch metrics and a live tracker alike.
///
/// Segment s runs from fix s−1 to fix s. Its speed is the straight-line displacement across a
/// window made of the segment and at least `halfWidth` seconds of fixes on each side, divided by
/// the window's duration: one noisy or repeated fix cannot pause a run, standing still reads
/// about (GPS wander ÷ window) however the fixes scatter, and a long gap (a dropout) is judged
/// by its own average speed. A hairpin turn reads slow for a second or two. While moving, a speed below `pauseSpeed` pauses; while
/// paused, a speed above `resumeSpeed` resumes; a run starts moving.
///
/// Lookahead: segment s is decided once a fix at least `halfWidth` seconds after fix s has
/// arrived. `pendingFlags` gives the undecided tail as if the track ended at the last fix
/// (its window cut there), which is what the batch computation does on the same prefix.
/// Memory: the fixes of the current window only (amortised O(1) time per fix).
public struct AutoPause: Sendable {
    public let pauseSpeed: Double, resumeSpeed: Double
    /// Seconds of fixes on each side of a segment in its speed window, ≥ 0.
    public let halfWidth: Seconds
    /// Fixes `base…` (one array, one append per fix).
    private var fixes: [Fix] = []
    /// A fix's time (Unix seconds) and position, with the window speed a caller gave for it.
    private struct Fix: Sendable {
        var time: EpochSeconds
        /// Degrees.
        var latitude: Double, longitude: Double
        /// The window speed (m/s) the caller passed for the segment ending here (NaN: computed
        /// here), see `append(_:windowedSpeed:into:)`.
        var known: Double
    }
    private var base = 0
    /// The next undecided segment and its window pointers, global fix indices.
    private var next = 1, windowStart = 0, windowEnd = 0
    /// State after the decided segments.
    private var moving = true
    /// Fixes appended so far.
    public private(set) var count = 0
    /// `trim` runs once the storage holds this many fixes.
    private var trimCheck = AutoPause.firstTrimCheck

    public init(pauseSpeed: Double, resumeSpeed: Double, halfWidth: Seconds) {
        precondition(pauseSpeed >= 0 && resumeSpeed >= pauseSpeed && halfWidth >= 0,
                     "AutoPause: need 0 <= pauseSpeed <= resumeSpeed and halfWidth >= 0")
        self.pauseSpeed = pauseSpeed
        self.resumeSpeed = resumeSpeed
        self.halfWidth = halfWidth
    }

    public init(configuration: MetricsConfiguration) {
        self.init(pauseSpeed: configuration.pauseSpeed, resumeSpeed: configuration.resumeSpeed,
                  halfWidth: configuration.pauseWindowHalfWidth)
    }

    /// Index of the first segment not yet decided (segments 1..<decidedThrough are settled).
    public var decidedThrough: Int { next }

    /// Adds the next cleaned fix (its time after the previous one's). Returns the moving flags of
    /// the segments this fix settled, in order, starting at the previous `decidedThrough`.
    @discardableResult
    public mutating func append(_ p: TrackPoint) -> [Bool] {
        var settled: [Bool] = []
        append(p, into: &settled)
        return settled
    }

    /// `append(_:)` appending the settled flags to `settled` instead of returning them (no
    /// allocation per fix for a caller that reuses its array).
    public mutating func append(_ p: TrackPoint, into settled: inout [Bool]) {
        append(p, windowedSpeed: .nan, into: &settled)
    }

    /// `append(_:into:)` given `windowedSpeed`, the speed in m/s this filter's window will give
    /// `p`'s segment once complete (the straight-line speed from the window's first fix to its
    /// last, `Track.speed`), when the caller already has it (the vehicle stage's windowed speed on
    /// the same fixes with the same half-width, record 0162), else NaN. Used for that segment's
    /// flag instead of computing it again, never for `pendingFlags` (whose windows are cut).
    public mutating func append(_ p: TrackPoint, windowedSpeed: Double, into settled: inout [Bool]) {
        let t = p.time
        precondition(fixes.last.map { t > $0.time } ?? true, "AutoPause: times must increase, got \(t)")
        fixes.append(Fix(time: t, latitude: p.latitude, longitude: p.longitude, known: windowedSpeed))
        count += 1
        while next < count, t - time(next) >= halfWidth {
            let known = fixes[next - base].known
            if known.isNaN {
                // The end of segment s's window is the first fix ≥ s that far after it, whatever
                // the pointer was (it may be behind `base` when it was last moved long ago).
                windowEnd = max(windowEnd, next)
                while time(windowEnd) - time(next) < halfWidth { windowEnd += 1 }
                settled.append(step(&moving, segment: next, windowStart: &windowStart, windowEnd: windowEnd, known: known))
            } else {
                // The window's speed is given: its pointers are not needed now, and catch up when
                // they are (`trim`, an unknown speed, `pendingFlags`), moving as they would have.
                settled.append(hysteresis(&moving, speed: known))
            }
            next += 1
        }
        if fixes.count >= trimCheck { trim() }
    }

    /// Moving flags of the undecided segments `decidedThrough..<count`, their windows cut at the
    /// last fix.
    public func pendingFlags() -> [Bool] {
        var state = moving, start = windowStart
        return (next..<max(next, count)).map { s in
            step(&state, segment: s, windowStart: &start, windowEnd: count - 1, known: .nan)
        }
    }

    /// Moving flags of every segment of a cleaned track (element 0 is false): the batch form.
    public static func flags(_ points: [TrackPoint], configuration: MetricsConfiguration) -> [Bool] {
        var pause = AutoPause(configuration: configuration)
        var flags = points.isEmpty ? [] : [false]
        for p in points { flags += pause.append(p) }
        return flags + pause.pendingFlags()
    }

    /// Advances the window start for segment `s` and the hysteresis state; returns the flag.
    /// `known`: the window's speed (m/s) when the caller gave it, else NaN.
    private func step(_ state: inout Bool, segment s: Int, windowStart j: inout Int, windowEnd k: Int,
                      known: Double) -> Bool {
        advanceStart(&j, segment: s)
        let speed: Double
        if !known.isNaN {
            speed = known
        } else {
            let a = fixes[j - base], b = fixes[k - base]
            speed = Geodesy.localDistance(latitude1: a.latitude, longitude1: a.longitude,
                                          latitude2: b.latitude, longitude2: b.longitude) / (b.time - a.time)
        }
        return hysteresis(&state, speed: speed)
    }

    /// The window start of segment `s` from an earlier segment's `j`: the pointer is monotone
    /// (the condition for s holds wherever it held for an earlier segment), so catching up late
    /// ends where moving it segment by segment would.
    @inline(__always) private func advanceStart(_ j: inout Int, segment s: Int) {
        while j + 1 <= s - 1 && time(s - 1) - time(j + 1) >= halfWidth { j += 1 }
    }

    /// The hysteresis on one window speed (m/s); returns the new state.
    @inline(__always) private func hysteresis(_ state: inout Bool, speed: Double) -> Bool {
        if state && speed < pauseSpeed { state = false } else if !state && speed > resumeSpeed { state = true }
        return state
    }

    private func time(_ i: Int) -> EpochSeconds { fixes[i - base].time }

    /// Drops fixes no window can reach again, once they are most of the storage: the window start
    /// of the last decided segment caught up first. Tried when the storage reaches `trimCheck`
    /// fixes, which then doubles past what is kept (amortised O(1) per fix).
    private mutating func trim() {
        if next >= 2 { advanceStart(&windowStart, segment: next - 1) }
        let drop = windowStart - base
        if drop >= 64, drop * 2 >= fixes.count {
            fixes.removeFirst(drop)
            base += drop
        }
        trimCheck = max(Self.firstTrimCheck, 2 * fixes.count)
    }

    /// Fixes stored before `trim` is first tried.
    private static let firstTrimCheck = 128
}
