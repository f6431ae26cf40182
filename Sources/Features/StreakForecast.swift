#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Missions

/// The chance that a runner who runs today completes a streak offered today (records 0650,
/// 0660): the product, over the days after today that the streak still needs, of the chance
/// that the runner stays off a break (`BreakRule.stayChance`) and runs on that day. The chance
/// of running on an active day is read from the last 12 weeks: the share of that weekday's
/// days with a run, each day weighing 0.5^(weeks back / `recencyHalfLifeWeeks`) times its
/// chance of having been active (`breakRule`: a two-state chain of active days and breaks,
/// read by expectation–maximisation), shrunk by `priorWeight` days toward the share of its
/// class, the runner's usual days (weekdays run on at least half the time) or the others; the
/// class's share is itself shrunk toward the pooled share of the served model's `SchedulePrior`
/// (record 0668; none for models without one). Pure: reads `RunnerState.runDaysBack` only.
///
/// The trained models do not score streaks: their labels are single runs, and a streak is
/// decided by whether the runner runs on the next days, which the schedule says more about
/// than any run's features.
public enum StreakForecast {
    /// Days of the class's share that a weekday's share is shrunk toward.
    public static let priorWeight = 16.0
    /// Age in weeks at which a day counts half in the shares: run days cluster (training
    /// blocks, holidays, injuries), so recent weeks say more about the next days.
    public static let recencyHalfLifeWeeks = 3.0
    /// Days of record (since the first run's day) before a streak is forecast: with fewer, one
    /// or two of each weekday say too little (record 0650).
    public static let minimumDaysKnown = 28
    /// Share of a weekday's days with a run from which it is one of the runner's usual days.
    public static let usualShare = 0.5
    /// How breaks are left out of the shares (record 0660).
    public static let breakRule: BreakRule = .chain(startChance: 0.02, meanDays: 7)
    /// Expectation–maximisation rounds of `BreakRule.chain`, from the inactive-week shares (on
    /// the real runners of record 0660 the streak log loss is 0.395 after one round, 0.390
    /// after three, 0.388 after six and after twelve).
    static let chainIterations = 6
    /// The weekday shares a chain's active day is run with, kept off 0 and 1 so that one
    /// unusual day is never certain evidence of a break.
    static let emissionBounds: ClosedRange<Double> = 0.01...0.99

    /// Consecutive local days with a run ending yesterday (within `RunnerState.runDayWindow`).
    public static func daysBehind(_ state: RunnerState) -> Int {
        var k = 0
        while k + 1 < state.runDaysBack.count, state.runDaysBack[k + 1] { k += 1 }
        return k
    }

    /// Days after today a streak of `days` still needs when the runner runs today: the days in
    /// a row behind today count (0: today's run completes it).
    public static func daysNeeded(_ days: Int, state: RunnerState) -> Int {
        max(0, days - 1 - daysBehind(state))
    }

    /// The runner's chance of running on the local day `ahead` days after today (≥ 1), in [0, 1],
    /// as the weekly-volume forecast reads it: the weekday's share (`Schedule.runChance`); 0
    /// without an active day. `weight`: the days of the class's share it is shrunk by;
    /// `halfLifeWeeks`: the age at which a week counts half (nil: every week the same);
    /// `breaks`: how breaks are left out. All are the shipped ones unless evaluating.
    public static func dayProbability(ahead: Int, state: RunnerState, weight: Double = priorWeight,
                                      halfLifeWeeks: Double? = recencyHalfLifeWeeks, breaks: BreakRule = breakRule,
                                      prior: SchedulePrior = .none) -> Double {
        schedule(state, weight: weight, halfLifeWeeks: halfLifeWeeks, breaks: breaks, prior: prior).runChance(ahead: ahead)
    }

