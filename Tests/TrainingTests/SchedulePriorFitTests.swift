import Testing
import Foundation
import RunusCore
import Engine
import Features
import Storage
import Training

/// Record 0668: `SchedulePriorFit` learns a store's schedule prior by leave-runners-out
/// cross-validation: a strong one for runners who share one schedule (the simulation), none for
/// runners whose own records already say everything.
@Suite("schedule prior fit")
struct SchedulePriorFitTests {
    /// How far the learnt pooled shares may lie from the simulator's (0.85 on preferred days,
    /// 0.08 on others, docs/simulation.md): the chain reads breaks with error, and a day whose
    /// own share crosses 0.5 joins the other class.
    static let shareTolerance = 0.06

    /// Runners whose own records say how they run (70 days from a Monday, 07:00 UTC), each
    /// unlike the pool: "steady" runs Monday to Friday; "patchy" runs Mondays, and Wednesdays
    /// and Fridays two weeks in three; "sundays" runs Tuesdays and Thursdays, and Sundays one
    /// week in three. Pooled, usual days are run more than patchy's and other days less than
    /// sundays', so any weight on the pool forecasts each of them worse than their own record.
    static func ownSchedules(_ directory: String) throws -> SQLiteStore {
        let store = try SQLiteStore(path: directory + "/own.sqlite")
        let schedules: [(String, (_ week: Int, _ weekday: Int) -> Bool)] = [
            ("steady", { _, d in d < 5 }),
            ("patchy", { w, d in d == 0 || (w % 3 != 2 && (d == 2 || d == 4)) }),
            ("sundays", { w, d in d == 1 || d == 3 || (d == 6 && w % 3 == 0) }),
        ]
        for (user, runs) in schedules {
            try store.upsertUser(UserProfile(id: user, timeZone: "UTC"))
            for d in 0..<StreakCalibrationTests.days where runs(d / 7, d % 7) {
                let start = StreakCalibrationTests.first.adding(days: d).startInstant(utcOffset: 0) + 7 * 3600
                try #require(try store.insertRun(RunRecord(id: "run-\(d)", userID: user, startTime: start, distance: 5000,
                                                           elapsed: 1800, moving: 1800, elevationGain: 0, source: "test")))
            }
        }
        return store
    }

    /// A fresh directory under /tmp for one test's database.
    static func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "runus-prior-fit-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("runners unlike one another choose no prior: every weight above 0 forecasts them worse")
    func ownSchedulesChooseNone() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.ownSchedules(directory)
        defer { try? store.close() }
        let fit = try SchedulePriorFit(store: store, resolver: FixedOffsetResolver(), folds: 5, seed: 1)
        #expect(fit.runners == 3 && fit.folds == 3)
        #expect(fit.rows.map(\.weight) == SchedulePriorFit.weightGrid)
        #expect(fit.prior == .none)
        let without = try #require(fit.logLossWithout)
        for row in fit.rows.dropFirst() { #expect(row.logLoss > without, "weight \(row.weight): \(row.logLoss) vs \(without)") }
        #expect(fit.rows.allSatisfy { $0.judged == fit.anchors * StreakCalibration.horizon })
        #expect(fit.metrics["schedule_prior_cv_log_loss"] == without)
        #expect(fit.markdown().contains("none (weight 0 has the lowest log loss)"))
    }

    @Test("one runner cannot validate a prior: none, and the card says why")
    func oneRunner() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try StreakCalibrationTests.store(directory)
        defer { try? store.close() }
        try #require(try store.deleteUser(id: "daily"))
        let fit = try SchedulePriorFit(store: store, resolver: FixedOffsetResolver(), seed: 1)
        #expect(fit.runners == 1 && fit.rows.isEmpty && fit.prior == .none && fit.metrics.isEmpty)
        #expect(fit.markdown().contains("needs two runners"))
        #expect(throws: TrainingError.self) { try SchedulePriorFit(store: store, resolver: FixedOffsetResolver(), folds: 1, seed: 1) }
    }

    @Test("simulated runners, who share one schedule, choose a strong prior near the simulator's shares; it beats none")
    func simulatedRunnersChooseStrongPrior() throws {
        let sim = try SimulatedStore(runners: 60, days: 120, seed: 23)
        defer { sim.cleanup() }
        let fit = try SchedulePriorFit(store: sim.store, resolver: SystemZones(), seed: 1)
        #expect(fit.prior.weightDays >= 16, "\(fit.prior)")
        #expect(abs(fit.prior.usualShare - 0.85) <= Self.shareTolerance, "\(fit.prior)")
        #expect(abs(fit.prior.otherShare - 0.08) <= Self.shareTolerance, "\(fit.prior)")
        let without = try #require(fit.logLossWithout), chosen = try #require(fit.logLossChosen)
        #expect(chosen < without)
    }
}
