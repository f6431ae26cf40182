import Foundation
import Testing
import RunusCore
import Learning
import Reports
@testable import Training

/// The report's policy section scores every offer of the period. A tried offer is also an
/// evaluated example, so both must be scored on the same state: earlier runs, past outcomes,
/// UTC offset and track digests, as training and the daemon build it.
@Suite("report recommendations")
struct ReportRecommendationsTests {
    static let tolerance = 1e-12

    @Test("a tried offer's prediction in the policy section equals its evaluated example's")
    func triedOffersScoredAsExamples() throws {
        let sim = try SimulatedStore(runners: 6, days: 90, seed: 11)
        defer { sim.cleanup() }
        let bytes = try #require(FileManager.default.contents(atPath: repositoryRoot + "/models/default/model.json"))
        let artifact = try ModelArtifact.decode(Array(bytes))
        let model = EvaluatedModel(name: "LR", version: artifact.modelVersion, featureNames: artifact.featureNames,
                                   parameters: .logisticRegression(artifact.makeModel()), kindColumns: artifact.kindColumns)
        let data = try ReportData.load(store: sim.store, from: nil, to: nil, resolver: SystemZones(), models: [model])
        struct Key: Hashable { let runner: String, day: String, kind: String, label: Double }
        var fromExamples: [Key: [Double]] = [:], fromPolicy: [Key: [Double]] = [:]
        for e in data.examples { fromExamples[Key(runner: e.runner, day: e.day, kind: e.kind, label: e.label), default: []] += e.probabilities }
        for r in data.recommended {
            guard let outcome = r.outcome, let p = r.probabilities else { continue }
            fromPolicy[Key(runner: r.runner, day: r.day, kind: r.kind, label: outcome), default: []] += p
        }
        #expect(fromExamples.count > 20)
        #expect(Set(fromExamples.keys) == Set(fromPolicy.keys))
        for (key, expected) in fromExamples {
            let got = (fromPolicy[key] ?? []).sorted(), want = expected.sorted()
            #expect(got.count == want.count && zip(got, want).allSatisfy { abs($0 - $1) <= Self.tolerance },
                    "\(key): policy \(got), examples \(want)")
        }
    }
}
