import RunusCore
import Features
import Missions

/// A mission chosen for a runner, with what the runner is shown.
public struct ChosenMission: Sendable, Equatable {
    public let spec: MissionSpec
    public let title: String
    /// Model's completion probability in [0, 1].
    public let pComplete: Double
    public let xp: Int
    /// One plain sentence: why this mission.
    public let why: String
    /// The day's stretch mission (probability about 0.4–0.5) rather than a daily one.
    public let isStretch: Bool
}

/// What the policy remembers of recent days so that it does not repeat itself.
public struct PolicyMemory: Sendable, Equatable {
    /// Canonical specs offered recently and not completed (failed, expired or replaced): not
    /// offered again at once.
    public var recentSpecs: Set<String> = []
    /// How often each kind was offered in the last `kindDays` days: rotates kinds (record 0643).
    public var recentKinds: [MissionKind: Int] = [:]
    /// Kinds offered on each of the two days before (record 0643): offering one again would make
    /// three days in a row, which the policy does only when nothing else fits.
    public var twoDayKinds: Set<MissionKind> = []

    /// Kinds of offers of earlier days still open on the day (a streak or a weekly volume,
    /// records 0650 and 0655): not offered again until that one is over.
    public var openKinds: Set<MissionKind> = []
    /// Kinds offered once a calendar week (`weeklyKinds`) that the day's week has offered
    /// already, on an earlier day (record 0655): one weekly goal a week, even once completed.
    public var weekKinds: Set<MissionKind> = []

    /// Kinds the policy offers at most once a local calendar week (Monday to Sunday).
    public static let weeklyKinds: Set<MissionKind> = [.weeklyVolume]

    public init(recentSpecs: Set<String> = [], recentKinds: [MissionKind: Int] = [:], twoDayKinds: Set<MissionKind> = [],
                openKinds: Set<MissionKind> = [], weekKinds: Set<MissionKind> = []) {
        self.recentSpecs = recentSpecs; self.recentKinds = recentKinds; self.twoDayKinds = twoDayKinds
        self.openKinds = openKinds; self.weekKinds = weekKinds
    }

    /// Days of offers whose specs are not offered again at once.
    public static let days = 3
    /// Days of offers whose kinds rotate (record 0643): with 3 daily missions, a week holds 21
    /// offers, more than there are kinds.
    public static let kindDays = 7

    /// The memory for `day` from a runner's offers (any order), whichever model offered them.
    /// An offer still `offered` whose window (`MissionWindow`) reaches `day` keeps its kind
    /// open; `MissionService` also drops those a day without a run has ended.
    public init(offers: [MissionAssignment], before day: CivilDate) {
        let first = day.adding(days: -Self.days)
        let firstForKinds = day.adding(days: -Self.kindDays)
        var yesterday: Set<MissionKind> = [], dayBefore: Set<MissionKind> = []
        for a in offers where a.day < day && a.status == .offered && MissionWindow.lastDay(of: a) >= day {
            if let kind = MissionKind(rawValue: a.kind) { openKinds.insert(kind) }
        }
        let monday = day.adding(days: 1 - day.isoWeekday)
        for a in offers where a.day >= monday && a.day < day && a.role.isPolicyOffer && a.status != .replaced {
            if let kind = MissionKind(rawValue: a.kind), Self.weeklyKinds.contains(kind) { weekKinds.insert(kind) }
        }
        for a in offers where a.day >= firstForKinds && a.day < day {
            if a.status != .completed && a.day >= first { recentSpecs.insert(a.specJSON) }
            guard let kind = MissionKind(rawValue: a.kind) else { continue }
            recentKinds[kind, default: 0] += 1
            if a.day == day.adding(days: -1) { yesterday.insert(kind) }
            if a.day == day.adding(days: -2) { dayBefore.insert(kind) }
        }
        twoDayKinds = yesterday.intersection(dayBefore)
    }
}

/// Picks today's missions: every candidate is scored, each kind contributes its candidate closest
/// to the middle of the target band, and the k kinds closest to the band win; then one stretch
/// mission closest to the stretch target. "Challenging yet achievable": the default band
/// 0.65–0.85 sits between the 0.5 motivation peak (Atkinson) and the 0.85 learning optimum
/// (Wilson et al. 2019); the stretch band 0.4–0.5 is the weekly "boss" level of the anchors;
/// see docs/decisions/0003-target-band.md. Variety (record 0643): among the kinds whose best
/// candidate is in the band, those offered least in the last week come first (then the closest
/// to the centre); a kind offered on each of the two days before comes after every other kind
/// in the band; specs recently offered and not completed are left out.
public struct TodayPolicy: Sendable {
    public var band: ClosedRange<Double>
    public var count: Int
    /// Probability band of the stretch mission; nil: no stretch mission.
    public var stretchBand: ClosedRange<Double>?

    /// The kinds the policy offers, in ranking order for ties: the model's kinds, then streak.
    public static let kinds: [MissionKind] = MissionFeatures.kinds + [.streak]

