import RunusCore
#if canImport(Glibc)
import Glibc
#endif

extension RunnerState {
    struct Habits {
        var consistency = 0.0
        var weekStreak = 0
        var dayStreak = 0
        var startHour: Double?
        var startMinutes: [Int] = []
        var startDistances: [Meters] = []
        var regularity = 0.0
        var weekdayShare = 0.0
        var runDaysBack = [Bool](repeating: false, count: runDayWindow + 1)
        var distanceDaysBack = [Meters](repeating: 0, count: runDayWindow + 1)
        var daysSinceFirstRunDay = 0
    }

    /// Consistency, streaks, start hour and weekday habits of `past` (sorted, all before `asOf`).
    static func habits(past: [RunRecord], asOf: EpochSeconds, utcOffset: Int) -> Habits {
        var h = Habits()
        guard !past.isEmpty else { return h }
        // Weeks: window w holds runs with age in (7w, 7(w+1)] days.
        var weeks = [Bool](repeating: false, count: 8)
        var weekSet: Set<Int> = []
        for run in past {
            let w = Int(saturating: ((asOf - run.startTime) / (7 * 86_400)).rounded(.up)) - 1
            if w >= 0 && w < 8 { weeks[w] = true }
            weekSet.insert(max(0, w))
        }
        h.consistency = Double(weeks.filter { $0 }.count) / 8
        while weekSet.contains(h.weekStreak) { h.weekStreak += 1 }

        // Local days: the streak counts back from yesterday (today's earlier runs add one).
        let offset = Double(utcOffset)
        func localDay(_ t: EpochSeconds) -> Int { Int(saturating: ((t + offset) / 86_400).rounded(.down)) }
        let today = localDay(asOf)
        let days = Set(past.map { localDay($0.startTime) })
        var d = today - 1
        while days.contains(d) { h.dayStreak += 1; d -= 1 }
        if days.contains(today) { h.dayStreak += 1 }
        // The same local days back from today's, for `StreakForecast` (record 0650).
        h.runDaysBack = (0...runDayWindow).map { days.contains(today - $0) }
        // And the distance of each (record 0655); a stored distance that is not a finite
        // non-negative number adds nothing.
        for run in past {
            let back = today - localDay(run.startTime)
            guard back >= 0 && back <= runDayWindow, run.distance.isFinite, run.distance > 0 else { continue }
            h.distanceDaysBack[back] += run.distance
        }
        h.daysSinceFirstRunDay = max(0, today - localDay(past[0].startTime) + 1)

        // Start hour on the 24 h circle.
        var sx = 0.0, sy = 0.0
        let recent = past.suffix(startHourWindow)
        for run in recent {
            var seconds = (run.startTime + offset).truncatingRemainder(dividingBy: 86_400)
            if seconds < 0 { seconds += 86_400 }
            let angle = 2 * Double.pi * seconds / 86_400
            sx += cos(angle); sy += sin(angle)
            // seconds is in [0, 86 400) for a finite start (RunRecord's are checked), so the
            // minute is in 0 ..< 1440; the clamp keeps a rounding edge there too.
            h.startMinutes.append(min(1439, max(0, Int(saturating: (seconds / 60).rounded(.down)))))
            h.startDistances.append(run.distance.isFinite ? max(0, run.distance) : 0)
        }
        let n = Double(recent.count)
        h.regularity = min(1, (sx * sx + sy * sy).squareRoot() / n)
        if h.regularity > 1e-9 {
            var hour = atan2(sy, sx) / (2 * .pi) * 24
            if hour < 0 { hour += 24 }
            h.startHour = hour >= 24 ? 0 : hour
        } else {
            h.startHour = 12  // perfectly spread start hours: no usual hour, the circle's midpoint by convention
        }

        // Weekday of the as-of local day (days since epoch mod 7) against the last 90 days' runs.
        let in90 = past.filter { asOf - $0.startTime <= 90 * 86_400 }
        if !in90.isEmpty {
            let weekday = ((today % 7) + 7) % 7
            let same = in90.filter { ((localDay($0.startTime) % 7) + 7) % 7 == weekday }.count
            h.weekdayShare = Double(same) / Double(in90.count)
        }
        return h
    }
}
