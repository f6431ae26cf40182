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
            let whole = Int(saturating: s.rounded())
            return whole % 60 == 0 ? "Run for \(whole / 60) min" : "Run for \(DistanceFormat.duration(s))"
        case .pace(let p, let d):
            return "Run \(DistanceFormat.kilometres(d)) at \(Pace.format(p))/km or faster"
        case .negativeSplit(let d):
            return "Run \(DistanceFormat.kilometres(d)) with a faster second half"
        case .distanceInTime(let d, let s):
            return "Cover \(DistanceFormat.kilometres(d)) in under \(DistanceFormat.duration(s))"
        case .evenPace(let d, let x):
            return "Run \(DistanceFormat.kilometres(d)) with every km within \(Int(saturating: x.rounded())) s/km of the others"
        case .progression(let n):
            return "Run \(n) km, each faster than the last"
        case .intervals(let n, let r, let p, let s):
            return "\(n) × \(metres(r)) at \(Pace.format(p))/km or faster, rests up to \(DistanceFormat.duration(s))"
        case .fartlek(let n, let t):
            return "Fartlek: \(n) surges of \(Int(saturating: t.rounded())) s or more"
        case .hills(let g):
            return "Climb \(Int(saturating: g.rounded())) m"
        case .longRun(let m):
            let percent = Int(saturating: ((m - 1) * 100).rounded())
            return percent == 0 ? "Match your longest run of the last 4 weeks"
                : "Run \(percent) % further than your longest run of the last 4 weeks"
        case .earlyBird(let minute, let d):
            return "Early bird: run \(DistanceFormat.kilometres(d)) starting before \(clock(minute))"
        case .nightOwl(let minute, let d):
            return "Night owl: run \(DistanceFormat.kilometres(d)) starting after \(clock(minute))"
        case .explorer(let f, let d):
            return "Explore: run \(DistanceFormat.kilometres(d)) with \(Int(saturating: (f * 100).rounded())) % on new ground"
        case .loop(let r, let d):
            return "Run a \(DistanceFormat.kilometres(d)) loop, finishing within \(Int(saturating: r.rounded())) m of the start"
        case .streak(let n):
            return "Run \(n) days in a row"
        case .weeklyVolume(let d):
            // The week's total; the offer's last day says by when (record 0655: the policy's
            // offer is open to Sunday, a mission the runner sets for its day).
            return "Bring your week to \(DistanceFormat.kilometres(d))"
        case .personalBest(let d):
            return "Beat your best \(metres(d))"
        case .recovery(let p, let s, let hr):
            let base = "Easy \(Int(saturating: (s / 60).rounded())) min at \(Pace.format(p))/km or slower"
            return hr.map { base + ", heart rate under \(Int(saturating: $0.rounded()))" } ?? base
        case .raceFinish(let d):
            return "Finish a race of \(DistanceFormat.kilometres(d)) or more"
        case .podium(let place):
            return place == 1 ? "Win a race" : "Finish a race in the top \(place)"
        }
    }

    /// Short distances in metres ("400 m"), longer ones in km ("5.0 km").
    public static func metres(_ d: Meters) -> String {
        d < 1000 ? "\(Int(saturating: d.rounded())) m" : DistanceFormat.kilometres(d)
    }

    /// Minutes after midnight as "7:00", "21:30".
    public static func clock(_ minute: Int) -> String {
        let m = minute % 60
        return "\(minute / 60):\(m < 10 ? "0" : "")\(m)"
    }
}

/// A title with the short "why" sentence the recommender fills in (Engine's `TodayPolicy.why`).
public struct MissionPresentation: Sendable, Equatable {
    public let title: String
    public let why: String?

    public init(spec: MissionSpec, why: String? = nil) {
        self.title = MissionTitle.title(for: spec)
        self.why = why
    }
}
