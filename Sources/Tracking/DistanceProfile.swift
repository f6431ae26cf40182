import RunusCore

/// Cumulative distance against time for a cleaned run: `times` strictly increasing,
/// `distances` non-decreasing (flat while auto-paused). Lookups interpolate linearly.
public struct DistanceProfile: Sendable {
    /// Instants of the cleaned fixes, Unix seconds, strictly increasing.
    public let times: [EpochSeconds]
    /// Cumulative distance at each instant in metres, starting at 0, non-decreasing.
    public let distances: [Meters]
    /// `moving[i]` tells whether the segment ending at fix `i` counts as moving (auto-pause,
    /// record 0102); `moving[0]` is false. `nil` when unknown (every segment treated as moving).
    public let moving: [Bool]?

    public init(times: [EpochSeconds], distances: [Meters], moving: [Bool]? = nil) {
        precondition(times.count == distances.count && (moving == nil || moving!.count == times.count),
                     "DistanceProfile: times, distances and moving must have equal lengths")
        for i in times.indices.dropFirst() {
            precondition(times[i] > times[i - 1] && distances[i] >= distances[i - 1],
                         "DistanceProfile: not monotone at index \(i)")
        }
        self.times = times
        self.distances = distances
        self.moving = moving
    }

    /// Total distance in metres (0 when empty).
    public var totalDistance: Meters { distances.last ?? 0 }

    /// Earliest instant at which the cumulative distance reaches `d` metres, interpolated;
    /// `nil` when `d` is negative or beyond the total.
    public func time(atDistance d: Meters) -> EpochSeconds? {
        guard let first = distances.first, d >= 0, d <= totalDistance else { return nil }
        if d <= first { return times[0] }
        let j = firstIndex(reaching: d)              // distances[j-1] < d <= distances[j]
        return interpolateTime(from: j - 1, to: j, distance: d)
    }

    /// Cumulative distance in metres at instant `t`, interpolated; clamped to 0 before the
    /// start and to the total after the end (0 for an empty profile).
    public func distance(atTime t: EpochSeconds) -> Meters {
        guard let t0 = times.first else { return 0 }
        if t <= t0 { return distances[0] }
        if t >= times[times.count - 1] { return totalDistance }
        var lo = 0, hi = times.count - 1             // times[lo] < t < times[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid } else { hi = mid }
        }
        let w = (t - times[lo]) / (times[hi] - times[lo])
        return distances[lo] + w * (distances[hi] - distances[lo])
    }

    /// Shortest elapsed time in seconds to cover `d` metres (> 0) anywhere in the run (the
    /// "best effort"), with pauses inside the window counted. `nil` if the run is shorter.
    /// Duration as a function of the start distance x is piecewise linear with breaks where
    /// x or x + d meets a fix, so the minimum sits at one of those: two pointers, O(n).
    public func fastestDuration(covering d: Meters) -> Seconds? {
        precondition(d > 0, "fastestDuration: distance must be positive, got \(d)")
        let n = distances.count
        guard n >= 2, totalDistance >= d else { return nil }
        var best = Double.infinity
        // Windows starting at fix i (leaving as late as possible: later fixes at the same
        // distance are also tried), ending at the earliest instant reaching x_i + d.
        var j = 1
        for i in 0..<n {
            let target = distances[i] + d
            if target > totalDistance { break }
            if j <= i { j = i + 1 }
            while distances[j] < target { j += 1 }
            let end = interpolateTime(from: j - 1, to: j, distance: target)
            best = min(best, end - times[i])
        }
        // Windows ending at fix j, starting at the latest instant still at x_j − d.
        var k = 0
        for j in 0..<n {
            let target = distances[j] - d
            if target < distances[0] { continue }
            while k + 1 < n && distances[k + 1] <= target { k += 1 }
            let start = k + 1 < n && k + 1 <= j
                ? interpolateTime(from: k, to: k + 1, distance: target) : times[k]
            best = min(best, times[j] - start)
        }
        return best
    }

    /// Moving time in seconds between two cumulative distances (metres, from ≤ to), counting
    /// only segments flagged moving (all segments when `moving` is nil); segments cut by a
    /// bound count in proportion to their distance. A segment that adds no distance counts no
    /// time when `moving` is nil (a flat stretch is a stop); when it is flagged moving (a fix
    /// inside the jitter radius, record 0150) it counts where it sits: in [a, b), or at b when b
    /// is the total, so consecutive ranges add up to the whole moving time.
    public func movingDuration(from a: Meters, to b: Meters) -> Seconds {
        precondition(a <= b, "movingDuration: from \(a) is after to \(b)")
        var total: Seconds = 0
        for i in distances.indices.dropFirst() {
            if let moving, !moving[i] { continue }
            let d0 = distances[i - 1], d1 = distances[i]
            guard d1 > d0 else {
                if moving != nil && d0 >= a && (d0 < b || d0 == totalDistance && b == totalDistance) { total += times[i] - times[i - 1] }
                continue
            }
            let overlap = min(b, d1) - max(a, d0)
            if overlap > 0 { total += (times[i] - times[i - 1]) * overlap / (d1 - d0) }
        }
        return total
    }

    /// `movingDuration` of each range [bounds[r], bounds[r + 1]] in one pass over the profile
    /// (splits: one call per split was O(fixes × splits), and a mutated file with a
    /// 20,000 km "track" hung, found by the fuzzing campaign). `bounds` ascending. Each range
    /// receives the same terms in the same order as its own `movingDuration` call, so the
    /// results are bit for bit the same.
    public func movingDurations(between bounds: [Meters]) -> [Seconds] {
        let k = bounds.count - 1
        guard k > 0 else { return [] }
        var out = [Seconds](repeating: 0, count: k)
        var j = 0  // no range before j can receive anything from here on
        for i in distances.indices.dropFirst() {
            if let moving, !moving[i] { continue }
            let d0 = distances[i - 1], d1 = distances[i], dt = times[i] - times[i - 1]
            if d1 > d0 {
                while j < k && bounds[j + 1] <= d0 { j += 1 }
                var r = j
                while r < k && bounds[r] < d1 {
                    let overlap = min(bounds[r + 1], d1) - max(bounds[r], d0)
                    if overlap > 0 { out[r] += dt * overlap / (d1 - d0) }
                    r += 1
                }
            } else if moving != nil {
                while j < k && bounds[j + 1] < d0 { j += 1 }
                var r = j
                while r < k && bounds[r] <= d0 {
                    let b = bounds[r + 1]
                    if d0 < b || d0 == totalDistance && b == totalDistance { out[r] += dt }
                    r += 1
                }
            }
        }
        return out
    }

    /// Smallest j with distances[j] >= d (requires distances[0] < d <= total).
    private func firstIndex(reaching d: Meters) -> Int {
        var lo = 0, hi = distances.count - 1         // distances[lo] < d <= distances[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if distances[mid] < d { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// Time at distance `d` on segment i→j (distances[i] < d <= distances[j] or a flat pair).
    private func interpolateTime(from i: Int, to j: Int, distance d: Meters) -> EpochSeconds {
        let span = distances[j] - distances[i]
        if span <= 0 { return times[i] }
        return times[i] + (times[j] - times[i]) * (d - distances[i]) / span
    }
}
