import RunusCore

extension RunnerSimulator {
    /// Draws behind each weekly volume's truth: its standard error is at most
    /// 0.5 / √20 000 ≈ 0.0035, well under the 0.05 the forecast is judged by.
    static let weeklyTruthDraws = 20_000
    /// Mixed into the simulation's seed for the truth's own generator, so that computing a truth
    /// draws nothing from the runner's stream.
    static let weeklyTruthSeed: UInt64 = 0x5745_454B_4C59  // "WEEKLY"

    /// The true chance that a runner who runs on `day` completes a weekly volume offered that
    /// day (docs/simulation.md, record 0655): that the week's runs from `day` to Sunday add at
    /// least `needed` metres (the accepted target less the week's measured distance before
    /// `day`), every run being a habitual one (`RunPlan.habitual`: about the endurance of the
    /// offer day) and each day after `day` run as the simulator decides it: no run once a break
    /// has started (one starts on a day with `breakProbability` and outlasts any week), else a
    /// run with the weekday's probability. Estimated from `weeklyTruthDraws` draws of `rng`.
    ///
    /// A runner who tries another of the days' missions runs that attempt's distance instead of
    /// a habitual one; the truth leaves that out, so under a policy that offers other kinds too it
    /// is an approximation (measured in record 0655).
    static func weeklyVolumeTruth(needed: Meters, day: CivilDate, body: Physiology, preferredWeekdays: Set<Int>,
                                  rng: inout SeededGenerator) -> Double {
        guard needed > 0 else { return 1 }
        let chances = (1..<(8 - day.isoWeekday)).map { ahead in
            preferredWeekdays.contains(day.adding(days: ahead).isoWeekday) ? preferredDayProbability : otherDayProbability
        }
        var reached = 0
        for _ in 0..<weeklyTruthDraws {
            var total = RunPlan.habitual(state: body, rng: &rng).footDistance
            var onBreak = false
            for chance in chances where !onBreak && total < needed {
                if rng.bernoulli(breakProbability) { onBreak = true; continue }
                if rng.bernoulli(chance) { total += RunPlan.habitual(state: body, rng: &rng).footDistance }
            }
            if total >= needed { reached += 1 }
        }
        return Double(reached) / Double(weeklyTruthDraws)
    }
}
