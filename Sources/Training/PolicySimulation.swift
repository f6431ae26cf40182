import RunusCore
import Engine
import Features
import Missions
import Simulation

/// Replays the policy on simulated runners against the known truth: the realised completion
/// rate of recommended missions that were tried, overall and per kind, next to the predicted
/// probability and the mean true probability.
public struct PolicySimulation: Sendable {
    public struct Row: Sendable {
        public var tried = 0, completed = 0
        public var predicted = 0.0, truth = 0.0
        /// Sum of |predicted − true| over the tried offers.
        public var gap = 0.0
        public var rate: Double { tried > 0 ? Double(completed) / Double(tried) : 0 }
        /// Mean |predicted − true probability| of the tried offers, 0 without one.
        public var meanGap: Double { tried > 0 ? gap / Double(tried) : 0 }
    }

    public let byKind: [MissionKind: Row]
    public let overall: Row
    /// Distinct kinds offered to each runner over the first 28 days.
    public let kindsPerRunnerMonth: [Int]

    /// Simulates `configuration`'s runners (in parallel, each from its own random stream) under
    /// `TodayPolicy` with `scorer`.
    public static func run(_ configuration: SimulationConfiguration, scorer: any MissionScorer) -> PolicySimulation {
        let simulate = simulator(configuration, scorer: scorer)
        return PolicySimulation(runners: ParallelMap.map(count: configuration.runners, simulate))
    }

    /// Runner `i` of `configuration` under `TodayPolicy` with `scorer`, for callers that also
    /// keep the runners (`runus simulate-policy --db`).
    public static func simulator(_ configuration: SimulationConfiguration,
                                 scorer: any MissionScorer) -> @Sendable (Int) -> SimulatedRunner {
        let policy = EngineOfferPolicy(scorer: scorer, policy: TodayPolicy())
        return { RunnerSimulator.simulate(runner: $0, configuration: configuration, policy: policy) }
    }

    public init(runners: [SimulatedRunner]) {
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
                    row.gap += abs(a.pComplete - a.pTrue!)
                    if let key { byKind[key] = row } else { overall = row }
                }
            }
        }
        self.byKind = byKind
        self.overall = overall
        self.kindsPerRunnerMonth = kinds
    }

    /// The table `runus simulate-policy` prints: tried, realised, mean predicted, mean true
    /// probability and mean |predicted − true| per offered kind and overall, then the kinds offered per runner-month.
    public func markdown() -> String {
        func f(_ x: Double) -> String { TrainingPipeline.rounded(x) }
        var out = "| kind | tried | realised | mean predicted | mean true | mean \\|p̂ − p_true\\| |\n|---|---|---|---|---|---|\n"
        var rows = TodayPolicy.kinds.compactMap { k in byKind[k].map { (k.rawValue, $0) } }
        rows.append(("all", overall))
        for (name, row) in rows where row.tried > 0 {
            out += "| \(name) | \(row.tried) | \(f(row.rate)) | \(f(row.predicted / Double(row.tried))) | \(f(row.truth / Double(row.tried))) | \(f(row.meanGap)) |\n"
        }
        let kinds = kindsPerRunnerMonth.sorted()
        if !kinds.isEmpty { out += "\nkinds offered per runner in the first 28 days: median \(kinds[kinds.count / 2]), min \(kinds.first!), max \(kinds.last!)\n" }
        return out
    }
}
