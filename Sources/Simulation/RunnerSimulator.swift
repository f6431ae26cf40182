import RunusCore
import Tracking
import TrackFormats
import Missions
#if canImport(Glibc)
import Glibc
#endif

/// Everything one simulated runner produced, in the order it happened.
public struct SimulatedRunner: Sendable {
    public let profile: UserProfile
    public let runs: [RunRecord]
    public let assignments: [MissionAssignment]
    /// What each run's track says (best efforts, covered cells), in run order: the digests an
    /// engine reads from the stored tracks (record 0645).
    public let digests: [RunDigest]
    /// Whether each tried mission's attempt was drawn as a success (assignment id → success):
    /// the behaviour model's outcome before the track and the check; for tests of the simulator.
    let attempts: [String: Bool]
    /// The runner's latent 5 km race time once the last day is over, seconds: the truth a race
    /// forecast made the next day is judged by (docs/simulation.md, "Races").
    public let race5kAfter: Seconds
}

/// Simulates one runner day by day:
/// 1. the exploring policy offers one mission for the day, from the measured history;
/// 2. the runner decides whether to run (habit, preferred weekdays, occasional breaks);
/// 3. on a run day the runner tries the mission with probability `engagement`; whether the
///    attempt succeeds is drawn from `BehaviourModel` (the truth, kept as `p_true`);
/// 4. the track is synthesised from that attempt, measured by `RunMetrics`, and the stored
///    outcome is what `MissionEvaluator` says about the track; an attempt the check judges
///    otherwise than drawn is run again (at most `maxRedraws` times, record 0618);
/// 5. a mission not tried that day expires; the body adapts (`Physiology`).
public enum RunnerSimulator {
    /// Probability of starting a break (holiday, injury) on any day, and its length in days.
    static let breakProbability = 0.01
    static let breakLength: ClosedRange<Int> = 5...21
    /// Daily run probability on preferred weekdays and on the others.
    static let preferredDayProbability = 0.85
    static let otherDayProbability = 0.08
    /// Fresh draws of an attempt whose check disagrees with its drawn outcome before the check's
    /// verdict is stored as it is (record 0618).
    static let maxRedraws = 20

    /// Simulates with the exploring baseline policy (the default data and the training data).
    public static func simulate(runner index: Int, configuration: SimulationConfiguration) -> SimulatedRunner {
        simulate(runner: index, configuration: configuration, policy: nil)
    }

