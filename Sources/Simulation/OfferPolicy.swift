import RunusCore
import Missions

/// A mission offered by a policy, with the probability it predicted.
public struct PolicyOffer: Sendable, Equatable {
    public let spec: MissionSpec
    public let pComplete: Double
    public let modelVersion: String
    /// Local days the offer stays open, its day included, when every run of them counts toward
    /// it (a streak, a weekly volume: `MissionSpec.policyOfferWindow`, records 0650 and 0655);
    /// nil for a mission the runner tries with a run of its day.
    public let openDays: Int?

    public init(spec: MissionSpec, pComplete: Double, modelVersion: String, openDays: Int? = nil) {
        self.spec = spec; self.pComplete = pComplete; self.modelVersion = modelVersion; self.openDays = openDays
    }
}

/// Offers a simulated runner the day's missions, from what an engine could see: the profile and
/// the runs recorded so far. Lets the simulator replay a recommendation policy against the
/// known truth (the policy simulation of issue 8).
public protocol OfferPolicy: Sendable {
    /// `history` holds the runner's earlier runs (all before `dayStart`), oldest first;
    /// `pastOffers` the earlier days' offers with their outcomes; `digests` what the runs' tracks
    /// say (best efforts, covered cells), in run order, as an engine reads them from its store.
    func offers(for profile: UserProfile, history: [RunRecord], pastOffers: [MissionAssignment],
                day: CivilDate, dayStart: EpochSeconds, digests: [RunDigest]) -> [PolicyOffer]
}
