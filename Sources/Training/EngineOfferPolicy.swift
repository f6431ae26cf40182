import RunusCore
import Engine
import Features
import Missions
import Simulation

/// The engine's daily policy as seen by the simulator: the day's missions from `TodayPolicy`
/// with the served model, as `missions.today` would offer them (the stretch mission included).
public struct EngineOfferPolicy: OfferPolicy {
    public let scorer: any MissionScorer
    public let policy: TodayPolicy

    public init(scorer: any MissionScorer, policy: TodayPolicy) {
        self.scorer = scorer; self.policy = policy
    }

    public func offers(for profile: UserProfile, history: [RunRecord], pastOffers: [MissionAssignment],
                       day: CivilDate, dayStart: EpochSeconds, digests: [RunDigest]) -> [PolicyOffer] {
        // As `missions.today` sees it: past outcomes and local start hours included.
        let state = RunnerState(history: history, outcomes: PastOutcome.from(assignments: pastOffers, runs: history),
                                asOf: dayStart, utcOffset: profile.utcOffsetSeconds, digests: digests)
        let memory = PolicyMemory(offers: pastOffers, before: day)
        return policy.choose(state: state, scorer: scorer, memory: memory)
            .filter { !$0.isStretch }
            .map { PolicyOffer(spec: $0.spec, pComplete: $0.pComplete, modelVersion: scorer.version,
                               openDays: $0.spec.policyOfferWindow(offeredOn: day)) }
    }
}
