import RunusCore

/// How the streak forecast tells the days a runner could not run (a break: holiday, illness,
/// injury) from the days they chose not to, so that breaks stay out of the weekday shares
/// (records 0650, 0660). A runner who runs today is not on a break.
public enum BreakRule: Sendable, Hashable, CustomStringConvertible {
    /// Every day of a 7-day window back from yesterday with a run counts; a window without one is
    /// a break (the rule of record 0650).
    case inactiveWeeks
    /// A run of at least `days` days without a run (2 … `RunnerState.runDayWindow`) is a break.
    case gap(days: Int)
    /// A two-state chain (record 0660). On an active day the runner runs with its weekday's
    /// chance, and a break starts the next day with `startChance` (in (0, 0.5]); a break has no
    /// run and ends each day with 1 / `meanDays` (`meanDays` in [1, 365]). A day counts in the
    /// shares by its posterior chance of being active given the whole record, and a streak's
    /// days must each stay active.
    case chain(startChance: Double, meanDays: Double)

    /// The range a chain's break start chance may take.
    public static let startChances: ClosedRange<Double> = 1e-6...0.5
    /// The range a chain's mean break length may take, days.
    public static let meanLengths: ClosedRange<Double> = 1...365

    /// A chain's chances that a break starts after an active day and that a break day is its
    /// last, kept within `startChances` and 1 / `meanLengths` (a NaN at the lower bound); nil
    /// for the other rules.
    public var transitions: (start: Double, end: Double)? {
        guard case .chain(let start, let mean) = self else { return nil }
        return (start.clamped(to: Self.startChances, nan: Self.startChances.lowerBound),
                1 / mean.clamped(to: Self.meanLengths, nan: Self.meanLengths.lowerBound))
    }

    /// The chance that an active day is followed by another active day: 1 − `startChance` for a
    /// chain, 1 for the other rules (they say nothing of breaks to come).
    public var stayChance: Double { 1 - (transitions?.start ?? 0) }

    /// "weeks", "gap:10", "chain:0.01:13": what `init(parsing:)` reads.
    public var description: String {
        switch self {
        case .inactiveWeeks: return "weeks"
        case .gap(let days): return "gap:\(days)"
        case .chain(let start, let mean): return "chain:\(start):\(mean)"
        }
    }

    /// Reads `description`'s forms; nil for anything else, a gap outside 2 … `RunnerState.runDayWindow`
    /// or a chain outside `startChances` and `meanLengths`.
    public init?(parsing text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch (parts.first, parts.count) {
        case ("weeks", 1):
            self = .inactiveWeeks
        case ("gap", 2):
            guard let days = Int(parts[1]), (2...RunnerState.runDayWindow).contains(days) else { return nil }
            self = .gap(days: days)
        case ("chain", 3):
            guard let start = Double(parts[1]), let mean = Double(parts[2]),
                  Self.startChances.contains(start), Self.meanLengths.contains(mean) else { return nil }
            self = .chain(startChance: start, meanDays: mean)
        default:
            return nil
        }
    }
}
