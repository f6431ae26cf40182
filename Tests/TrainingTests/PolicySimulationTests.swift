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
        // Every modelled kind but one reaches a typical runner within a month: a runner's usual
        // start hour puts either the early-bird or the night-owl limits within reach, not both.
        let kinds = report.kindsPerRunnerMonth.sorted()
        #expect(kinds[kinds.count / 2] >= MissionFeatures.kinds.count - 1)
    }
}