    /// The chance of completing a streak of `days` offered today, given that the runner runs
    /// today, in [0, 1]: 1 when today's run completes it. `schedule`: `schedule(state, prior:)`
    /// when the caller already has it (one serves every streak of the day), else read here with
    /// `prior` (the served model's).
    public static func probability(days: Int, state: RunnerState, schedule known: Schedule? = nil,
                                   prior: SchedulePrior = .none) -> Double {
        let needed = daysNeeded(days, state: state)
        guard needed > 0 else { return 1 }
        return (known ?? schedule(state, prior: prior)).streakChance(needed: needed)
    }

    /// The runner's weekday shares as of `state`, read with the given settings (the shipped
    /// ones unless evaluating), each class's share shrunk toward `prior` (record 0668; the
    /// served model's, `SchedulePrior.none` without one).
    public static func schedule(_ state: RunnerState, weight: Double = priorWeight, halfLifeWeeks: Double? = recencyHalfLifeWeeks,
                                breaks: BreakRule = breakRule, prior: SchedulePrior = .none) -> Schedule {
        counts(state, weight: weight, halfLifeWeeks: halfLifeWeeks, breaks: breaks).schedule(weight: weight, prior: prior)
    }

    /// The recency-weighted active days of each weekday and the days run among them, as of
    /// `state`, with breaks left out by `breaks`. The chain's activity is read from the runner's
    /// own shares (shrunk by `weight` toward their class): a prior moves the day chances, not
    /// where the breaks were.
    public static func counts(_ state: RunnerState, weight: Double = priorWeight, halfLifeWeeks: Double? = recencyHalfLifeWeeks,
                              breaks: BreakRule = breakRule) -> ShareCounts {
        let span = daysKnown(state)
        let activity: [Double]
        switch breaks {
        case .inactiveWeeks:
            activity = (0...span).map { $0 > 0 && isActiveWeek(containing: $0, state: state) ? 1 : 0 }
        case .gap(let days):
            let inBreak = breakDaysBack(state, longest: days)
            activity = (0...span).map { $0 > 0 && !inBreak[$0] ? 1 : 0 }
        case .chain(let start, let mean):
            // Expectation–maximisation from the inactive-week shares: the days' chances of being
            // active given the shares, then the shares given those chances.
            var shares = Self.counts(state, weight: weight, halfLifeWeeks: halfLifeWeeks, breaks: .inactiveWeeks)
                .shares(weight: weight, prior: .none)
            var chances = [Double]()
            for round in 0..<chainIterations {
                chances = activeChances(state, span: span, shares: shares, startChance: start, meanDays: mean)
                if round + 1 < chainIterations {
                    shares = ShareCounts(state, span: span, activity: chances, halfLifeWeeks: halfLifeWeeks, breaks: breaks)
                        .shares(weight: weight, prior: .none)
                }
            }
            return ShareCounts(state, span: span, activity: chances, halfLifeWeeks: halfLifeWeeks, breaks: breaks)
        }
        return ShareCounts(state, span: span, activity: activity, halfLifeWeeks: halfLifeWeeks, breaks: breaks)
    }

    /// A runner's chance of running on each weekday when active, and the break rule that read it.
    public struct Schedule: Sendable, Equatable {
        public let breaks: BreakRule
        /// shares[r]: the chance of running on an active day r days (mod 7) after today, in [0, 1].
        public let shares: [Double]

        /// The weekday's share of the day `ahead` days after today.
        public func share(ahead: Int) -> Double { shares[((ahead % 7) + 7) % 7] }

        /// The chance of a run on the day `ahead` (≥ 1) days after today, given a run today, as
        /// the weekly-volume forecast reads it: the weekday's share. Unlike `streakChance` it
        /// does not take the chain's chance of a break starting on the way: on the real runners
        /// that made the weekly volumes the policy offers come true more often than forecast
        /// (0.774 at 0.755, 0.756 without; record 0660).
        public func runChance(ahead: Int) -> Double { share(ahead: ahead) }

        /// The chance of a run on each of the `needed` days after today, given a run today:
        /// each must stay active (`BreakRule.stayChance`) and be run.
        public func streakChance(needed: Int) -> Double {
            var p = 1.0
            for ahead in stride(from: 1, through: needed, by: 1) { p *= breaks.stayChance * share(ahead: ahead) }
            return p
        }
    }

