import RunusCore
#if canImport(Glibc)
import Glibc
#endif

/// The fastest a human has covered a distance on foot: men's outdoor world records (World
/// Athletics, as of 2026), interpolated log-log between the table's distances. A run faster than
/// `plausibleFraction` of this time is not a run on foot (docs/decisions/0230-run-plausibility.md).
public enum WorldRecordPace {
    /// (distance in metres, record time in seconds), increasing in both.
    static let table: [(distance: Meters, time: Seconds)] = [
        (100, 9.58),
        (200, 19.19),
        (400, 43.03),
        (800, 100.91),
        (1000, 131.96),
        (1500, 206.00),
        (3000, 437.55),
        (5000, 755.36),
        (10_000, 1571.00),
        (21_097.5, 3402.0),  // 56:42, half marathon
        (42_195, 7235.0),  // 2:00:35, marathon
        (100_000, 21_941.0),  // 6:05:41, 100 km
        (319_614, 86_400.0),  // 24 hours
    ]

    /// A run or race this much faster than the record or more is refused as a run on foot: its
    /// time must be at least 0.9 × the record time. The 10 % covers GPS distance errors (a few
    /// per cent on good tracks) and auto-pause trimming a little moving time, so no real runner,
    /// elite ones included, is refused.
    public static let plausibleFraction = 0.9

    /// The record time over `distance` metres, seconds: the 100 m record's speed below 100 m, the
    /// 24-hour record's speed beyond its distance (a lenient bound: records only get slower).
    public static func recordTime(over distance: Meters) -> Seconds {
        guard distance > 0, distance.isFinite else { return 0 }
        let first = table[0], last = table[table.count - 1]
        if distance <= first.distance { return first.time * distance / first.distance }
        if distance >= last.distance { return last.time * distance / last.distance }
        var i = 1
        while table[i].distance < distance { i += 1 }
        let a = table[i - 1], b = table[i]
        let f = log(distance / a.distance) / log(b.distance / a.distance)
        return exp(log(a.time) + f * log(b.time / a.time))
    }

    /// True when covering `distance` metres in `time` seconds is faster than any runner could:
    /// `time < plausibleFraction × recordTime(distance)`. Zero time over a positive distance is.
    public static func isSuperhuman(distance: Meters, time: Seconds) -> Bool {
        guard distance > 0 else { return false }
        guard time.isFinite, time > 0 else { return true }
        return time < plausibleFraction * recordTime(over: distance)
    }
}
