#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Missions

/// The chance that a runner who runs today brings the local calendar week (Monday to Sunday) to
/// a weekly-volume target by Sunday, when the daily policy offers it for the rest of the week
/// (record 0655). The distance still needed (the accepted target less the week's distance
/// before today) must come from today's run and the runs of the days after it:
///
///     P( X₀ + Σₖ Bₖ·Xₖ ≥ needed ),  k = 1 … days left after today
///
/// where X₀, Xₖ are a day's distance drawn from the runner's run days of the last 12 weeks
/// (each weighing 0.5^(weeks back / `recencyHalfLifeWeeks`), as the streak forecast's days do)
/// and Bₖ says whether the runner runs on day k, with `StreakForecast.dayProbability`. Today's
/// run is given: like every offer's, the probability is conditional on trying, and a weekly
/// volume is tried by running on its offer day. The sum's distribution is convolved exactly on
/// a grid of at most `maximumBins` bins, so the answer is deterministic and costs
/// O(bins × run days × days left) (about 0.2 M multiply-adds for a Monday).
///
/// Pure: reads `RunnerState.runDaysBack`, `distanceDaysBack` and `volumeThisWeek` only. Like
/// `StreakForecast`, it treats the days as independent given the runner's weekday shares, and a
/// day's distance as independent of its weekday; what that gives up is in the record.
public enum WeeklyVolumeForecast {
    /// Days with a run in the last 12 weeks before a weekly volume is forecast: fewer say too
    /// little about how far the runner goes on a run day.
    public static let minimumRunDays = 8
    /// Age in weeks at which a run day's distance counts half (the streak forecast's).
    public static let recencyHalfLifeWeeks = StreakForecast.recencyHalfLifeWeeks
    /// Most bins of the convolution grid; the bin width is the distance still needed over
    /// this, at least `minimumBinWidth`, so the grid's rounding moves a total by under 0.3 %.
    static let maximumBins = 400
    /// Narrowest bin, metres.
    static let minimumBinWidth: Meters = 25
    /// Standard deviation of the log of a week's factor on every distance of the rest of the
    /// week (a training week or an easy one: the days of one week are not independent), ≥ 0.
    public static let weekSpread = 0.0
    /// Three-point Gauss–Hermite rule for a standard normal: nodes and weights.
    static let hermite: [(z: Double, w: Double)] = [(-3.0.squareRoot(), 1.0 / 6), (0, 2.0 / 3), (3.0.squareRoot(), 1.0 / 6)]

    /// The distances of the runner's run days before today, within `StreakForecast.daysKnown`,
    /// newest first, each with its recency weight (> 0): 0.5^(w / `halfLifeWeeks`), w the whole
    /// weeks between the day and yesterday's week (1 without a half-life; the shipped one
    /// unless evaluating).
    public static func runDays(_ state: RunnerState, halfLifeWeeks: Double? = recencyHalfLifeWeeks)
        -> [(distance: Meters, weight: Double)] {
        let known = StreakForecast.daysKnown(state)
        guard known >= 1, state.distanceDaysBack.count > known, state.runDaysBack.count > known else { return [] }
        return (1...known).filter { state.runDaysBack[$0] }.map { b in
            (state.distanceDaysBack[b], halfLifeWeeks.map { pow(0.5, Double((b - 1) / 7) / $0) } ?? 1)
        }
    }

    /// Whether the record is long enough to forecast a weekly volume: the streak forecast's
    /// `StreakForecast.minimumDaysKnown` days, and `minimumRunDays` run days.
    public static func isForecast(_ state: RunnerState) -> Bool {
        StreakForecast.daysKnown(state) >= StreakForecast.minimumDaysKnown && runDays(state).count >= minimumRunDays
    }

    /// The runner's chance of running on each day of the week after today (Tuesday … Sunday
    /// for a Monday; none on a Sunday), each in [0, 1], the shares shrunk toward `prior` (the
    /// served model's, record 0668).
    public static func dayChances(_ state: RunnerState, breaks: BreakRule = StreakForecast.breakRule,
                                  prior: SchedulePrior = .none) -> [Double] {
        let after = max(0, state.daysLeftInWeek - 1)
        guard after > 0 else { return [] }
        let schedule = StreakForecast.schedule(state, breaks: breaks, prior: prior)
        return (1...after).map { schedule.runChance(ahead: $0) }
    }

    /// The weighted mean distance of a run day, metres; nil without run days.
    public static func meanRunDay(_ state: RunnerState) -> Meters? {
        let days = runDays(state)
        let total = days.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        return days.reduce(0) { $0 + $1.distance * $1.weight } / total
    }

    /// The distance the rest of the week is expected to add, today's run included, metres; nil
    /// when the record is too short (`isForecast`). It places the ladder's targets
    /// (`CandidateGenerator.weekVolumes`), so it reads the runner's own record only: the
    /// served prior moves the probabilities, not which targets are offered (record 0668).
    public static func expectedRest(_ state: RunnerState) -> Meters? {
        guard isForecast(state), let mean = meanRunDay(state) else { return nil }
        return mean * (1 + dayChances(state).reduce(0, +))
    }

    /// The distance still needed for `target` (metres) to be accepted by the check, given the
    /// week so far: target × the tolerance's distance fraction − `volumeThisWeek`, metres
    /// (≤ 0: the week has it already).
    public static func needed(target: Meters, state: RunnerState, tolerance: MissionTolerance = .default) -> Meters {
        target * tolerance.distanceFraction - state.volumeThisWeek
    }