    public init(band: ClosedRange<Double> = 0.65...0.85, count: Int = 3, stretchBand: ClosedRange<Double>? = 0.4...0.5) {
        self.band = band; self.count = count; self.stretchBand = stretchBand
    }

    public func choose(state: RunnerState, scorer: MissionScorer, memory: PolicyMemory = PolicyMemory()) -> [ChosenMission] {
        let fresh = CandidateGenerator.candidates(for: state).filter {
            !memory.recentSpecs.contains($0.canonicalJSON) && !memory.openKinds.contains($0.kind)
                && !memory.weekKinds.contains($0.kind)
        }
        // The model scores the kinds it was trained on; offers decided by the days after today
        // are scored by the runner's schedule: a streak (`StreakForecast`, record 0650) and a
        // weekly volume open for the rest of the week (`WeeklyVolumeForecast`, record 0655).
        var scored = Self.forecasts(fresh, state: state, prior: scorer.schedulePrior)
        let modelled = fresh.indices.filter { scored[$0] == nil && MissionFeatures.models(fresh[$0].kind) }
        for (i, p) in zip(modelled, scorer.probabilities(modelled.map { MissionFeatures.vector(fresh[$0], state: state) })) {
            scored[i] = p
        }
        // A probability that is not a number cannot be placed against the band: that candidate
        // is not offered (features are finite, so this is a last line of defence).
        let kept = fresh.indices.filter { scored[$0]?.isFinite == true }
        let candidates = kept.map { fresh[$0] }
        let probabilities = kept.map { scored[$0] ?? .nan }
        let centre = (band.lowerBound + band.upperBound) / 2
        func distance(_ p: Double) -> Double {
            band.contains(p) ? abs(p - centre) : 1 + min(abs(p - band.lowerBound), abs(p - band.upperBound))
        }
        // Best candidate per kind; ties keep the earlier (easier) candidate.
        var best: [MissionKind: Int] = [:]
        for (i, spec) in candidates.enumerated() {
            if let j = best[spec.kind], distance(probabilities[j]) <= distance(probabilities[i]) { continue }
            best[spec.kind] = i
        }
        // Variety (record 0643): a kind offered on each of the two days before ranks after every
        // other kind whose best candidate is in the band, so it makes three days in a row only
        // when nothing else fits; out-of-band kinds come last, the repeated ones after the others.
        // Within the band, the kinds offered least in the last week first, then the closest to
        // the centre; outside it, the closest to the band.
        func tier(_ i: Int) -> Int {
            let repeated = memory.twoDayKinds.contains(candidates[i].kind) ? 1 : 0
            return (band.contains(probabilities[i]) ? 0 : 2) + repeated
        }
        func offered(_ i: Int) -> Int { band.contains(probabilities[i]) ? memory.recentKinds[candidates[i].kind] ?? 0 : 0 }
        let ranked = Self.kinds.compactMap { best[$0] }
            .sorted { (tier($0), offered($0), distance(probabilities[$0]), $0) < (tier($1), offered($1), distance(probabilities[$1]), $1) }
        var chosen = Array(ranked.prefix(count))
        var stretch: Int?
        if let stretchBand {
            let target = (stretchBand.lowerBound + stretchBand.upperBound) / 2
            let taken = Set(chosen.map { candidates[$0] })
            // One open offer of a kind whose offers span days at a time (records 0650, 0655): no
            // second streak or weekly volume.
            let multiDay = Set(chosen.map { candidates[$0].kind }.filter { MissionWindow.windowKinds.contains($0.rawValue) })
            // A kind none of the day's missions has comes first (record 0643): two interval
            // sessions in one day's list is one kind, not two missions to choose from.
            let dailyKinds = Set(chosen.map { candidates[$0].kind })
            func repeats(_ i: Int) -> Int { dailyKinds.contains(candidates[i].kind) ? 1 : 0 }
            stretch = candidates.indices
                .filter { stretchBand.contains(probabilities[$0]) && !taken.contains(candidates[$0])
                    && !multiDay.contains(candidates[$0].kind) }
                .min { (repeats($0), abs(probabilities[$0] - target), $0) < (repeats($1), abs(probabilities[$1] - target), $1) }
        }
        if let stretch { chosen.append(stretch) }
        return chosen.map { i in
            let spec = candidates[i]
            let p = probabilities[i]
            return ChosenMission(spec: spec, title: MissionTitle.title(for: spec), pComplete: p,
                                 xp: MissionXP.xp(for: spec, pComplete: p), why: Self.why(spec, state: state),
                                 isStretch: i == stretch)
        }
    }

