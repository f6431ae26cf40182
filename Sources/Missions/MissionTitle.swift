import RunusCore

/// Short English titles for missions, as shown in the app.
public enum MissionTitle {
    /// e.g. "Run 5.0 km", "Run for 30 min", "Run 5.0 km at 5:30/km or faster",
    /// "Run 5.0 km with a faster second half", "Cover 5.0 km in under 27:30".
    public static func title(for spec: MissionSpec) -> String {
        switch spec {
        case .distance(let d):
            return "Run \(DistanceFormat.kilometres(d))"
        case .duration(let s):
            let whole = Int(s.rounded())
            return whole % 60 == 0 ? "Run for \(whole / 60) min" : "Run for \(DistanceFormat.duration(s))"
        case .pace(let p, let d):
            return "Run \(DistanceFormat.kilometres(d)) at \(Pace.format(p))/km or faster"
        case .negativeSplit(let d):
            return "Run \(DistanceFormat.kilometres(d)) with a faster second half"
        case .distanceInTime(let d, let s):
            return "Cover \(DistanceFormat.kilometres(d)) in under \(DistanceFormat.duration(s))"
        }
    }
}
