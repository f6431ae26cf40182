import Testing
import RunusCore
import Features
import Training

@Suite("labelled examples from a store", .serialized)
struct TrainingExamplesTests {
    @Test("logged is the default; history and both add history labels in training order, deterministically; label counts agree")
    func examplesBySource() throws {
        let simulated = try SimulatedStore(runners: 4, days: 40, seed: 5)
        defer { simulated.cleanup() }
        let store = simulated.store
        let logged = try TrainingPipeline.examples(store: store)
        let byDefault = try TrainingPipeline.examples(store: store, labels: .logged, resolver: SystemZones())
        #expect(logged.examples.map(\.assignmentID) == byDefault.examples.map(\.assignmentID))
        let history = try TrainingPipeline.examples(store: store, labels: .history, resolver: SystemZones())
        let both = try TrainingPipeline.examples(store: store, labels: .both, resolver: SystemZones())
        #expect(!history.examples.isEmpty)
        #expect(both.examples.count == logged.examples.count + history.examples.count)
        #expect(zip(both.examples, both.examples.dropFirst()).allSatisfy { ($0.time, $0.assignmentID) <= ($1.time, $1.assignmentID) })
        #expect(history.examples.allSatisfy { $0.assignmentID.hasPrefix("history:") && $0.pTrue == nil })
        #expect(logged.history == nil && history.history?.labels.count == history.examples.count)
        // Deterministic: the same store gives the same examples.
        let again = try TrainingPipeline.examples(store: store, labels: .history, resolver: SystemZones())
        #expect(TrainingPipeline.fingerprint(again.examples) == TrainingPipeline.fingerprint(history.examples))
        // `runus labels` counts the same examples.
        let counts = try LabelCounts(store: store, source: .both, resolver: SystemZones())
        #expect(counts.rows.count == both.examples.count)
        #expect(counts.table().contains("\nall\t\(both.examples.count)\t"))
    }
}