    /// A runner's recency-weighted active days of each weekday (index r: the weekday r days
    /// after today, mod 7) and the days run among them: what the weekday shares are read from.
    public struct ShareCounts: Sendable, Equatable {
        /// ran[r]: the weighted active days of weekday r with a run, ≥ 0.
        public let ran: [Double]
        /// seen[r]: the weighted active days of weekday r, ≥ ran[r].
        public let seen: [Double]
        /// How breaks were left out of the counts; a schedule's streaks stay active by it.
        public let breaks: BreakRule

        /// The days 1 … `span` back, day b counting `activity[b]` (in [0, 1]) times its recency
        /// weight 0.5^(w / `halfLifeWeeks`) (1 without one; w the whole weeks between it and
        /// yesterday's week).
        init(_ state: RunnerState, span: Int, activity: [Double], halfLifeWeeks: Double?, breaks: BreakRule) {
            var ran = [Double](repeating: 0, count: 7), seen = [Double](repeating: 0, count: 7)
            for b in stride(from: 1, through: min(span, activity.count - 1, state.runDaysBack.count - 1), by: 1) where activity[b] > 0 {
                let r = ((-b % 7) + 7) % 7
                let w = activity[b] * (halfLifeWeeks.map { pow(0.5, Double((b - 1) / 7) / $0) } ?? 1)
                seen[r] += w
                if state.runDaysBack[b] { ran[r] += w }
            }
            self.ran = ran; self.seen = seen; self.breaks = breaks
        }

        /// The schedule of `shares(weight:prior:)`, under the break rule the counts were read with.
        public func schedule(weight: Double = priorWeight, prior: SchedulePrior) -> Schedule {
            Schedule(breaks: breaks, shares: shares(weight: weight, prior: prior))
        }

        /// Whether weekday r is one of the runner's usual days: active at least once and run on
        /// at least `usualShare` of its active days.
        public func isUsual(_ r: Int) -> Bool { seen[r] > 0 && ran[r] >= usualShare * seen[r] }

        /// The weighted days run and active of the class (usual or other) weekday r belongs to.
        public func classCounts(of r: Int) -> (ran: Double, seen: Double) {
            let usual = isUsual(r)
            var ran = 0.0, seen = 0.0
            for q in 0..<7 where self.seen[q] > 0 && isUsual(q) == usual { ran += self.ran[q]; seen += self.seen[q] }
            return (ran, seen)
        }

        /// The seven weekday shares: each weekday's days shrunk by `weight` days toward its
        /// class's share, which `prior` shrinks toward the pooled share of that class (record
        /// 0668). 0 for every weekday when its class has no active day.
        public func shares(weight: Double, prior: SchedulePrior) -> [Double] {
            (0..<7).map { r in
                let c = classCounts(of: r)
                guard c.seen > 0 else { return 0 }
                let classShare = prior.classShare(ran: c.ran, seen: c.seen, usual: isUsual(r))
                return ((ran[r] + weight * classShare) / (seen[r] + weight)).clamped(to: 0...1, nan: 0)
            }
        }
    }

