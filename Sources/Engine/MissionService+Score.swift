import RunusCore
import Features
import Missions

/// A candidate mission scored for a runner: the served model's completion probability and the
/// XP it would offer, or the reason it cannot be scored.
public struct ScoredMission: Sendable, Equatable {
    public let spec: MissionSpec
    /// Completion probability in [0, 1]; nil when the model does not know the kind.
    public let pComplete: Double?
    /// XP the mission would offer at `pComplete` (record 0202); nil with `pComplete`.
    public let xp: Int?
    /// Why there is no probability, e.g. "kind loop is not modelled by feature schema v1 …".
    public let reason: String?
}

extension MissionService {
    /// The runner's state as of the start of `day` (default: the runner's local day at `now`), the
    /// as-of instant, history window and past outcomes `today` uses (and its state cache), so
    /// scores agree with its offers.
    public func runnerState(user userID: UserID, day requestedDay: CivilDate?, now: EpochSeconds) throws
        -> (user: UserProfile, day: CivilDate, state: RunnerState) {
        let moment = try self.moment(user: userID, at: now)
        let (day, state) = try runnerState(moment, day: requestedDay)
        return (moment.profile, day, state)
    }

    /// The runner at `now` (one profile read; the offset and day derived once).
    public func moment(user userID: UserID, at now: EpochSeconds) throws -> RunnerMoment {
        guard let user = try store.user(id: userID) else { throw EngineError.unknownUser(userID) }
        return RunnerMoment(profile: user, at: now, resolver: resolver)
    }

    /// The runner's state as of the start of `requestedDay` (default: the moment's day), at the
    /// moment's UTC offset.
    public func runnerState(_ moment: RunnerMoment, day requestedDay: CivilDate?) throws -> (day: CivilDate, state: RunnerState) {
        let userID = moment.profile.id
        let day = requestedDay ?? moment.day
        // As of the start of the runner's local day: runs later that day do not change the offer.
        let offset = moment.utcOffset
        let asOf = day.startInstant(utcOffset: offset)
        func build() throws -> RunnerState {
            // Runs that are no evidence of ability (too fast, too short: record 0230) stay out.
            let history = try HistoryWindow.runs(of: userID, before: asOf, store: store)
            // Mission outcomes of the last 90 days decided by runs before the day (as in training).
            let past = try store.assignments(user: userID, from: day.adding(days: -90), to: day.adding(days: -1))
            // Best efforts and covered cells come from the tracks (once per run with the cache).
            let digests = try RunDigests.digests(of: history, store: store, cache: digestCache)
            return RunnerState(history: history, outcomes: PastOutcome.from(assignments: past, runs: history),
                               asOf: asOf, utcOffset: offset, digests: digests)
        }
        return (day, try stateCache?.state(user: userID, asOf: asOf, build: build) ?? build())
    }

    /// Scores candidate specs for a runner through the feature path of `today`
    /// (`MissionFeatures.vector` on the as-of state, then the served scorer). A streak and a
    /// weekly volume are scored as `today` offers them, open for their days, by the runner's
    /// schedule (`StreakForecast`, `WeeklyVolumeForecast`; records 0650, 0655). Kinds neither
    /// scores get no probability and a reason instead (record 0322).
    public func score(user userID: UserID, specs: [MissionSpec], day: CivilDate?, now: EpochSeconds) throws
        -> (day: CivilDate, missions: [ScoredMission]) {
        let (day, state) = try runnerState(try moment(user: userID, at: now), day: day)
        return (day, scored(specs, state: state, asOffered: true))
    }

    /// `specs` scored on `state` by the served model (kinds it does not model: a reason instead).
    /// With `asOffered`, a streak and a weekly volume get the probability `today` would offer
    /// them at (open for their days, given a run on the day); without, a streak is a kind the
    /// model does not model and a weekly volume is the model's one-day mission (what the runner
    /// sets is a one-day mission, records 0650 and 0655).
    func scored(_ specs: [MissionSpec], state: RunnerState, asOffered: Bool = false) -> [ScoredMission] {
        let modelled = specs.filter { MissionFeatures.models($0.kind) && !(asOffered && $0.kind == .weeklyVolume) }
        let probabilities = scorer.probabilities(modelled.map { MissionFeatures.vector($0, state: state) })
        var next = 0
        let known = MissionFeatures.kinds.map(\.rawValue).joined(separator: ", ")
        return specs.map { spec -> ScoredMission in
            if asOffered, case .streak(let days) = spec {
                return Self.scoredStreak(spec, days: days, state: state, prior: scorer.schedulePrior)
            }
            if asOffered, case .weeklyVolume(let target) = spec {
                return Self.scoredWeekVolume(spec, target: target, state: state, prior: scorer.schedulePrior)
            }
            guard MissionFeatures.models(spec.kind), next < probabilities.count else {
                return ScoredMission(spec: spec, pComplete: nil, xp: nil,
                                     reason: "kind \(spec.kind.rawValue) is not modelled by feature schema v\(MissionFeatures.schema.version) (modelled: \(known))")
            }
            let p = probabilities[next]
            next += 1
            return ScoredMission(spec: spec, pComplete: p, xp: MissionXP.xp(for: spec, pComplete: p), reason: nil)
        }
    }

    /// A streak of `days` as the daily policy offers it (record 0650): `StreakForecast`'s
    /// probability once the runner has `StreakForecast.minimumDaysKnown` days of record, for 2 …
    /// `CandidateGenerator.maximumStreakDays` days (the longest window an offer has); otherwise a
    /// reason that names what is missing.
    static func scoredStreak(_ spec: MissionSpec, days: Int, state: RunnerState, prior: SchedulePrior) -> ScoredMission {
        let known = StreakForecast.daysKnown(state), longest = CandidateGenerator.maximumStreakDays
        guard known >= StreakForecast.minimumDaysKnown else {
            return ScoredMission(spec: spec, pComplete: nil, xp: nil,
                                 reason: "a streak is forecast from \(StreakForecast.minimumDaysKnown) days of record; the runner has \(known)")
        }
        guard (2...longest).contains(days) else {
            return ScoredMission(spec: spec, pComplete: nil, xp: nil,
                                 reason: "a streak is offered for 2 to \(longest) days, not \(days)")
        }
        let p = StreakForecast.probability(days: days, state: state, prior: prior)
        return ScoredMission(spec: spec, pComplete: p, xp: MissionXP.xp(for: spec, pComplete: p), reason: nil)
    }

    /// A weekly volume of `target` metres as the daily policy offers it, open to the end of the
    /// week (record 0655): `WeeklyVolumeForecast`'s probability once the runner has the record
    /// it needs; otherwise a reason that names what is missing.
    static func scoredWeekVolume(_ spec: MissionSpec, target: Meters, state: RunnerState, prior: SchedulePrior) -> ScoredMission {
        let known = StreakForecast.daysKnown(state), runDays = WeeklyVolumeForecast.runDays(state).count
        guard WeeklyVolumeForecast.isForecast(state), let p = WeeklyVolumeForecast.probability(target: target, state: state, prior: prior) else {
            return ScoredMission(spec: spec, pComplete: nil, xp: nil,
                                 reason: "a weekly volume is forecast from \(StreakForecast.minimumDaysKnown) days of record with "
                                    + "\(WeeklyVolumeForecast.minimumRunDays) days run; the runner has \(known) days with \(runDays) run")
        }
        return ScoredMission(spec: spec, pComplete: p, xp: MissionXP.xp(for: spec, pComplete: p), reason: nil)
    }
}
