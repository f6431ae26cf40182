import RunusCore

/// The device's own distance stream checked and laid over a run's kept fixes (record 0116).
///
/// A watch that samples its position every few seconds ("smart recording") still measures its
/// distance continuously (every GPS epoch, plus the accelerometer); the chord between two sparse
/// fixes cuts every bend, so their sum reads short. The stream is used step by step, on the
/// same kept fixes as the GPS sum, so vehicle parts stay out, and only when it is sound: never
/// falling, never faster than a sprinter between two fixes, and within a bound of the GPS sum.
public enum DeviceDistance {
    /// A reading up to this many metres below an earlier one is taken as no progress (a device
    /// that rounds or resamples); a larger fall makes the stream unusable.
    public static let decreaseTolerance: Meters = 1

    /// Why a stream is not used; each names the reading or the figures.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Reading `index` of the input (at `time`) is `distance` m, below the earlier `previous` m.
        case decreases(index: Int, time: EpochSeconds, distance: Meters, previous: Meters)
        /// The device's distance grows `metres` in the `seconds` of a window ending at `time`:
        /// faster than `limit` m/s.
        case tooFast(time: EpochSeconds, metres: Meters, seconds: Seconds, limit: Double)
        /// Over the kept steps the device counts `device` m where the GPS counts `gps` m; it
        /// would have to lie in [`low`, `high`].
        case disagrees(device: Meters, gps: Meters, low: Meters, high: Meters)
        /// Fewer than 2 usable readings.
        case tooFew(count: Int)

        /// The input reading the problem names, when one.
        public var index: Int? { if case .decreases(let i, _, _, _) = self { return i }; return nil }

