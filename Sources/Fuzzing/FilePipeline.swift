import RunusCore
import Tracking
import TrackFormats
import Missions

/// What `runus track` and the daemon do with a track file, in-process (record 0540): the reader
/// (`TrackFileReader`: gunzip, detect, parse), `RunMetrics` for each activity, and the mission
/// check of a few single-run kinds, whose verdict is written as JSON as the daemon writes it (a
/// NaN there is a trap in `JSONWriter`). Besides traps and hangs (the driver's business), it
/// reports anomalies: non-finite metrics or progress outside [0, 1].
public enum FilePipeline {
    public struct Outcome: Sendable, Equatable {
        /// True when the reader accepted the file (zero activities included).
        public var accepted: Bool
        public var format: String
        public var activities: Int
        public var points: Int
        /// The reader's problem (`TrackReadProblem`) for a refused file.
        public var problem: String?
        /// Values that should not be possible, e.g. `activity 0: distance nan`.
        public var anomalies: [String]
    }

    /// Kinds checked on every activity (the ones that read splits, reps, surges, climbs,
    /// positions and local time).
    public static let kinds: [MissionKind] = [.distance, .pace, .negativeSplit, .evenPace, .progression, .intervals,
                                              .fartlek, .hills, .loop, .earlyBird]

    /// The kind a crash or hang inside `MissionEvaluator` happened in, read from its frames
    /// (`checkFartlek` → fartlek), so that a campaign can go on without it.
    public static func kind(in frames: [String]) -> MissionKind? {
        for frame in frames {
            for kind in kinds where frame.lowercased().contains("check" + kind.rawValue.filter { $0 != "_" }) { return kind }
            if frame.contains("FartlekDetector") { return .fartlek }
        }
        return nil
    }

    public static func run(_ bytes: [UInt8], name: String, kinds: [MissionKind] = FilePipeline.kinds) -> Outcome {
        let read: (format: TrackFileFormat, activities: [Activity])
        do {
            read = try TrackFileReader.read(bytes, name: name)
        } catch {
            return Outcome(accepted: false, format: "-", activities: 0, points: 0, problem: error.problem.rawValue, anomalies: [])
        }
        var anomalies: [String] = []
        var points = 0
        for (k, activity) in read.activities.enumerated() {
            points += activity.track.points.count
            let metrics = RunMetrics(track: activity.track, weightKg: 70)
            for (label, value) in [("distance", metrics.distance), ("elapsed", metrics.elapsed), ("moving", metrics.moving),
                                   ("elevation_gain", metrics.elevationGain)] where !value.isFinite || value < 0 {
                anomalies.append("activity \(k): \(label) \(value)")
            }
            if let pace = metrics.movingPace, !pace.isFinite || pace <= 0 { anomalies.append("activity \(k): moving pace \(pace)") }
            for split in metrics.splits where !(split.duration.isFinite && split.distance.isFinite) {
                anomalies.append("activity \(k): split \(split.index) \(split.distance) m in \(split.duration) s")
                break
            }
            let run = MissionRun(track: activity.track, metrics: metrics)
            for kind in kinds {
                let evaluation = MissionEvaluator.evaluate(kind.example, run: run, context: MissionContext(utcOffset: 3600))
                if !(0...1).contains(evaluation.progress) { anomalies.append("activity \(k): \(kind.rawValue) progress \(evaluation.progress)") }
                _ = JSONWriter.bytes(evaluation.json)
            }
        }
        return Outcome(accepted: true, format: read.format.rawValue, activities: read.activities.count, points: points,
                       problem: nil, anomalies: anomalies)
    }
}
