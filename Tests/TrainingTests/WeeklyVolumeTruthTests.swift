import Testing
import RunusCore
import Engine
import Features
import Missions
import Simulation
import Training

/// Offers the weekly volume `TodayPolicy` would place nearest the band's centre, alone, on every
/// day no weekly volume of the runner is open: every run is then a habitual one, the runner
/// the simulated truth describes (record 0655).
private struct WeeklyOnlyPolicy: OfferPolicy {
    static let target = 0.75
    /// The shipped model's (record 0668), as the daemon serving it forecasts.
    let prior: SchedulePrior

    func offers(for profile: UserProfile, history: [RunRecord], pastOffers: [MissionAssignment],
                day: CivilDate, dayStart: EpochSeconds, digests: [RunDigest]) -> [PolicyOffer] {
        let open = pastOffers.contains {
            $0.kind == MissionKind.weeklyVolume.rawValue && $0.status == .offered && MissionWindow.lastDay(of: $0) >= day
        }
        guard !open else { return [] }
        let state = RunnerState(history: history, asOf: dayStart, utcOffset: profile.utcOffsetSeconds)
        let scored = CandidateGenerator.weekVolumes(for: state).compactMap { spec -> (MissionSpec, Double)? in
            guard case .weeklyVolume(let target) = spec,
                  let p = WeeklyVolumeForecast.probability(target: target, state: state, prior: prior) else { return nil }
            return (spec, p)
        }
        guard let best = scored.min(by: { abs($0.1 - Self.target) < abs($1.1 - Self.target) }) else { return [] }
        return [PolicyOffer(spec: best.0, pComplete: best.1, modelVersion: "weekly-only-1",
                            openDays: best.0.policyOfferWindow(offeredOn: day))]
    }
}

/// Record 0655 and docs/simulation.md: on simulated runners offered a week-long weekly volume
/// whenever none is open, the forecast tracks the true probability (the chance that the week's
/// habitual runs reach the target), the realised rate is near the predicted one, and each
/// offer's stored outcome is what the week's measured runs say.
@Suite("weekly volumes on simulated runners")
struct WeeklyVolumeTruthTests {
    /// Issue 25's per-kind goal for mean |p̂ − p_true|.
    static let truthGoal = 0.05
    /// Standard errors of the realised rate allowed around the mean prediction.
    static let errors = 3.0

    @Test("mean |p̂ − p_true| of offered weekly volumes ≤ 0.05 (a known miss, ≤ 0.10); realised near predicted and true; outcomes match the week's runs")
    func forecastTracksTruth() throws {
        let configuration = SimulationConfiguration(runners: 24, days: 120, seed: 17)
        let policy = WeeklyOnlyPolicy(prior: try shippedSchedulePrior())
        let runners = ParallelMap.map(count: configuration.runners) {
            RunnerSimulator.simulate(runner: $0, configuration: configuration, policy: policy)
        }
        var tried = 0, completed = 0, predicted = 0.0, truth = 0.0, gap = 0.0
        for runner in runners {
            let offset = runner.profile.utcOffsetSeconds
            for a in runner.assignments where a.kind == MissionKind.weeklyVolume.rawValue {
                guard case .weeklyVolume(let target) = try MissionSpec(json: try JSONParser.parse(a.specJSON)) else { continue }
                let runDays = runner.runs.map { CivilDate(instant: $0.startTime, utcOffset: offset) }
                guard let p = a.pTrue else {
                    // Not tried: no run on its day, or the simulation ended in its week.
                    #expect(a.status == .expired, "\(a.id): \(a.status)")
                    continue
                }
                #expect(runDays.contains(a.day), "\(a.id) tried without a run on its day")
                tried += 1
                predicted += a.pComplete
                truth += p
                gap += abs(a.pComplete - p)
                // The week's measured distance up to each day of the window, against the accepted target.
                let monday = a.day.adding(days: 1 - a.day.isoWeekday), sunday = monday.adding(days: 6)
                let week = zip(runner.runs, runDays).filter { $0.1 >= monday && $0.1 <= sunday }.reduce(0) { $0 + $1.0.distance }
                let reached = week >= target * MissionTolerance.default.distanceFraction
                #expect((a.status == .completed) == reached, "\(a.id): \(a.status), the week ran \(week) m of \(target)")
                if a.status == .completed { completed += 1 }
            }
        }
        try #require(tried >= 150, "weekly volumes tried: \(tried)")
        let n = Double(tried)
        let meanGap = gap / n, meanPredicted = predicted / n, meanTruth = truth / n, rate = Double(completed) / n
        print("weekly volume: mean |p̂ − p_true| \(TrainingPipeline.rounded(meanGap)), realised \(TrainingPipeline.rounded(rate)) "
              + "at a predicted \(TrainingPipeline.rounded(meanPredicted)) (true \(TrainingPipeline.rounded(meanTruth))) over \(tried)")
        // The day chances are the streak forecast's, shrunk toward the shipped model's schedule
        // prior (record 0668: 0.086 → 0.068). What is left is the run days' distances: a
        // runner's level is read from the last weeks' runs while the simulated endurance drifts
        // (docs/performance/multi-day-forecasts.md: no half-life, and not a log-normal with the
        // simulator's own spread, reaches 0.05).
        withKnownIssue("the weekly-volume forecast misses the per-kind bound through its distances (records 0655, 0668)", isIntermittent: true) {
            #expect(meanGap <= Self.truthGoal, "mean |p̂ − p_true| \(meanGap) over \(tried)")
        }
        #expect(meanGap <= 2 * Self.truthGoal, "mean |p̂ − p_true| \(meanGap) over \(tried)")
        let se = (meanPredicted * (1 - meanPredicted) / n).squareRoot()
        #expect(abs(rate - meanPredicted) <= Self.errors * se, "realised \(rate), predicted \(meanPredicted), n \(tried)")
        // The truth describes these runners: the realised rate is near it too.
        #expect(abs(rate - meanTruth) <= Self.errors * se, "realised \(rate), true \(meanTruth), n \(tried)")
    }
}
