#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Features
import Engine

/// How well `StreakForecast` foretells a runner's next days on a store's histories, for several
/// prior weights and recency half-lives (record 0650): at every local day D with a run, after `minimumDaysKnown` days
/// of record and at least `horizon` days before the runner's last run day, the forecast of
/// running on each of D + 1 … D + m (m = 1 … `horizon`, the product of the day chances, as a
/// streak needing m more days is forecast) is checked against the days the runner ran.
public struct StreakCalibration: Sendable {
    /// Most days after D a streak can still need (a 14-day streak offered with 7 behind it
    /// needs 6; the ladder asks k + 2 … k + 6).
    public static let horizon = 6
    /// Probabilities are kept within [ε, 1 − ε] for the log loss.
    static let epsilon = 1e-6

    /// Per prior weight and half-life (weeks; nil: every week the same): anchors (days D),
    /// streak forecasts judged (anchors × m), their log loss, Brier score, mean forecast and the
    /// share that came true.
    public struct Row: Sendable, Equatable {
        public let weight: Double
        public let halfLifeWeeks: Double?
        /// How the shares leave breaks out.
        public var breaks: BreakRule = StreakForecast.breakRule
        public var anchors = 0
        public var judged = 0
        public var logLoss = 0.0
        public var brier = 0.0
        public var meanForecast = 0.0
        public var rate = 0.0
    }

    public let runners: Int
    public let rows: [Row]

    /// Reads every runner of `store` (evidence runs only) and scores every pair of `weights`
    /// (each > 0) and `halfLives` (each > 0, or nil), weights varying fastest, every class share
    /// shrunk toward `prior` (a model's, record 0668).
    public init(store: any EngineStore, weights: [Double], halfLives: [Double?] = [StreakForecast.recencyHalfLifeWeeks],
                breaks: [BreakRule] = [StreakForecast.breakRule], prior: SchedulePrior = .none, resolver: any UTCOffsetResolver) throws {
        var rows = breaks.flatMap { g in halfLives.flatMap { h in weights.map { Row(weight: $0, halfLifeWeeks: h, breaks: g) } } }
        let runners = try RunDayAnchors.runners(in: store, resolver: resolver)
        for runner in runners {
            RunDayAnchors.forEachDay(of: runner, resolver: resolver, where: { $0.adding(days: Self.horizon) <= runner.lastDay }) { day, state in
                guard StreakForecast.daysKnown(state) >= StreakForecast.minimumDaysKnown else { return }
                let ran = (1...Self.horizon).map { runner.runDays.contains(day.adding(days: $0)) }
                for r in rows.indices {
                    rows[r].anchors += 1
                    let schedule = StreakForecast.schedule(state, weight: rows[r].weight, halfLifeWeeks: rows[r].halfLifeWeeks,
                                                           breaks: rows[r].breaks, prior: prior)
                    var allRan = true
                    for m in 1...Self.horizon {
                        let p = schedule.streakChance(needed: m)
                        allRan = allRan && ran[m - 1]
                        let q = min(1 - Self.epsilon, max(Self.epsilon, p)), y = allRan ? 1.0 : 0.0
                        rows[r].judged += 1
                        rows[r].logLoss -= y * log(q) + (1 - y) * log(1 - q)
                        rows[r].brier += (p - y) * (p - y)
                        rows[r].meanForecast += p
                        rows[r].rate += y
                    }
                }
            }
        }
        self.runners = runners.count
        self.rows = rows.map { row in
            var r = row
            let n = Double(max(1, row.judged))
            r.logLoss /= n; r.brier /= n; r.meanForecast /= n; r.rate /= n
            return r
        }
    }

    /// A Markdown table, a row per weight.
    public func table() -> String {
        func f(_ x: Double) -> String { String(TrainingPipeline.rounded(x)) }
        var out = "| breaks | half-life (weeks) | prior weight (days) | anchors | forecasts | log loss | Brier | mean forecast | came true |\n"
            + "|---|---|---|---|---|---|---|---|---|\n"
        for r in rows {
            out += "| \(r.breaks) | \(r.halfLifeWeeks.map(f) ?? "none") | \(f(r.weight)) | \(r.anchors) | \(r.judged) | \(f(r.logLoss)) | \(f(r.brier)) | \(f(r.meanForecast)) | \(f(r.rate)) |\n"
        }
        return out
    }
}
