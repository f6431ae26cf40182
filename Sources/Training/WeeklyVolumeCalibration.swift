#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Features
import Engine
import Missions

/// How well `WeeklyVolumeForecast` foretells a runner's week on a store's histories (record
/// 0655): at every local day D with a run, after `StreakForecast.minimumDaysKnown` days of
/// record and with the whole of D's week before the runner's last run day, each week-long
/// weekly volume the policy could offer on D (`CandidateGenerator.weekVolumes`) is forecast
/// as of D's start and checked against the week's runs: did the week's distance reach the
/// accepted target by Sunday? The histories carry no missions, so this is the runner's habitual
/// week, which is what the forecast describes.
public struct WeeklyVolumeCalibration: Sendable {
    /// Probabilities are kept within [ε, 1 − ε] for the log loss.
    static let epsilon = 1e-6
    /// Reliability bins of the forecast, equal widths over [0, 1].
    public static let bins = 10

    /// One recency half-life of the run days' distances (weeks; nil: every run day the same):
    /// anchors (days D), forecasts judged, their log loss, Brier score, mean forecast and share
    /// that came true, overall, inside the band, and per reliability bin.
    public struct Row: Sendable, Equatable {
        public let halfLifeWeeks: Double?
        /// The week's factor's log standard deviation (`WeeklyVolumeForecast.weekSpread`).
        public var spread = WeeklyVolumeForecast.weekSpread
        /// The day chances' break rule (`StreakForecast.breakRule`).
        public var breaks = StreakForecast.breakRule
        public var anchors = 0
        public var all = Tally()
        /// Forecasts inside the policy's band (what gets offered).
        public var inBand = Tally()
        public var byBin = [Tally](repeating: Tally(), count: WeeklyVolumeCalibration.bins)
    }

    /// Sums of forecasts judged; the means divide by `judged`.
    public struct Tally: Sendable, Equatable {
        public var judged = 0
        public var logLoss = 0.0
        public var brier = 0.0
        public var forecast = 0.0
        public var cameTrue = 0.0

        mutating func add(_ p: Double, _ y: Double) {
            let q = min(1 - WeeklyVolumeCalibration.epsilon, max(WeeklyVolumeCalibration.epsilon, p))
            judged += 1
            logLoss -= y * log(q) + (1 - y) * log(1 - q)
            brier += (p - y) * (p - y)
            forecast += p
            cameTrue += y
        }

        /// `x` (one of the sums) over the forecasts judged, 0 without one.
        public func mean(_ x: Double) -> Double { judged > 0 ? x / Double(judged) : 0 }
    }

    public let runners: Int
    public let rows: [Row]
    public let band: ClosedRange<Double>

    /// Reads every runner of `store` (evidence runs only) and scores the forecast with each
    /// triple of `halfLives` (each > 0, or nil), `spreads` (each ≥ 0) and `breaks`,
    /// half-lives varying fastest, the day chances shrunk toward `prior` (a model's, record
    /// 0668); the targets are the shipped ladder's.
    public init(store: any EngineStore, halfLives: [Double?] = [WeeklyVolumeForecast.recencyHalfLifeWeeks],
                spreads: [Double] = [WeeklyVolumeForecast.weekSpread], breaks: [BreakRule] = [StreakForecast.breakRule],
                band: ClosedRange<Double> = TodayPolicy().band, tolerance: MissionTolerance = .default,
                prior: SchedulePrior = .none, resolver: any UTCOffsetResolver) throws {
        var rows = breaks.flatMap { g in spreads.flatMap { v in halfLives.map { Row(halfLifeWeeks: $0, spread: v, breaks: g) } } }
        let runners = try RunDayAnchors.runners(in: store, resolver: resolver)
        for runner in runners {
            var distanceByDay: [CivilDate: Meters] = [:]
            for run in runner.runs where run.distance.isFinite && run.distance > 0 {
                distanceByDay[runner.user.localDay(at: run.startTime, resolver: resolver), default: 0] += run.distance
            }
            // Days whose whole week (to Sunday) lies within the record.
            RunDayAnchors.forEachDay(of: runner, resolver: resolver, where: { $0.adding(days: 7 - $0.isoWeekday) <= runner.lastDay }) { day, state in
                let sunday = day.adding(days: 7 - day.isoWeekday)
                let targets = CandidateGenerator.weekVolumes(for: state).compactMap { spec -> Meters? in
                    if case .weeklyVolume(let d) = spec { return d }
                    return nil
                }
                guard !targets.isEmpty else { return }
                // The week's distance from D to Sunday, added to what the state has before D.
                var rest = 0.0
                var d = day
                while d <= sunday { rest += distanceByDay[d] ?? 0; d = d.adding(days: 1) }
                let needed = targets.map { WeeklyVolumeForecast.needed(target: $0, state: state, tolerance: tolerance) }
                for r in rows.indices {
                    guard let outlook = WeeklyVolumeForecast.outlook(state: state, upTo: needed.max() ?? 0,
                                                                     halfLifeWeeks: rows[r].halfLifeWeeks, spread: rows[r].spread,
                                                                     breaks: rows[r].breaks, prior: prior) else { continue }
                    rows[r].anchors += 1
                    for n in needed {
                        let p = outlook.probability(adding: n), y = rest >= n ? 1.0 : 0.0
                        rows[r].all.add(p, y)
                        if band.contains(p) { rows[r].inBand.add(p, y) }
                        // p is a probability (the outlook's tail), so the bin is in 0 ..< bins.
                        let bin = p.isFinite ? Int(min(Double(Self.bins - 1), max(0, p * Double(Self.bins)))) : 0
                        rows[r].byBin[bin].add(p, y)
                    }
                }
            }
        }
        self.runners = runners.count
        self.rows = rows
        self.band = band
    }

    /// Markdown: a row per scored setting (all forecasts, then those in the band), then the
    /// reliability bins of the first row.
    public func table() -> String {
        func f(_ x: Double) -> String { String(TrainingPipeline.rounded(x)) }
        var out = "| breaks | week spread | half-life (weeks) | anchors | forecasts | log loss | Brier | mean forecast | came true "
            + "| in band \(f(band.lowerBound))–\(f(band.upperBound)) | mean forecast | came true |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        for r in rows {
            let a = r.all, b = r.inBand
            out += "| \(r.breaks) | \(f(r.spread)) | \(r.halfLifeWeeks.map(f) ?? "none") | \(r.anchors) | \(a.judged) | \(f(a.mean(a.logLoss))) | \(f(a.mean(a.brier))) "
                + "| \(f(a.mean(a.forecast))) | \(f(a.mean(a.cameTrue))) | \(b.judged) | \(f(b.mean(b.forecast))) | \(f(b.mean(b.cameTrue))) |\n"
        }
        guard let first = rows.first else { return out }
        out += "\nReliability (the first row):\n\n| forecast | forecasts | mean forecast | came true |\n|---|---|---|---|\n"
        for (i, t) in first.byBin.enumerated() where t.judged > 0 {
            let lo = Double(i) / Double(Self.bins), hi = Double(i + 1) / Double(Self.bins)
            out += "| \(f(lo))–\(f(hi)) | \(t.judged) | \(f(t.mean(t.forecast))) | \(f(t.mean(t.cameTrue))) |\n"
        }
        return out
    }
}