    /// The chance of completing a weekly volume of `target` metres offered today, given a run
    /// today, in [0, 1]; nil when the record is too short (`isForecast`) or the target is not a
    /// finite distance. `prior`: the served model's (record 0668).
    public static func probability(target: Meters, state: RunnerState, tolerance: MissionTolerance = .default,
                                   prior: SchedulePrior = .none) -> Double? {
        guard target.isFinite else { return nil }
        return outlook(state: state, upTo: needed(target: target, state: state, tolerance: tolerance), prior: prior)?
            .probability(adding: needed(target: target, state: state, tolerance: tolerance))
    }

    /// The distribution of what the rest of the week adds, up to `cap` metres (what the largest
    /// target still needs); nil when the record is too short or `cap` is not finite.
    /// `halfLifeWeeks`, `spread`, `breaks`: the recency of the run days' distances, the week's
    /// factor and the break rule of the day chances (the shipped ones unless evaluating);
    /// `prior`: what the day chances are shrunk toward (the served model's, record 0668).
    public static func outlook(state: RunnerState, upTo cap: Meters, halfLifeWeeks: Double? = recencyHalfLifeWeeks,
                               spread: Double = weekSpread, breaks: BreakRule = StreakForecast.breakRule,
                               prior: SchedulePrior = .none) -> Outlook? {
        guard isForecast(state), cap.isFinite, spread.isFinite, spread >= 0 else { return nil }
        return Outlook(days: runDays(state, halfLifeWeeks: halfLifeWeeks), chances: dayChances(state, breaks: breaks, prior: prior),
                       cap: cap, spread: spread)
    }

    /// What the rest of the week adds (today's run and the days after), as a distribution on a
    /// grid up to a cap: the chance of adding at least d is `probability(adding: d)`.
    public struct Outlook: Sendable {
        /// Bin width, metres.
        let width: Meters
        /// tail[i]: the chance of adding at least i bins (tail[0] = 1); the last bin holds every
        /// total at or beyond the cap.
        let tail: [Double]
        /// The week's factor's log standard deviation (`weekSpread`).
        let spread: Double

        init(days: [(distance: Meters, weight: Double)], chances: [Double], cap: Meters, spread: Double = 0) {
            self.spread = spread
            // The largest factor's node reaches needed / e^(√3 σ) … needed · e^(√3 σ). A span
            // that overflows is the largest finite one; a NaN (a NaN cap or spread) is none.
            let reach = cap * exp(3.0.squareRoot() * spread)
            let span = reach.isNaN ? 0 : min(Double.greatestFiniteMagnitude, max(0, reach))
            width = max(minimumBinWidth, span / Double(maximumBins))
            // span and width are finite and span / width ≤ maximumBins, so the conversion cannot trap.
            let n = max(1, Int(min(Double(maximumBins), (span / width).rounded(.up))))
            // Run days with a distance and a weight (finite, the weight > 0; the forecast's own
            // are), the weights taken relative to the largest so that their sum stays finite.
            let valid = days.filter { $0.distance.isFinite && $0.distance >= 0 && $0.weight.isFinite && $0.weight > 0 }
            let top = valid.map(\.weight).max() ?? 1
            let total = valid.reduce(0) { $0 + $1.weight / top }
            // A run day's distance as bins (rounded to the nearest; a distance past the cap adds
            // the whole grid), each with its share of the weight.
            var kernel: [Int: Double] = [:]
            for day in valid {
                let bins = Int(min(Double(n), (day.distance / width).rounded()))
                kernel[bins, default: 0] += day.weight / top / total
            }
            let steps = kernel.sorted { $0.key < $1.key }
            var mass = [Double](repeating: 0, count: n + 1)
            for (bins, q) in steps { mass[bins] += q }  // today's run
            for chance in chances {
                let p = chance.clamped(to: 0...1, nan: 0)
                var next = mass.map { $0 * (1 - p) }
                for i in 0...n where mass[i] > 0 {
                    let carried = p * mass[i]
                    for (bins, q) in steps { next[min(n, i + bins)] += carried * q }
                }
                mass = next
            }
            var tail = [Double](repeating: 0, count: n + 1)
            var sum = 0.0
            for i in stride(from: n, through: 0, by: -1) {
                sum += mass[i]
                tail[i] = min(1, sum)
            }
            // Without a run day (no weight), nothing is added: only a total of 0 is reached.
            if steps.isEmpty { tail = [1] + [Double](repeating: 0, count: n) }
            self.tail = tail
        }

        /// The chance of adding at least `needed` metres, in [0, 1] (1 for needed ≤ 0, 0 for a
        /// NaN); beyond the cap it is the chance of reaching the cap.
        public func probability(adding needed: Meters) -> Double {
            guard !needed.isNaN else { return 0 }
            guard needed > 0 else { return 1 }
            guard spread > 0 else { return sumReaches(needed) }
            // The rest scaled by a week's factor f = e^(σZ): f·S ≥ needed ⟺ S ≥ needed / f.
            return WeeklyVolumeForecast.hermite.reduce(0) { $0 + $1.w * sumReaches(needed * exp(-spread * $1.z)) }
        }

        /// The chance that the unscaled sum reaches `needed` (> 0) metres.
        func sumReaches(_ needed: Meters) -> Double {
            // The first bin at or beyond `needed`, clamped to the grid before any conversion.
            let bins = Int(min(Double(tail.count - 1), (needed / width).rounded(.up)))
            return tail[max(0, bins)]
        }
    }
}