    /// For each day b = 0 … `span` back, the chance that the runner was active (not on a
    /// break) given the run days of the record and today's run, under `BreakRule.chain`: the
    /// forward–backward recursion of a two-state chain whose active days are run with the
    /// weekday's share (kept within `emissionBounds`) and whose break days have no run. The
    /// oldest day starts from the chain's stationary chances.
    static func activeChances(_ state: RunnerState, span: Int, shares: [Double], startChance: Double, meanDays: Double) -> [Double] {
        let n = min(span, state.runDaysBack.count - 1)
        guard n >= 1 else { return [Double](repeating: 1, count: span + 1) }
        // A chain's transitions always exist; they are kept within the rule's bounds.
        let (start, end) = BreakRule.chain(startChance: startChance, meanDays: meanDays).transitions ?? (0, 1)
        // Emission chances (active, break) of day b; today's run is given, so today is active.
        func emission(_ b: Int) -> (Double, Double) {
            guard b > 0 else { return (1, 0) }
            let q = shares[((-b % 7) + 7) % 7].clamped(to: emissionBounds, nan: emissionBounds.lowerBound)
            return state.runDaysBack[b] ? (q, 0) : (1 - q, 1)
        }
        // Time runs from b = n (oldest) to b = 0 (today); each step's pair is normalised.
        var forward = [(Double, Double)](repeating: (0, 0), count: n + 1)
        var prior = (end / (start + end), start / (start + end))
        for b in stride(from: n, through: 0, by: -1) {
            let e = emission(b)
            var f = (prior.0 * e.0, prior.1 * e.1)
            let total = f.0 + f.1
            f = total > 0 ? (f.0 / total, f.1 / total) : (1, 0)
            forward[b] = f
            prior = (f.0 * (1 - start) + f.1 * end, f.0 * start + f.1 * (1 - end))
        }
        var out = [Double](repeating: 1, count: span + 1)
        var backward = (1.0, 1.0)
        for b in stride(from: 0, through: n, by: 1) {
            if b > 0 {
                // The chance of the later days' record from day b in each state.
                let e = emission(b - 1)
                var g = ((1 - start) * e.0 * backward.0 + start * e.1 * backward.1,
                         end * e.0 * backward.0 + (1 - end) * e.1 * backward.1)
                let total = g.0 + g.1
                g = total > 0 ? (g.0 / total, g.1 / total) : (1, 1)
                backward = g
            }
            let a = forward[b].0 * backward.0, z = a + forward[b].1 * backward.1
            out[b] = z > 0 ? a / z : 1
        }
        return out
    }

    /// Of the days before today in active weeks since the first run's day (at most 12 weeks) on
    /// the weekday of the day `ahead` days on (b ≡ −ahead mod 7 days back): how many had a run,
    /// and how many there were.
    public static func weekdayCount(ahead: Int, state: RunnerState) -> (ran: Int, seen: Int) {
        let days = weekdays(ahead: ahead, state: state)
        return (days.filter(\.ran).count, days.count)
    }

    /// The days `weekdayCount` reads, newest first: whole weeks between each and yesterday's
    /// week, and whether it had a run.
    static func weekdays(ahead: Int, state: RunnerState) -> [(weeksBack: Int, ran: Bool)] {
        let span = daysKnown(state)
        let rest = ((ahead % 7) + 7) % 7
        let first = rest == 0 ? 7 : 7 - rest
        guard first <= span else { return [] }
        return stride(from: first, through: span, by: 7).filter { isActiveWeek(containing: $0, state: state) }
            .map { b in ((b - 1) / 7, state.runDaysBack[b]) }
    }

    /// Days back (index b, as `runDaysBack`) that lie in a break: a run of at least `longest`
    /// days without a run, between two run days (today counts as one: the forecast is given a
    /// run today) or reaching the end of the record.
    static func breakDaysBack(_ state: RunnerState, longest: Int) -> [Bool] {
        let days = state.runDaysBack
        var out = [Bool](repeating: false, count: days.count)
        var b = 1
        while b < days.count {
            guard !days[b] else { b += 1; continue }
            var end = b
            while end + 1 < days.count, !days[end + 1] { end += 1 }
            if end - b + 1 >= longest { for k in b...end { out[k] = true } }
            b = end + 1
        }
        return out
    }

    /// Days before today the runner's record covers: since the first run's day, at most `RunnerState.runDayWindow`.
    public static func daysKnown(_ state: RunnerState) -> Int {
        max(0, min(state.daysSinceFirstRunDay - 1, RunnerState.runDayWindow, state.runDaysBack.count - 1))
    }

    /// Whether the 7-day window back from yesterday holding day `b` (days back, ≥ 1) had a run.
    static func isActiveWeek(containing b: Int, state: RunnerState) -> Bool {
        let first = (b - 1) / 7 * 7 + 1
        let last = min(first + 6, state.runDaysBack.count - 1)
        return first <= last && state.runDaysBack[first...last].contains(true)
    }
}