    /// The probabilities of the candidates offers decide over several days (streaks, weekly
    /// volumes), in `specs` order; nil for the others (the model's) and NaN where the
    /// forecast has too little record. One weekly-volume outlook serves every target, and one
    /// schedule every streak; both shrink the runner's shares toward the model's `prior`.
    static func forecasts(_ specs: [MissionSpec], state: RunnerState, prior: SchedulePrior) -> [Double?] {
        var needed: [Meters] = []
        for case .weeklyVolume(let target) in specs { needed.append(WeeklyVolumeForecast.needed(target: target, state: state)) }
        let outlook = needed.isEmpty ? nil : WeeklyVolumeForecast.outlook(state: state, upTo: needed.max() ?? 0, prior: prior)
        let schedule = specs.contains { $0.kind == .streak } ? StreakForecast.schedule(state, prior: prior) : nil
        return specs.map { spec in
            switch spec {
            case .streak(let days): return StreakForecast.probability(days: days, state: state, schedule: schedule)
            case .weeklyVolume(let target):
                return outlook?.probability(adding: WeeklyVolumeForecast.needed(target: target, state: state)) ?? .nan
            default: return nil
            }
        }
    }

    /// One plain sentence saying how the mission relates to what the runner has been doing.
    static func why(_ spec: MissionSpec, state: RunnerState) -> String {
        guard state.totalRuns > 0 else {
            return "A starter mission sized for someone new to running; it adapts after your first runs."
        }
        let endurance = state.enduranceOrDefault
        let usual = DistanceFormat.kilometres(endurance)
        func percent(_ ratio: Double) -> Int { Int(saturating: (abs(ratio - 1) * 100).rounded()) }
        func comparison(_ ratio: Double, _ what: String) -> String {
            let p = percent(ratio)
            if p < 5 { return "about your usual \(what)" }
            return ratio > 1 ? "\(p) % more than your usual \(what)" : "\(p) % less than your usual \(what)"
        }
        switch spec {
        case .distance(let d):
            return "Your runs lately are about \(usual); this is \(comparison(d / endurance, "distance"))."
        case .duration(let t):
            let usualTime = endurance * state.typicalPaceOrDefault / 1000
            return "Time on your feet builds endurance: \(comparison(t / usualTime, "time of \(DistanceFormat.duration(usualTime))"))."
        case .negativeSplit(let d):
            return "Finishing faster than you start teaches pacing, over \(comparison(d / endurance, "distance"))."
        case .pace(let maxPace, let d):
            let expected = state.expectedPace(over: d)
            return "You usually hold about \(Pace.format(expected))/km over \(DistanceFormat.kilometres(d)); "
                + "this asks for \(paceChange(expected, maxPace))."
        case .distanceInTime(let d, let maxDuration):
            let expected = state.expectedPace(over: d)
            return "You usually hold about \(Pace.format(expected))/km over \(DistanceFormat.kilometres(d)); "
                + "this asks for \(paceChange(expected, maxDuration / d * 1000))."
        case .longRun(let multiple):
            // Within 5 % of the longest run: "as far", never "as far again" (which means twice as far).
            let p = Int(saturating: ((multiple - 1) * 100).rounded())
            guard state.longest28d > 0 else {
                return "A long run builds endurance: " + (p < 5 ? "as far as" : "\(p) % further than") + " your longest recent run."
            }
            return "Your longest run of the last four weeks was \(DistanceFormat.kilometres(state.longest28d)); "
                + "this asks for " + (p < 5 ? "about the same distance" : "\(p) % more") + "."
        case .recovery(let minPace, let t, _):
            let slower = Int(saturating: (minPace - state.typicalPaceOrDefault).rounded())
            return "An easy day helps you absorb training: \(DistanceFormat.duration(t)) at \(Pace.format(minPace))/km or slower, "
                + (slower >= 3 ? "\(slower) s/km slower than you usually run." : "about your usual pace.")
        case .evenPace(let d, let spread):
            return "Steady pacing saves energy: every kilometre within \(Int(saturating: spread.rounded())) s/km of the others, "
                + "over \(comparison(d / endurance, "distance"))."
        case .progression(let n):
            // Any n kilometre splits in a row count, anywhere in the run.
            return "Getting faster as you go teaches control: \(n) kilometres in a row, each quicker than the last, "
                + (Double(n) * 1000 <= endurance ? "within a run of your usual \(usual)." : "on a run longer than your usual \(usual).")
        case .hills(let ascent):
            let climb = state.climbPerKm.map { "\(Int(saturating: ($0 * endurance / 1000).rounded())) m" } ?? "little"
            return "Hills build strength: \(Int(saturating: ascent.rounded())) m of climbing, where your usual run climbs \(climb)."
        case .earlyBird, .nightOwl, .loop, .intervals, .fartlek, .weeklyVolume:
            return whyV4(spec, state: state)
        case .explorer, .personalBest:
            return whyV5(spec, state: state)
        case .streak(let days):
            return whyStreak(days: days, state: state)
        default:
            // `choose` only sees `CandidateGenerator`'s kinds, but a stored offer may be of any
            // kind (written by another version): it gets a plain sentence, never a trap.
            return "\(MissionTitle.title(for: spec)): picked to be challenging yet achievable for you."
        }
    }

    static func paceChange(_ usual: SecondsPerKm, _ target: SecondsPerKm) -> String {
        let seconds = Int(saturating: (usual - target).rounded())
        if abs(seconds) < 3 { return "your usual pace" }
        return seconds > 0 ? "\(seconds) s/km faster" : "up to \(-seconds) s/km slower, an easier day"
    }
}
