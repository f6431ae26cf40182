import Testing
import Foundation
import Engine
import Features
import Learning
import Simulation
import Training

/// Issue 8: replaying the daily policy with the shipped model on simulated runners, the realised
/// completion of tried missions lies in the target band 0.65–0.85 give or take 5 points.
@Suite("policy simulation")
struct PolicySimulationTests {
    /// The band ± 5 points, as the issue states.
    static let accepted = 0.60...0.90
    /// Per-kind checks need enough tries for the rate to mean something (binomial SE ≈ 0.04 at 100).
    static let minimumTries = 100
    /// Issue 25's per-kind goal for mean |p̂ − p_true|.
    static let truthGoal = 0.05

    @Test("realised completion of recommended missions is in the band ±5 points, overall and per kind")
    func realisedCompletionInBand() throws {
        let bytes = try #require(FileManager.default.contents(atPath: repositoryRoot + "/models/default/model.json"))
        let artifact = try ModelArtifact.decode(Array(bytes))
        let report = PolicySimulation.run(SimulationConfiguration(runners: 40, days: 90, seed: 7),
                                          scorer: try LogisticScorer(artifact: artifact))
        #expect(report.overall.tried > 500)
        #expect(Self.accepted.contains(report.overall.rate), "overall \(report.overall.rate)")
        for (kind, row) in report.byKind where row.tried >= Self.minimumTries {
            #expect(Self.accepted.contains(row.rate), "\(kind.rawValue): realised \(row.rate) over \(row.tried)")
        }
        // Streaks (record 0650): offered, and their forecast near the truth.
        let streak = try #require(report.byKind[.streak])
        #expect(streak.tried >= 50, "streaks tried: \(streak.tried)")
        print("streak: mean |p̂ − p_true| \(streak.meanGap) over \(streak.tried)")
        // With the shipped model's schedule prior (record 0668); 0.069 without one.
        #expect(streak.meanGap <= Self.truthGoal, "streak: mean |p̂ − p_true| \(streak.meanGap) over \(streak.tried)")
        // Every modelled kind but one reaches a typical runner within a month: a runner's usual
        // start hour puts either the early-bird or the night-owl limits within reach, not both.
        let kinds = report.kindsPerRunnerMonth.sorted()
        // Streaks and weekly volumes wait for 4 weeks of record (records 0650, 0655), so these
        // runners, who start with none, meet them only after their first 28 days.
        #expect(kinds[kinds.count / 2] >= MissionFeatures.kinds.count - 2)
    }
}