        public var description: String {
            func m(_ x: Double) -> String { "\(Int(saturating: x.rounded())) m" }
            switch self {
            case .decreases(let i, let t, let d, let previous):
                return "device distance falls to \(m(d)) at reading \(i) (t = \(t)) from \(m(previous)) earlier; a cumulative distance never falls by more than \(m(DeviceDistance.decreaseTolerance))"
            case .tooFast(let t, let metres, let seconds, let limit):
                return "device distance grows \(m(metres)) in \(Int(saturating: seconds.rounded())) s up to t = \(t), faster than \(limit) m/s"
            case .disagrees(let device, let gps, let low, let high):
                return "device distance \(m(device)) over the kept fixes is outside [\(m(low)), \(m(high))] around the GPS distance \(m(gps))"
            case .tooFew(let n):
                return "\(n) usable device distance reading(s); at least 2 are needed"
            }
        }
    }

    /// The readings a run can use, in order: those with a finite time and a finite distance in
    /// [0, `RunRecord.maximumStoredDistance`], each timed after the last kept one (a repeated or
    /// earlier time is dropped, as cleaning drops such fixes). A reading at most
    /// `decreaseTolerance` below the highest so far is held at that highest; a larger fall throws
    /// `.decreases`, naming the reading's index in `samples`. O(n).
    public static func usable(_ samples: [DistanceSample]) throws(Problem) -> [DistanceSample] {
        var kept: [DistanceSample] = []
        kept.reserveCapacity(samples.count)
        for (i, s) in samples.enumerated() {
            guard s.time.isFinite, s.distance.isFinite, (0...RunRecord.maximumStoredDistance).contains(s.distance) else { continue }
            var s = s
            if let last = kept.last {
                guard s.time > last.time else { continue }
                if s.distance < last.distance {
                    guard last.distance - s.distance <= decreaseTolerance else {
                        throw .decreases(index: i, time: s.time, distance: s.distance, previous: last.distance)
                    }
                    s.distance = last.distance
                }
            }
            kept.append(s)
        }
        return kept
    }

    /// The device's cumulative distance at each of `times` (increasing), interpolated linearly
    /// between the readings of `stream` (usable: increasing times, non-decreasing distances) and
    /// held at its first or last reading outside it. O(times + stream).
    public static func readings(at times: [EpochSeconds], _ stream: [DistanceSample]) -> [Meters] {
        guard let first = stream.first, let last = stream.last else { return times.map { _ in 0 } }
        var out: [Meters] = []
        out.reserveCapacity(times.count)
        var j = 0   // stream[j].time <= t < stream[j + 1].time once inside
        for t in times {
            if t <= first.time { out.append(first.distance); continue }
            if t >= last.time { out.append(last.distance); continue }
            while j + 1 < stream.count && stream[j + 1].time <= t { j += 1 }
            let a = stream[j], b = stream[j + 1]
            out.append(a.distance + (t - a.time) / (b.time - a.time) * (b.distance - a.distance))
        }
        return out
    }

    /// The device's distance for each step of the kept fixes at `times` (element 0 is 0) if the
    /// stream is sound against the fixes (record 0116), and a note when part of it was ignored:
    /// - steps `counted[i]` false (vehicle parts) are 0;
    /// - a step inside a window where the device's distance grows faster than
    ///   `configuration.maxSpeed` (`jumps`) takes the GPS step `gpsSteps[i]` instead, and the
    ///   note says how long and where (a watch that counted a GPS jump);
    /// - the total must lie within [`deviceDistanceMinRatio` × GPS − slack,
    ///   `deviceDistanceMaxRatio` × GPS + slack] of the counted GPS steps, else `.disagrees`.
    /// O(n).
    public static func steps(stream: [DistanceSample], times: [EpochSeconds], counted: [Bool], gpsSteps: [Meters],
                             configuration: MetricsConfiguration) -> Result<(steps: [Meters], note: String?), Problem> {
        guard stream.count >= 2 else { return .failure(.tooFew(count: stream.count)) }
        let at = readings(at: times, stream)
        var steps = [Meters](repeating: 0, count: times.count)
        var cumulative = [Meters](repeating: 0, count: times.count)
        for i in times.indices.dropFirst() {
            if counted[i] { steps[i] = max(0, at[i] - at[i - 1]) }
            cumulative[i] = cumulative[i - 1] + steps[i]
        }
        let (suspect, first) = jumps(times: times, cumulative: cumulative, configuration: configuration)
        var device: Meters = 0, gps: Meters = 0, ignored: Seconds = 0
        for i in times.indices.dropFirst() where counted[i] {
            if suspect[i] { steps[i] = gpsSteps[i]; ignored += times[i] - times[i - 1] }
            device += steps[i]
            gps += gpsSteps[i]
        }
        let low = max(0, configuration.deviceDistanceMinRatio * gps - configuration.deviceDistanceSlack)
        let high = configuration.deviceDistanceMaxRatio * gps + configuration.deviceDistanceSlack
        guard device >= low && device <= high else {
            return .failure(.disagrees(device: device, gps: gps, low: low, high: high))
        }
        return .success((steps, first.map { jumpNote($0, ignored: ignored, replacement: "the GPS steps count there") }))
    }

    /// The sentence for ignored windows: how many seconds, the first jump, and what counts instead.
    static func jumpNote(_ first: Problem, ignored: Seconds, replacement: String) -> String {
        "device distance ignored over \(Int(saturating: ignored.rounded())) s where it jumps (first: \(first)); \(replacement)"
    }

    /// Which steps of a cumulative distance (`cumulative`, metres at `times`, non-decreasing) lie
    /// in a window that grows faster than `configuration.maxSpeed`, and the first such window.
    /// The window of step i is the step and at least `vehicleWindowHalfWidth` seconds of readings
    /// on each side (the vehicle rule's, record 0130): a device that adds its distance in bursts
    /// (13 m in a second, then two flat readings) does not jump; 5 km in 10 s does, and so does a
    /// watch that counted a GPS jump (140 m in 11 s while climbing at 1 m/s). Every step of a
    /// fast window is marked (a difference array: O(n) whatever the window holds).
    static func jumps(times: [EpochSeconds], cumulative: [Meters], configuration: MetricsConfiguration) -> (suspect: [Bool], first: Problem?) {
        let n = times.count, h = configuration.vehicleWindowHalfWidth
        var marks = [Int](repeating: 0, count: n + 1)
        var first: Problem? = nil
        var j = 0, k = 0
        for i in times.indices.dropFirst() {
            while j + 1 <= i - 1 && times[i - 1] - times[j + 1] >= h { j += 1 }
            k = max(k, i)
            while k < n - 1 && times[k] - times[i] < h { k += 1 }
            let metres = cumulative[k] - cumulative[j], seconds = times[k] - times[j]
            if metres > configuration.maxSpeed * seconds {
                if first == nil { first = .tooFast(time: times[k], metres: metres, seconds: seconds, limit: configuration.maxSpeed) }
                marks[j + 1] += 1
                marks[k + 1] -= 1
            }
        }
        var suspect = [Bool](repeating: false, count: n), open = 0
        for i in 0..<n { open += marks[i]; suspect[i] = open > 0 }
        return (suspect, first)
    }

    /// Moving flags for a run known only by its stream (element 0 is false): the hysteresis of
    /// `AutoPause` (records 0102, 0151) on the same window (the segment and at least
    /// `pauseWindowHalfWidth` seconds of readings on each side), the window's speed being the
    /// distance the device counts across it ÷ its duration. O(n).
    static func movingFlags(_ stream: [DistanceSample], configuration: MetricsConfiguration) -> [Bool] {
        let n = stream.count, h = configuration.pauseWindowHalfWidth
        guard n > 0 else { return [] }
        var flags = [false], moving = true, j = 0, k = 0
        flags.reserveCapacity(n)
        for s in 1..<n {
            while j + 1 <= s - 1 && stream[s - 1].time - stream[j + 1].time >= h { j += 1 }
            k = max(k, s)
            while k < n - 1 && stream[k].time - stream[s].time < h { k += 1 }
            let speed = (stream[k].distance - stream[j].distance) / (stream[k].time - stream[j].time)
            if moving && speed < configuration.pauseSpeed { moving = false }
            else if !moving && speed > configuration.resumeSpeed { moving = true }
            flags.append(moving)
        }
        return flags
    }
}
