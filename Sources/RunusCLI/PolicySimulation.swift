import RunusCore
import Engine
import Features
import Missions
import Simulation

/// The engine's daily policy as seen by the simulator: the day's missions from `TodayPolicy`
/// with the served model, as `missions.today` would offer them (the stretch mission included).
struct EngineOfferPolicy: OfferPolicy {
    let scorer: any MissionScorer
    let policy: TodayPolicy

    func offers(for profile: UserProfile, history: [RunRecord], pastOffers: [MissionAssignment],
                day: CivilDate, dayStart: EpochSeconds) -> [PolicyOffer] {
        // As `missions.today` sees it: past outcomes and local start hours included.
        let state = RunnerState(history: history, outcomes: PastOutcome.from(assignments: pastOffers, runs: history),
                                asOf: dayStart, utcOffset: profile.utcOffsetSeconds)
        let memory = PolicyMemory(offers: pastOffers, before: day)
        return policy.choose(state: state, scorer: scorer, memory: memory)
            .filter { !$0.isStretch }
            .map { PolicyOffer(spec: $0.spec, pComplete: $0.pComplete, modelVersion: scorer.version) }
    }
}

/// Replays the policy on simulated runners against the known truth: the realised completion
/// rate of recommended missions that were tried, overall and per kind, next to the predicted
/// probability and the mean true probability.
struct PolicySimulation {
    struct Row {
        var tried = 0, completed = 0
        var predicted = 0.0, truth = 0.0
        var rate: Double { tried > 0 ? Double(completed) / Double(tried) : 0 }
    }

    let byKind: [MissionKind: Row]
    let overall: Row
    /// Distinct kinds offered to each runner over the first 28 days.
    let kindsPerRunnerMonth: [Int]

    init(runners: [SimulatedRunner]) {
        var byKind: [MissionKind: Row] = [:]
        var overall = Row()
        var kinds: [Int] = []
        for runner in runners {
            let firstDay = runner.assignments.map(\.day).min()
            kinds.append(Set(runner.assignments.filter { a in firstDay.map { a.day < $0.adding(days: 28) } ?? false }.map(\.kind)).count)
            for a in runner.assignments where a.pTrue != nil {
                guard let kind = MissionKind(rawValue: a.kind) else { continue }
                for key in [Optional(kind), nil] {
                    var row = key.map { byKind[$0] ?? Row() } ?? overall
                    row.tried += 1
                    row.completed += a.status == .completed ? 1 : 0
                    row.predicted += a.pComplete
                    row.truth += a.pTrue!
                    if let key { byKind[key] = row } else { overall = row }
                }
            }
        }
        self.byKind = byKind
        self.overall = overall
        self.kindsPerRunnerMonth = kinds
    }
}
