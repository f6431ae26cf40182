import RunusCore
import Tracking
import TrackFormats

/// Whether an activity read from a file is a run (record 0601): the file's sport when it names
/// one, else the activity classifier's verdict on the track.
extension ImportConversion {
    public enum SportDecision: Equatable {
        case run
        case notRun(reason: String)
    }

    /// Sport names that say nothing about the activity: the classifier decides.
    public static let unnamedSports: Set<String> = ["", "generic", "other", "unknown", "all"]

    /// Share of the on-foot-or-faster moving time the classifier must call `run` for an activity
    /// without a sport to count as a run, in [0, 1].
    public static let classifiedRunShare = 0.5

    public static func sportDecision(_ activity: Activity) -> SportDecision {
        let sport = (activity.sport ?? "").lowercased()
        if sport.contains("run") || sport.contains("jog") || sport.contains("treadmill") { return .run }
        guard unnamedSports.contains(sport) else { return .notRun(reason: "sport \(sport)") }
        guard let share = runShare(sanitized(activity.track)) else {
            return .notRun(reason: "no sport and too few fixes to classify")
        }
        let name = activity.sport == nil ? "no sport" : "sport \(sport)"
        return share >= classifiedRunShare ? .run : .notRun(reason: "\(name), classified as not a run")
    }

    /// Share of the moving (non-stationary) time the classifier labels `run`, in [0, 1]; nil when
    /// the track has no moving time.
    public static func runShare(_ track: Track) -> Double? {
        let cleaned = track.cleaned()
        let points = cleaned.points
        var run: Seconds = 0, moving: Seconds = 0
        for segment in cleaned.activitySegments() where segment.activity != .stationary {
            let seconds = points[segment.range.upperBound].time - points[segment.range.lowerBound - 1].time
            moving += seconds
            if segment.activity == .run { run += seconds }
        }
        return moving > 0 ? run / moving : nil
    }
}
