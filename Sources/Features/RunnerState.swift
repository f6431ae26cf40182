import RunusCore
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// A mission outcome the runner had before an instant: the kind and whether it was completed,
/// dated by the start of the run that decided it.
public struct PastOutcome: Sendable, Equatable {
    public let kind: MissionKind
    public let completed: Bool
    /// Start of the deciding run, Unix seconds. The outcome is known from then on.
    public let decidedAt: EpochSeconds

    public init(kind: MissionKind, completed: Bool, decidedAt: EpochSeconds) {
        self.kind = kind; self.completed = completed; self.decidedAt = decidedAt
    }

    /// The decided outcomes among `assignments`, dated by the start of the run that decided each
    /// (`runs` are searched by id; an assignment whose run is unknown is left out, because its
    /// date cannot be proven to lie before any instant).
    public static func from(assignments: [MissionAssignment], runs: [RunRecord]) -> [PastOutcome] {
        var starts: [String: EpochSeconds] = [:]
        for r in runs { starts[r.id] = r.startTime }
        return assignments.compactMap { a in
            guard a.status == .completed || a.status == .failed, let runID = a.runID, let at = starts[runID],
                  let kind = MissionKind(rawValue: a.kind) else { return nil }
            return PastOutcome(kind: kind, completed: a.status == .completed, decidedAt: at)
        }
    }
}

/// Tried and completed missions of one kind, counts ≥ 0.
public struct OutcomeCount: Sendable, Equatable {
    public var tried = 0
    public var completed = 0

    public init(tried: Int = 0, completed: Int = 0) {
        self.tried = tried
        self.completed = completed
    }
}

