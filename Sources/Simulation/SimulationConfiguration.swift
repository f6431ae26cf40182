import RunusCore

/// What to simulate. Same configuration (including the seed) → the same records, byte for byte.
public struct SimulationConfiguration: Sendable, Equatable {
    /// Number of runners, ≥ 1.
    public var runners: Int
    /// Number of simulated days, ≥ 1.
    public var days: Int
    /// Seed of every random draw; runner i draws from stream i, so runners are independent.
    public var seed: UInt64
    /// First simulated (local) day.
    public var startDay: CivilDate

    public init(runners: Int, days: Int, seed: UInt64, startDay: CivilDate = CivilDate(year: 2026, month: 6, day: 1)!) {
        precondition(runners >= 1 && days >= 1, "runners and days must be positive")
        self.runners = runners; self.days = days; self.seed = seed; self.startDay = startDay
    }

    /// Model/policy version written on simulated mission offers.
    public static let policyVersion = "baseline-explore-v1"
}