    /// Simulates with `policy` offering the day's missions (nil: the exploring baseline). With a
    /// policy, the runner picks one of the offers uniformly at random to try on a run day; the
    /// others expire. The baseline path draws exactly the random numbers it always drew, so
    /// existing seeds keep their bytes.
    public static func simulate(runner index: Int, configuration: SimulationConfiguration,
                                policy: (any OfferPolicy)?) -> SimulatedRunner {
        var rng = SeededGenerator(seed: configuration.seed, stream: UInt64(index))
        let traits = RunnerTraits.draw(index: index, rng: &rng)
        let synthesizer = TrackSynthesizer(traits: traits)
        let userID = traits.profile.id
        let offset = traits.profile.utcOffsetSeconds
        var body = Physiology(traits: traits)
        var observed = ObservedHistory()
        var runs: [RunRecord] = []
        var assignments: [MissionAssignment] = []
        var breakLeft = 0
        var attempts: [String: Bool] = [:]
        // Every run's digest, and the cells covered so far (the explorer check's "before").
        var digests: [RunDigest] = []
        var visited = Set<GridCell>()
        // Offers of earlier days still open (a streak or a weekly volume, records 0650 and 0655):
        // indices into `assignments`, each with its last day and whether a rest day ends it.
        var open: [(index: Int, last: CivilDate, endsOnRestDay: Bool)] = []

        for dayIndex in 0..<configuration.days {
            let day = configuration.startDay.adding(days: dayIndex)
            let dayStart = day.startInstant(utcOffset: offset)
            let offers: [PolicyOffer]
            if let policy {
                offers = policy.offers(for: traits.profile, history: runs, pastOffers: assignments, day: day, dayStart: dayStart,
                                       digests: digests)
            } else {
                offers = [PolicyOffer(spec: BaselinePolicy.offer(history: observed, now: dayStart, utcOffset: offset,
                                                                 digests: digests, rng: &rng),
                                      pComplete: BaselinePolicy.uninformedProbability,
                                      modelVersion: SimulationConfiguration.policyVersion)]
            }
            var dayAssignments = offers.enumerated().map { i, offer in
                MissionAssignment(
                    id: "\(userID)-\(day)-m\(i + 1)", userID: userID, day: day, kind: offer.spec.kind.rawValue,
                    specJSON: offer.spec.canonicalJSON, modelVersion: offer.modelVersion, pComplete: offer.pComplete,
                    xp: MissionXP.xp(for: offer.spec, pComplete: offer.pComplete), status: .expired, offeredAt: dayStart)
            }

            if breakLeft > 0 {
                breakLeft -= 1
            } else if rng.bernoulli(breakProbability) {
                breakLeft = rng.int(in: breakLength)
            }
            let preferred = traits.preferredWeekdays.contains(day.isoWeekday)
            let runs_today = breakLeft == 0
                && rng.bernoulli(preferred ? preferredDayProbability : otherDayProbability)
            guard runs_today else {
                // A day without a run ends every open streak (record 0650), and every offer whose
                // window ends today (a weekly volume on Sunday, record 0655): each was tried on its
                // offer day, so it failed; today's offers expire.
                open = open.filter { o in
                    guard o.endsOnRestDay || o.last <= day else { return true }
                    assignments[o.index].status = .failed
                    return false
                }
                assignments += dayAssignments
                body.endDay(ran: 0)
                continue
            }

            // A streak or a weekly volume is not tried by a run of its own: any run of its days
            // counts. The runner tries one of the day's other offers (with none of those, no mission).
            let tryable = offers.indices.filter { offers[$0].openDays == nil }
            var tries = rng.bernoulli(traits.engagement) && !tryable.isEmpty
            let chosen = policy != nil && tryable.count > 1 ? tryable[rng.int(in: 0...(tryable.count - 1))] : tryable.first ?? 0
            let spec = tryable.isEmpty ? MissionSpec.distance(minDistance: 1000) : offers[chosen].spec
            if tryable.isEmpty { tries = false }
            let longest = observed.longest28d(before: dayStart)
            if spec.kind == .longRun && longest == 0 { tries = false }  // an engine offered it without a recent run
            let weekSoFar = observed.weekSoFar(before: dayStart, utcOffset: offset)
            let familiarity = RunDigest.groundFamiliarity(digests)
            var bestEffort: Seconds?
            if case .personalBest(let d) = spec {
                bestEffort = RunDigest.bestEffort(over: d, in: digests)
                if bestEffort == nil { tries = false }  // nothing to beat: the check cannot decide
            }
            if spec.kind == .explorer && digests.isEmpty { tries = false }
            let pTrue = tries ? BehaviourModel.probability(of: spec, state: body, longest28d: longest,
                                                           usualStartHour: traits.startHour, weekSoFar: weekSoFar,
                                                           familiarity: familiarity, bestEffort: bestEffort) : 0
            let succeed = rng.bernoulli(pTrue)
            if tries { attempts[dayAssignments[chosen].id] = succeed }
            // The long-run check needs the earlier runs; the others only the run itself; a
            // personal best the earlier best efforts, an explorer mission the cells covered before.
            let context: MissionContext
            switch spec.kind {
            case .personalBest:
                context = MissionContext(priorRuns: digests.map { PriorRun(start: $0.start, utcOffset: offset, distance: 0,
                                                                           bestEfforts: $0.bestEfforts) },
                                         utcOffset: offset)
            case .explorer:
                context = MissionContext(visitedCells: visited, utcOffset: offset)
            default:
                context = spec.kind.needsContext
                    ? MissionContext(priorRuns: observed.recentRuns.map { PriorRun(start: $0.start, utcOffset: offset, distance: $0.distance) },
                                     utcOffset: offset)
                    : .empty
            }
            // An attempt whose measured track the check judges otherwise than the drawn outcome
            // (noise, a stop or a dropout near the tolerance) is run again from a fresh draw, up to
            // `maxRedraws` times, so that the stored label is the drawn outcome: Bernoulli(p_true)
            // (record 0618). Runs without a mission are never redrawn.
            var plan: RunPlan, track: Track, metrics: RunMetrics
            var evaluation: MissionEvaluation? = nil
            var draw = 0
            repeat {
                plan = tries
                    ? RunPlan.attempt(spec, succeed: succeed, state: body, longest28d: longest,
                                      usualStartHour: traits.startHour, weekSoFar: weekSoFar, bestEffort: bestEffort,
                                      rng: &rng)
                    : RunPlan.habitual(state: body, rng: &rng)
                var plannedPlan = plan
                if traits.driveProbability > 0, rng.bernoulli(traits.driveProbability) {
                    plannedPlan.legs.insert(RunPlan.Leg(distance: rng.uniform(2000, 6000), pace: 100, mode: .drive), at: 0)
                }
                let usualHour = min(22.5, max(4.5, traits.startHour + rng.gaussian(mean: 0, sd: 0.75)))
                let hour = plannedPlan.startHour ?? usualHour
                let start = (dayStart + hour * 3600).rounded()
                track = synthesizer.track(plan: plannedPlan, start: start, rng: &rng)
                metrics = RunMetrics(track: track, weightKg: traits.profile.weightKg)
                if tries {
                    // Loops and explorer are checked on positions; the other kinds on the metrics alone.
                    let run = spec.kind == .loop || spec.kind == .explorer
                        ? MissionRun(track: track, metrics: metrics) : MissionRun(metrics: metrics)
                    evaluation = MissionEvaluator.evaluate(spec, run: run, context: context)
                }
                draw += 1
            } while tries && (evaluation!.status == .completed) != succeed && draw <= maxRedraws
            let run = RunRecord(
                id: "\(userID)-\(day)-r1", userID: userID, startTime: metrics.startTime,
                distance: metrics.distance, elapsed: metrics.elapsed, moving: metrics.moving,
                elevationGain: metrics.elevationGain, calories: metrics.calories, source: "simulated",
                track: CompactTrackCodec.encode(track))
            runs.append(run)
            observed.record(start: metrics.startTime, distance: metrics.distance, movingPace: metrics.movingPace)
            if let digest = RunDigest(run: MissionRun(track: track, metrics: metrics)) {
                digests.append(digest)
                visited.formUnion(digest.cells)
            }

            if tries, let evaluation {
                dayAssignments[chosen].status = evaluation.status == .completed ? .completed : .failed
                dayAssignments[chosen].runID = run.id
                dayAssignments[chosen].progress = evaluation.progress
                dayAssignments[chosen].pTrue = pTrue
            }
            // Streaks and weekly volumes: today's run starts today's (its truth: the chance of
            // running on each day a streak still needs; of the week's runs reaching the target)
            // and is checked against every open one.
            for i in dayAssignments.indices where offers[i].openDays != nil {
                dayAssignments[i].status = .offered
                switch offers[i].spec {
                case .weeklyVolume(let target):
                    var draws = SeededGenerator(seed: configuration.seed ^ Self.weeklyTruthSeed,
                                                stream: UInt64(index) << 32 | UInt64(dayIndex))
                    dayAssignments[i].pTrue = Self.weeklyVolumeTruth(
                        needed: target * MissionTolerance.default.distanceFraction - weekSoFar, day: day,
                        body: body, preferredWeekdays: traits.preferredWeekdays, rng: &draws)
                default:
                    dayAssignments[i].pTrue = Self.streakTruth(offers[i].spec, day: day, runs: runs, utcOffset: offset,
                                                               preferredWeekdays: traits.preferredWeekdays)
                }
            }
            let base = assignments.count
            assignments += dayAssignments
            for i in dayAssignments.indices where dayAssignments[i].status == .offered {
                let days = max(1, offers[i].openDays ?? 1)
                open.append((base + i, day.adding(days: days - 1), offers[i].spec.endsOnRestDay))
            }
            let streakContext = open.isEmpty ? .empty : MissionContext(
                priorRuns: runs.dropLast().map { PriorRun(start: $0.startTime, utcOffset: offset, distance: $0.distance) },
                utcOffset: offset)
            open = open.filter { o in
                let i = o.index
                guard let spec = try? MissionSpec(json: try JSONParser.parse(assignments[i].specJSON)) else { return false }
                let e = MissionEvaluator.evaluate(spec, run: MissionRun(metrics: metrics), context: streakContext)
                assignments[i].progress = max(assignments[i].progress ?? 0, e.progress)
                if e.status == .completed {
                    assignments[i].status = .completed
                    assignments[i].runID = run.id
                    return false
                }
                if o.last <= day {
                    assignments[i].status = .failed
                    return false
                }
                return true
            }
            body.endDay(ran: plan.footDistance)
        }
        // Offers still running when the simulation ends are left out (no outcome yet).
        for o in open { assignments[o.index].status = .expired; assignments[o.index].pTrue = nil }
        return SimulatedRunner(profile: traits.profile, runs: runs, assignments: assignments, digests: digests, attempts: attempts,
                               race5kAfter: body.current5k)
    }

    /// The true chance that a runner who ran on `day` (the last of `runs`) completes a streak
    /// offered that day (docs/simulation.md): no break may start on any day the streak still
    /// needs after `day` (a break lasts longer than any window), and the runner runs on each of
    /// them with the weekday's probability.
    static func streakTruth(_ spec: MissionSpec, day: CivilDate, runs: [RunRecord], utcOffset: Int,
                            preferredWeekdays: Set<Int>) -> Double {
        guard case .streak(let n) = spec else { return 0 }
        let runDays = Set(runs.map { CivilDate(instant: $0.startTime, utcOffset: utcOffset) })
        var behind = 0
        while runDays.contains(day.adding(days: -(behind + 1))) { behind += 1 }
        let needed = max(0, n - 1 - behind)
        var p = 1.0
        for ahead in stride(from: 1, through: needed, by: 1) {
            let preferred = preferredWeekdays.contains(day.adding(days: ahead).isoWeekday)
            p *= (1 - breakProbability) * (preferred ? preferredDayProbability : otherDayProbability)
        }
        return p
    }
}