/// A runner's state as of an instant, computed only from runs that started strictly before it
/// (and mission outcomes decided by such runs). Adding runs or outcomes at or after `asOf` never
/// changes it. Windows are "age ≤ N days" before `asOf`.
public struct RunnerState: Sendable, Equatable {
    /// The instant the state describes (Unix seconds).
    public let asOf: EpochSeconds
    /// Local time − UTC used for start hours, weekdays and day streaks, seconds.
    public let utcOffset: Int
    /// Number of runs in the 7, 28 and 90 days before `asOf`.
    public let runs7d: Int
    public let runs28d: Int
    public let runs90d: Int
    /// Distance run in the 7, 28 and 90 days before `asOf`, metres.
    public let volume7d: Meters
    public let volume28d: Meters
    public let volume90d: Meters
    /// Longest run in the 28 and 90 days before `asOf`, metres (0 without runs).
    public let longest28d: Meters
    public let longest90d: Meters
    /// Days since the last run started (fractional), nil without history.
    public let daysSinceLastRun: Double?
    /// Exponentially weighted mean of all past run distances, newest weighted 0.15, metres;
    /// nil without history. The distance the runner currently runs comfortably.
    public let endurance: Meters?
    /// Median moving pace of the last 10 runs, s/km; nil without history.
    public let typicalPace: SecondsPerKm?
    /// Coefficient of variation (standard deviation / mean) of the last 10 moving paces, ≥ 0;
    /// nil with fewer than 3 paces.
    public let paceVariability: Double?
    /// Best effort proxy: the fastest average moving pace of a run at least `d` long in the last
    /// 90 days, s/km, for each `d` in `bestPaceDistances` that some run covered (summaries carry
    /// no splits, so this is a whole-run pace, a lower bound on the best effort's speed).
    public let bestPaces: [Meters: SecondsPerKm]
    /// Personal 5 km race-time estimate, seconds: the best run of the last 90 days of at least
    /// 3 km, scaled to 5 km with Riegel's exponent 1.06 (record 0621); nil without such a run.
    public let estimated5k: Seconds?
    /// Recency-weighted median 5 km-equivalent pace of the last 90 days' runs, s/km (records 0619,
    /// 0651, `RunnerState+RacePace.swift`); nil without a run of at least 1 km in that window.
    public let racePace5k: SecondsPerKm?
    /// Fraction of the last 8 weeks (7-day windows back from `asOf`) with at least one run, [0, 1].
    public let consistency8w: Double
    /// Consecutive 7-day windows back from `asOf` with at least one run, 0…
    public let weekStreak: Int
    /// Consecutive local days with a run ending with the day before `asOf`'s local day (a run
    /// earlier on the same day extends it), 0…
    public let dayStreak: Int
    /// Whether the runner ran on each local day back from `asOf`'s (index 0: that day, before
    /// `asOf`; index b: b days before), `runDayWindow` + 1 entries, within the days since the
    /// first run's (later entries are false): what `StreakForecast` reads.
    public let runDaysBack: [Bool]
    /// Distance run on each of the same local days (summed over the day's runs), metres ≥ 0,
    /// `runDayWindow` + 1 entries: what `WeeklyVolumeForecast` reads (record 0655).
    public let distanceDaysBack: [Meters]
    /// Local days from the first run's day to `asOf`'s, the first's included, ≥ 0 (0 without runs).
    public let daysSinceFirstRunDay: Int
    /// Circular mean of the local start hours of the last 20 runs, hours in [0, 24); nil without history.
    public let usualStartHour: Double?
    /// Local start minutes (after local midnight, 0 ..< 1440) of the same last 20 runs, oldest
    /// first; empty without history.
    public let recentStartMinutes: [Int]
    /// Distance of each of the same runs, metres ≥ 0 (a stored distance that is not a finite
    /// non-negative number counts as 0): what `run_share_early_bird` and `run_share_night_owl`
    /// read with the start minutes (record 0659).
    public let recentStartDistances: [Meters]
    /// Moving time of each of the same runs, seconds ≥ 0 (a stored moving time that is not a
    /// finite non-negative number counts as 0): what the reach shares of duration and recovery
    /// missions read (record 0665).
    public let recentMovingTimes: [Seconds]
    /// Elevation gain of the last `climbShareWindow` runs, metres ≥ 0 (a stored gain that is
    /// not a finite non-negative number counts as 0), oldest first; empty without history: what
    /// `climb_share_hills` reads (record 0656).
    public let recentClimbs: [Meters]
    /// Best efforts (`RunDigest.bestEfforts`: fastest elapsed seconds over each of
    /// `PriorRun.effortDistances` the run covered) of the last `effortShareWindow` runs with a
    /// digest before `asOf`, oldest first; empty without digests: what
    /// `effort_share_distance_in_time` reads (record 0657).
    public let recentEfforts: [[Meters: Seconds]]
    /// The last `effortShareWindow` digests before `asOf` whose surges are known
    /// (`RunDigest.surges`), oldest first: what `surge_share_fartlek` reads (record 0658).
    public let recentSurges: [RunDigest]
    /// Mean resultant length of those start hours on the 24 h circle, [0, 1] (1: always the same hour).
    public let startHourRegularity: Double
    /// Share of the last 90 days' runs that started on `asOf`'s local weekday, [0, 1].
    public let weekdayShare: Double
    /// Median elevation gain per km of the last 10 runs, m/km ≥ 0; nil without history.
    public let climbPerKm: Double?
    /// Mission outcomes decided in the `outcomeWindowDays` days before `asOf`, by kind.
    public private(set) var outcomes: [MissionKind: OutcomeCount]
    /// Number of runs before `asOf`.
    public let totalRuns: Int
    /// Distance of the runs that started in `asOf`'s local calendar week (Monday to Sunday in
    /// `utcOffset`) before `asOf`, metres ≥ 0: what a weekly-volume check adds to the next run.
    public let volumeThisWeek: Meters
    /// Local days left in `asOf`'s week, today included, 1 (Sunday) … 7 (Monday).
    public let daysLeftInWeek: Int
    /// Fastest elapsed time, seconds, over each of `PriorRun.effortDistances` among the tracks
    /// of the runs before `asOf` (the `digests` given; record 0646): what a personal-best
    /// mission asks to beat. Empty without digests (summary runs, rows of older code).
    public let bestEfforts: [Meters: Seconds]
    /// `RunDigest.groundFamiliarity` of the digests before `asOf`, [0, 1]; nil with fewer than
    /// two runs with positions (record 0645).
    public let groundFamiliarity: Double?

    /// Weight of the newest run in `endurance`.
    public static let enduranceWeight = 0.15
    /// Runs that enter `typicalPace`, `paceVariability` and `climbPerKm`.
    public static let paceWindow = 10
    /// Local days before `asOf`'s that `runDaysBack` covers (12 weeks).
    public static let runDayWindow = 84
    /// Runs that enter `usualStartHour`.
    public static let startHourWindow = 20
    /// Runs that enter `recentClimbs`.
    public static let climbShareWindow = 20
    /// Runs with a digest that enter `recentEfforts` (and with known surges, `recentSurges`).
    public static let effortShareWindow = 20
    /// Days of mission outcomes that enter `outcomes`.
    public static let outcomeWindowDays = 90.0
    /// Distances of `bestPaces`, metres.
    public static let bestPaceDistances: [Meters] = [1000, 5000, 10_000, 21_097.5]

