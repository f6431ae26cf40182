#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mission the policy recommended in the period, whether or not the runner tried it.
public struct RecommendedMission: Sendable, Equatable {
    public var runner: String
    /// Local day it was offered for, "YYYY-MM-DD".
    public var day: String
    /// Mission kind (wire name).
    public var kind: String
    /// Each model's predicted completion, in [0, 1]; nil when the models cannot score this kind.
    public var probabilities: [Double]?
    /// 1 completed, 0 failed, nil not tried (expired or still open): no label.
    public var outcome: Double?

    public init(runner: String, day: String, kind: String, probabilities: [Double]?, outcome: Double?) {
        self.runner = runner; self.day = day; self.kind = kind; self.probabilities = probabilities; self.outcome = outcome
    }

    /// The evaluated example seen as a recommendation that was tried.
    public init(_ e: EvaluatedExample) {
        self.init(runner: e.runner, day: e.day, kind: e.kind, probabilities: e.probabilities, outcome: e.label)
    }
}

/// The mission policy seen through the evaluation period: the missions recommended, what each
/// model predicts for them, and how often the tried ones were completed
/// (docs/decisions/0705-policy-section.md).
public struct PolicySummary: Sendable, Equatable {
    /// A group of recommended missions: predicted versus realised completion of the tried ones.
    public struct Group: Sendable, Equatable {
        /// "all", "below", "in" or "above" the target band, or a mission kind.
        public let name: String
        /// Recommended missions in the group, and their share of the recommended (scored) ones, in [0, 1].
        public let offers: Int, share: Double
        /// Of those, tried (completed or failed), >= 0.
        public let tried: Int
        /// Mean predicted completion of the tried missions, in [0, 1]; nil when none or unscored.
        public let meanPredicted: Double?
        /// Realised completion of the tried missions with its 95% Wilson interval, in [0, 1]; nil when none.
        public let realised: Double?, realisedLower: Double?, realisedUpper: Double?
    }

    /// One model's view of the recommended missions.
    public struct ModelView: Sendable, Equatable {
        public let model: String
        public let overall: Group
        /// Below, in and above the target band by this model's prediction.
        public let bands: [Group]
        /// Share of scored recommended missions whose predicted completion is in the target band, in [0, 1].
        public var shareInBand: Double { bands[1].share }
    }

    /// How varied the recommended kinds are.
    public struct Variety: Sendable, Equatable {
        /// Kinds recommended at least once, >= 0.
        public let distinctKinds: Int
        /// Mean distinct kinds per runner-day with recommendations, >= 1.
        public let meanKindsPerRunnerDay: Double
        /// Share of runner-days with at least two kinds, in [0, 1].
        public let shareOfDaysWithSeveralKinds: Double
        /// Shannon entropy of the kind mix over log(number of kinds), in [0, 1]; 1 = even.
        public let normalisedEntropy: Double
        /// Share of the most recommended kind, in [0, 1].
        public let largestKindShare: Double
    }

    public let targetBand: ClosedRange<Double>
    /// Recommended missions, those tried, those the models scored, and runner-days with recommendations.
    public let offers: Int, tried: Int, scored: Int, runnerDays: Int
    public let models: [ModelView]
    /// Per kind, most recommended first; meanPredicted is the first model's.
    public let kinds: [Group]
    public let variety: Variety
}

extension PolicySummary {
    static func compute(recommended: [RecommendedMission], modelNames: [String], band: ClosedRange<Double>) -> PolicySummary {
        func group(_ name: String, _ members: [RecommendedMission], model: Int, of total: Int) -> Group {
            let tried = members.filter { $0.outcome != nil }
            let scoredTried = tried.compactMap { m in m.probabilities.map { $0[model] } }
            let share = Double(members.count) / Double(max(total, 1))
            guard !tried.isEmpty else {
                return Group(name: name, offers: members.count, share: share, tried: 0, meanPredicted: nil,
                             realised: nil, realisedLower: nil, realisedUpper: nil)
            }
            let rate = tried.reduce(0) { $0 + $1.outcome! } / Double(tried.count)
            let (lo, hi) = ModelCurves.wilson(rate: rate, n: Double(tried.count))
            return Group(name: name, offers: members.count, share: share, tried: tried.count,
                         meanPredicted: scoredTried.isEmpty ? nil : scoredTried.reduce(0, +) / Double(scoredTried.count),
                         realised: rate, realisedLower: lo, realisedUpper: hi)
        }
        let scored = recommended.filter { $0.probabilities != nil }
        let views = modelNames.indices.map { m in
            ModelView(model: modelNames[m], overall: group("all", scored, model: m, of: scored.count), bands: [
                group("below", scored.filter { $0.probabilities![m] < band.lowerBound }, model: m, of: scored.count),
                group("in", scored.filter { band.contains($0.probabilities![m]) }, model: m, of: scored.count),
                group("above", scored.filter { $0.probabilities![m] > band.upperBound }, model: m, of: scored.count),
            ])
        }
        var byKind: [String: [RecommendedMission]] = [:]
        for r in recommended { byKind[r.kind, default: []].append(r) }
        let kinds = byKind.keys.sorted { (byKind[$0]!.count, $1) > (byKind[$1]!.count, $0) }
            .map { group($0, byKind[$0]!, model: 0, of: recommended.count) }
        var days: [String: Set<String>] = [:]
        for r in recommended { days[r.runner + "|" + r.day, default: []].insert(r.kind) }
        var entropy = 0.0
        for k in kinds where k.offers > 0 { entropy -= k.share * log(k.share) }
        let variety = Variety(
            distinctKinds: kinds.count,
            meanKindsPerRunnerDay: days.isEmpty ? 0 : Double(days.values.reduce(0) { $0 + $1.count }) / Double(days.count),
            shareOfDaysWithSeveralKinds: days.isEmpty ? 0 : Double(days.values.filter { $0.count >= 2 }.count) / Double(days.count),
            normalisedEntropy: kinds.count > 1 ? entropy / log(Double(kinds.count)) : 0,
            largestKindShare: kinds.first?.share ?? 0)
        return PolicySummary(targetBand: band, offers: recommended.count, tried: recommended.filter { $0.outcome != nil }.count,
                             scored: scored.count, runnerDays: days.count, models: views, kinds: kinds, variety: variety)
    }
}
