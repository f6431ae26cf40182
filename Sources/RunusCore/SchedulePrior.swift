/// What a store's runners say about run days in general, that one runner's record does not
/// (record 0668): the chance of running on an active day of a runner's usual weekdays and of
/// their other weekdays, pooled over a store's runners, and how many days of a runner's own
/// class share that pooled share counts for. The streak and weekly-volume forecasts shrink each
/// class's share toward it before each weekday's share is shrunk toward its class.
///
/// Learnt by `runus train` on the store it trains on and stored with the model: on simulated
/// runners, who all share one schedule, it counts for many days; on the shared real runners,
/// who differ, validation chooses none.
public struct SchedulePrior: Sendable, Equatable, CustomStringConvertible {
    /// The pooled share of a usual weekday (run on at least `StreakForecast.usualShare` of the
    /// time) run on when active, in [0, 1].
    public let usualShare: Double
    /// The pooled share of another weekday run on when active, in [0, 1].
    public let otherShare: Double
    /// Days (at full recency weight) of a class's own share the pooled share counts for, in
    /// [0, `maximumWeight`]; 0: the runner's own record only.
    public let weightDays: Double

    /// The largest weight a prior may carry, days: beyond it the runner's own record no longer
    /// moves a class's share (12 weeks hold at most 84 days).
    public static let maximumWeight = 4096.0

    /// No prior: every share is read from the runner's own record (what models trained before
    /// record 0668 serve).
    public static let none = SchedulePrior(checked: 0, 0, 0)

    /// Why a prior is refused: the field and the value.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let field: String
        public let value: Double
        public var description: String {
            let range = field == "weight_days" ? "0 … \(SchedulePrior.maximumWeight)" : "0 … 1"
            return "schedule prior \(field) \(value) is not a number in \(range)"
        }
    }

    /// A prior; throws `Invalid` naming the first field that is not finite or not in its range.
    public init(usualShare: Double, otherShare: Double, weightDays: Double) throws {
        for (field, value, range) in [("usual_share", usualShare, 0.0...1.0), ("other_share", otherShare, 0.0...1.0),
                                      ("weight_days", weightDays, 0.0...Self.maximumWeight)]
        where !(value.isFinite && range.contains(value)) {
            throw Invalid(field: field, value: value)
        }
        self.init(checked: usualShare, otherShare, weightDays)
    }

    private init(checked usual: Double, _ other: Double, _ weight: Double) {
        // +0 for −0, so that equal priors are equal bit for bit.
        usualShare = usual + 0; otherShare = other + 0; weightDays = weight + 0
    }

    /// Whether the prior moves any share: a weight above 0.
    public var isActive: Bool { weightDays > 0 }

    /// The class share of `ran` days run out of `seen` active days (recency-weighted), shrunk
    /// by `weightDays` toward `usualShare` or `otherShare`: (ran + w·prior) / (seen + w).
    public func classShare(ran: Double, seen: Double, usual: Bool) -> Double {
        let prior = usual ? usualShare : otherShare
        let total = seen + weightDays
        guard total > 0 else { return 0 }
        return ((ran + weightDays * prior) / total).clamped(to: 0...1, nan: 0)
    }

    /// "usual 0.85, other 0.08, 32 days", or "none".
    public var description: String {
        isActive ? "usual \(usualShare), other \(otherShare), \(weightDays) days" : "none"
    }
}