    /// Endurance assumed for a runner without history, metres (a beginner's 4 km).
    public static let defaultEndurance: Meters = 4000
    /// Pace assumed for a runner without history, s/km (7:00/km).
    public static let defaultPace: SecondsPerKm = 420

    /// Builds the state from `history` and `outcomes` (any order; runs at or after `asOf` and
    /// outcomes decided at or after it are ignored). `utcOffset` places start hours on the
    /// runner's clock (0: UTC). `digests`: what the tracks of (some of) these runs say
    /// (`RunDigest`, any order; those at or after `asOf` are ignored), for the best efforts and
    /// the ground familiarity; a run without one counts for everything else.
    public init(history: [RunRecord], outcomes: [PastOutcome] = [], asOf: EpochSeconds, utcOffset: Int = 0,
                digests: [RunDigest] = []) {
        self.asOf = asOf
        self.utcOffset = utcOffset
        let past = history.filter { $0.startTime < asOf }.sorted {
            ($0.startTime, $0.id) < ($1.startTime, $1.id)
        }
        totalRuns = past.count
        var counts = [0, 0, 0], volumes = [0.0, 0.0, 0.0], longest = [0.0, 0.0]
        var ewma: Meters?
        var best: [Meters: SecondsPerKm] = [:]
        var best5k: Seconds?
        for run in past {
            let age = asOf - run.startTime
            for (i, days) in [7.0, 28, 90].enumerated() where age <= days * 86_400 {
                counts[i] += 1; volumes[i] += run.distance
                if i >= 1 { longest[i - 1] = max(longest[i - 1], run.distance) }
            }
            if age <= 90 * 86_400, let pace = run.movingPace {
                for d in Self.bestPaceDistances where run.distance >= d {
                    best[d] = min(best[d] ?? .infinity, pace)
                }
                if run.distance >= 3000 {
                    let t = run.moving * pow(5000 / run.distance, 1.06)
                    best5k = min(best5k ?? .infinity, t)
                }
            }
            ewma = ewma.map { (1 - Self.enduranceWeight) * $0 + Self.enduranceWeight * run.distance } ?? run.distance
        }
        runs7d = counts[0]; runs28d = counts[1]; runs90d = counts[2]
        volume7d = volumes[0]; volume28d = volumes[1]; volume90d = volumes[2]
        longest28d = longest[0]; longest90d = longest[1]
        endurance = ewma
        bestPaces = best
        estimated5k = best5k
        racePace5k = Self.racePace5k(past: past, asOf: asOf, outcomes: outcomes)
        daysSinceLastRun = past.last.map { (asOf - $0.startTime) / 86_400 }

        let recent = past.suffix(Self.paceWindow)
        let paces = recent.compactMap(\.movingPace)
        typicalPace = Self.median(paces)
        if paces.count >= 3 {
            let mean = paces.reduce(0, +) / Double(paces.count)
            let variance = paces.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(paces.count - 1)
            paceVariability = variance.squareRoot() / mean
        } else {
            paceVariability = nil
        }
        climbPerKm = Self.median(recent.filter { $0.distance >= 100 }.map { $0.elevationGain / ($0.distance / 1000) })
        recentClimbs = past.suffix(Self.climbShareWindow).map { $0.elevationGain.isFinite ? max(0, $0.elevationGain) : 0 }
        recentMovingTimes = past.suffix(Self.startHourWindow).map { $0.moving.isFinite ? max(0, $0.moving) : 0 }

        let habits = Self.habits(past: past, asOf: asOf, utcOffset: utcOffset)
        consistency8w = habits.consistency; weekStreak = habits.weekStreak; dayStreak = habits.dayStreak
        usualStartHour = habits.startHour; recentStartMinutes = habits.startMinutes
        recentStartDistances = habits.startDistances
        startHourRegularity = habits.regularity; weekdayShare = habits.weekdayShare
        runDaysBack = habits.runDaysBack; daysSinceFirstRunDay = habits.daysSinceFirstRunDay
        distanceDaysBack = habits.distanceDaysBack

        let today = CivilDate(instant: asOf, utcOffset: utcOffset)
        let monday = today.daysSinceEpoch - (today.isoWeekday - 1)
        volumeThisWeek = past.filter { CivilDate(instant: $0.startTime, utcOffset: utcOffset).daysSinceEpoch >= monday }
            .reduce(0) { $0 + max(0, $1.distance) }
        daysLeftInWeek = 8 - today.isoWeekday

        var byKind: [MissionKind: OutcomeCount] = [:]
        for o in outcomes where o.decidedAt < asOf && asOf - o.decidedAt <= Self.outcomeWindowDays * 86_400 {
            byKind[o.kind, default: OutcomeCount()].tried += 1
            if o.completed { byKind[o.kind, default: OutcomeCount()].completed += 1 }
        }
        self.outcomes = byKind

        let before = digests.filter { $0.start < asOf }
        var efforts: [Meters: Seconds] = [:]
        for d in PriorRun.effortDistances {
            if let t = RunDigest.bestEffort(over: d, in: before) { efforts[d] = t }
        }
        bestEfforts = efforts
        groundFamiliarity = RunDigest.groundFamiliarity(before)
        let ordered = before.sorted { $0.start < $1.start }
        recentEfforts = ordered.suffix(Self.effortShareWindow).map(\.bestEfforts)
        recentSurges = Array(ordered.filter { $0.surges != nil }.suffix(Self.effortShareWindow))
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Endurance, or the beginner default without history.
    /// Clamped to `enduranceRange`: a history of 0 m runs (stored by older code) must not give
    /// an endurance of 0, which every ratio divides by (record 0230).
    public var enduranceOrDefault: Meters {
        (endurance ?? Self.defaultEndurance).clamped(to: Self.enduranceRange, nan: Self.defaultEndurance)
    }
    /// Typical pace, or the beginner default without history; clamped to `paceRange`.
    public var typicalPaceOrDefault: SecondsPerKm {
        (typicalPace ?? Self.defaultPace).clamped(to: Self.paceRange, nan: Self.defaultPace)
    }
    /// Endurances the engine reasons with, metres: the catalog's distance range.
    public static let enduranceRange: ClosedRange<Meters> = 100...100_000
    /// Typical paces the engine reasons with, s/km (2:00/km to 20:00/km, the catalog's pace range).
    public static let paceRange: ClosedRange<SecondsPerKm> = 120...1200

    /// Acute:chronic load ratio: last 7 days' volume over the weekly mean of the last 28 days,
    /// in [0, 4]; 1 when the runner has no volume in 28 days.
    public var acuteChronicRatio: Double {
        volume28d > 0 ? min(4, volume7d / (volume28d / 4)) : 1
    }

    /// Expected moving pace over `distance`, s/km: the typical pace scaled from the endurance
    /// distance with Riegel's exponent (pace ∝ distance^0.06).
    public func expectedPace(over distance: Meters) -> SecondsPerKm {
        typicalPaceOrDefault * pow(max(distance, 400) / enduranceOrDefault, 0.06)
    }

    /// The same state with `counts` as the outcomes of the window, for a caller that counts them
    /// itself (history labels count the runner's earlier labels, record 0663). Everything else,
    /// the race pace included, keeps the outcomes the state was built with.
    public func replacingOutcomes(_ counts: [MissionKind: OutcomeCount]) -> RunnerState {
        var copy = self
        copy.outcomes = counts
        return copy
    }

    /// The runner's past missions of `kind` (of all kinds when nil) in the outcome window.
    public func outcomeCount(_ kind: MissionKind?) -> OutcomeCount {
        kind.map { outcomes[$0] ?? OutcomeCount() }
            ?? outcomes.values.reduce(into: OutcomeCount()) { $0.tried += $1.tried; $0.completed += $1.completed }
    }

    /// Completion rate of the runner's past missions of `kind` (or of all kinds when nil),
    /// shrunk towards 1/2 by one success and one failure of prior (Laplace), in (0, 1).
    public func completionRate(_ kind: MissionKind?) -> Double {
        let c = outcomeCount(kind)
        return (Double(c.completed) + 1) / (Double(c.tried) + 2)
    }

    /// The log odds of `completionRate(kind)`, log((completed + 1) / (tried − completed + 1)),
    /// from the counts (the rate's own log odds lose digits when it is near 1); 0 without outcomes.
    public func completionLogOdds(_ kind: MissionKind?) -> Double {
        let c = outcomeCount(kind)
        return log(Double(c.completed) + 1) - log(Double(c.tried - c.completed) + 1)
    }

    /// Missions of `kind` (all kinds when nil) tried before `asOf`.
    public func tried(_ kind: MissionKind?) -> Int { outcomeCount(kind).tried }
}
