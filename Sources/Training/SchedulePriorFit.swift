#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Features
import Engine

/// Learns a store's `SchedulePrior` (record 0668): the pooled shares of usual and other
/// weekdays run on when active, and how many days of a runner's own class share they count for,
/// chosen by leave-runners-out cross-validation of the streak forecast's log loss.
///
/// The anchors are `StreakCalibration`'s: every local day D with a run after
/// `StreakForecast.minimumDaysKnown` days of record and at least `StreakCalibration.horizon` days
/// before the runner's last run day; at each, the streak chances of running on D + 1 … D + m
/// (m = 1 … horizon) are judged against the days the runner ran. Runners are dealt to `folds`
/// folds by `PeopleSplit.rank`; each fold's anchors are forecast with the shares pooled over the
/// other folds' anchors, for every weight of the grid. The weight with the lowest mean log loss
/// wins (ties: the smaller weight), and the served shares are pooled over every runner. A weight
/// of 0 means no prior: the artifact then stores none.
public struct SchedulePriorFit: Sendable {
    /// Weights tried, days (0: no prior).
    public static let weightGrid: [Double] = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256]
    /// Folds of runners (fewer when the store has fewer runners).
    public static let defaultFolds = 5

    /// One weight of the grid: the streak forecasts judged on held-out runners, their mean log
    /// loss, mean forecast and the share that came true.
    public struct Row: Sendable, Equatable {
        public let weight: Double
        public var judged = 0
        public var logLoss = 0.0
        public var meanForecast = 0.0
        public var cameTrue = 0.0
    }

    /// Runners with at least one anchor, and anchors.
    public let runners: Int
    public let anchors: Int
    public let folds: Int
    /// Cross-validated figures per weight, in grid order; empty when the store has fewer than
    /// two runners with anchors (nothing to validate on).
    public let rows: [Row]
    /// The prior chosen; `SchedulePrior.none` when weight 0 wins or nothing could be validated.
    public let prior: SchedulePrior

    /// What one anchor day keeps: the runner's counts as of its start and the days run after it.
    struct Anchor {
        let counts: StreakForecast.ShareCounts
        /// ran[m − 1]: a run on D + m.
        let ran: [Bool]
    }

    /// Weighted days run and active, summed over anchors, on usual and on other weekdays.
    struct Pool {
        var usualRan = 0.0, usualSeen = 0.0, otherRan = 0.0, otherSeen = 0.0

        mutating func add(_ c: StreakForecast.ShareCounts) {
            for r in 0..<7 where c.seen[r] > 0 {
                if c.isUsual(r) { usualRan += c.ran[r]; usualSeen += c.seen[r] } else { otherRan += c.ran[r]; otherSeen += c.seen[r] }
            }
        }

        static func + (a: Pool, b: Pool) -> Pool {
            Pool(usualRan: a.usualRan + b.usualRan, usualSeen: a.usualSeen + b.usualSeen,
                 otherRan: a.otherRan + b.otherRan, otherSeen: a.otherSeen + b.otherSeen)
        }

        static func - (a: Pool, b: Pool) -> Pool {
            Pool(usualRan: a.usualRan - b.usualRan, usualSeen: a.usualSeen - b.usualSeen,
                 otherRan: a.otherRan - b.otherRan, otherSeen: a.otherSeen - b.otherSeen)
        }

        /// The prior of these pooled shares with `weight` days; nil when a class has no day
        /// (a share could not be read).
        func prior(weight: Double) -> SchedulePrior? {
            guard usualSeen > 0, otherSeen > 0 else { return nil }
            return try? SchedulePrior(usualShare: (usualRan / usualSeen).clamped(to: 0...1, nan: 0),
                                      otherShare: (otherRan / otherSeen).clamped(to: 0...1, nan: 0), weightDays: weight)
        }
    }

    /// Reads every runner of `store` (evidence runs only). `folds` ≥ 2; `grid`: weights in
    /// 0 … `SchedulePrior.maximumWeight`; `seed` deals the runners to folds.
    public init(store: any EngineStore, resolver: any UTCOffsetResolver, folds: Int = defaultFolds, seed: Int,
                grid: [Double] = weightGrid) throws {
        guard folds >= 2 else { throw TrainingError.badFolds(folds) }
        let horizon = StreakCalibration.horizon
        var byRunner: [UserID: [Anchor]] = [:]
        for runner in try RunDayAnchors.runners(in: store, resolver: resolver) {
            var anchors: [Anchor] = []
            RunDayAnchors.forEachDay(of: runner, resolver: resolver, where: { $0.adding(days: horizon) <= runner.lastDay }) { day, state in
                guard StreakForecast.daysKnown(state) >= StreakForecast.minimumDaysKnown else { return }
                anchors.append(Anchor(counts: StreakForecast.counts(state),
                                      ran: (1...horizon).map { runner.runDays.contains(day.adding(days: $0)) }))
            }
            if !anchors.isEmpty { byRunner[runner.user.id] = anchors }
        }
        let ranked = PeopleSplit.rank(byRunner.keys, seed: seed)
        self.runners = ranked.count
        self.anchors = byRunner.values.reduce(0) { $0 + $1.count }
        let k = min(folds, ranked.count)
        self.folds = k
        guard k >= 2 else {
            rows = []; prior = .none
            return
        }
        // Pooled counts per fold, and over every runner.
        var foldPools = [Pool](repeating: Pool(), count: k)
        for (rank, user) in ranked.enumerated() {
            for a in byRunner[user] ?? [] { foldPools[rank % k].add(a.counts) }
        }
        let total = foldPools.reduce(Pool(), +)
        var rows = grid.map { Row(weight: $0) }
        for (i, row) in rows.enumerated() {
            var out = row
            for (rank, user) in ranked.enumerated() {
                // The held-out runner's shares are shrunk toward the other folds' pooled shares.
                let prior = (total - foldPools[rank % k]).prior(weight: row.weight) ?? .none
                for a in byRunner[user] ?? [] {
                    let schedule = a.counts.schedule(prior: prior)
                    var allRan = true
                    for m in 1...horizon {
                        let p = schedule.streakChance(needed: m)
                        allRan = allRan && a.ran[m - 1]
                        let q = min(1 - StreakCalibration.epsilon, max(StreakCalibration.epsilon, p)), y = allRan ? 1.0 : 0.0
                        out.judged += 1
                        out.logLoss -= y * log(q) + (1 - y) * log(1 - q)
                        out.meanForecast += p
                        out.cameTrue += y
                    }
                }
            }
            let n = Double(max(1, out.judged))
            out.logLoss /= n; out.meanForecast /= n; out.cameTrue /= n
            rows[i] = out
        }
        self.rows = rows
        let best = rows.min { ($0.logLoss, $0.weight) < ($1.logLoss, $1.weight) }
        self.prior = best.flatMap { $0.weight > 0 ? total.prior(weight: $0.weight) : nil } ?? .none
    }

    /// The log loss of the row without a prior (weight 0), when the grid has one.
    public var logLossWithout: Double? { rows.first { $0.weight == 0 }?.logLoss }
    /// The log loss of the chosen weight.
    public var logLossChosen: Double? { rows.first { $0.weight == prior.weightDays }?.logLoss }

    /// The figures an artifact carries: the cross-validated streak log loss without a prior and
    /// with the chosen one (none when nothing was validated).
    public var metrics: [String: Double] {
        guard let without = logLossWithout, let chosen = logLossChosen else { return [:] }
        return ["schedule_prior_cv_log_loss": chosen, "schedule_prior_cv_log_loss_none": without]
    }

    /// A Markdown section for the model card.
    public func markdown() -> String {
        func f(_ x: Double) -> String { String(TrainingPipeline.rounded(x)) }
        var out = "\n## Schedule prior of the streak and weekly-volume forecasts (docs/decisions/0668)\n\n"
        guard !rows.isEmpty else {
            return out + "Not learnt: \(runners) runner(s) with \(anchors) anchor days; validating a prior needs two runners. "
                + "The forecasts read each runner's own record only.\n"
        }
        out += "\(anchors) anchor days of \(runners) runners, \(folds) folds of people; each fold forecast with the shares pooled "
            + "over the others. Chosen: " + (prior.isActive
                ? "usual days \(f(prior.usualShare)), other days \(f(prior.otherShare)), counting for \(f(prior.weightDays)) days."
                : "none (weight 0 has the lowest log loss): the forecasts read each runner's own record only.") + "\n\n"
        out += "| weight (days) | streak forecasts | log loss | mean forecast | came true |\n|---|---|---|---|---|\n"
        for r in rows {
            out += "| \(f(r.weight)) | \(r.judged) | \(TrainingPipeline.rounded(r.logLoss, 4)) | \(f(r.meanForecast)) | \(f(r.cameTrue)) |\n"
        }
        return out
    }
}
