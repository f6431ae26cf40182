import RunusCore
import Tracking

/// The parts of a run record that several answers share (`runs.ingest`, `runs.get`), with the
/// wire names of record 0533: one name per quantity, the time a pace divides in its name.
public enum RunJSON {
    /// `x` rounded to `1 / scale` (a tenth by default).
    static func rounded(_ x: Double, _ scale: Double = 10) -> JSONValue { .number((x * scale).rounded() / scale) }

    /// A km (or mile) split: {`index`, `distance_m`, `moving_s`, `moving_pace_s_per_km`}; splits
    /// are timed by moving time (`RunMetrics.splits`).
    public static func split(_ s: Split) -> JSONValue {
        ["index": .number(Double(s.index)), "distance_m": rounded(s.distance), "moving_s": rounded(s.duration),
         "moving_pace_s_per_km": rounded(s.pace)]
    }

    /// The parts the record left out (`RunMetrics.excludedParts`): [{`activity`, `start_offset_s`,
    /// `end_offset_s`, `path_m`}], offsets in seconds from the run's `start_time` (its first kept
    /// fix: a part the recording began with, cut off, has negative offsets).
    public static func excluded(_ parts: [ExcludedPart], runStart: EpochSeconds) -> JSONValue {
        .array(parts.map { p in
            ["activity": .string(p.activity.description), "start_offset_s": rounded(p.startTime - runStart),
             "end_offset_s": rounded(p.endTime - runStart), "path_m": rounded(p.path)]
        })
    }
}
