import Testing
import Foundation
import RunusCore
import Storage
import Features
@testable import RunusCLI

@Suite("history labels in training", .serialized)
struct HistoryTrainingTests {
    @Test("train --labels history|both fits on a simulated database; logged stays the default; labels prints base rates")
    func trainWithHistory() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("h.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "4", "--days", "40", "--seed", "5", "--quiet"],
                             output: CapturedOutput()) == .success)
        let store = try SQLiteStore(path: db)
        let logged = try TrainingPipeline.examples(store: store)
        let byDefault = try TrainingPipeline.examples(store: store, labels: .logged)
        #expect(logged.examples.map(\.assignmentID) == byDefault.examples.map(\.assignmentID))
        let history = try TrainingPipeline.examples(store: store, labels: .history)
        let both = try TrainingPipeline.examples(store: store, labels: .both)
        #expect(!history.examples.isEmpty)
        #expect(both.examples.count == logged.examples.count + history.examples.count)
        #expect(zip(both.examples, both.examples.dropFirst()).allSatisfy { ($0.time, $0.assignmentID) <= ($1.time, $1.assignmentID) })
        #expect(history.examples.allSatisfy { $0.assignmentID.hasPrefix("history:") && $0.pTrue == nil })
        // Deterministic: the same store gives the same examples.
        let again = try TrainingPipeline.examples(store: store, labels: .history)
        #expect(TrainingPipeline.fingerprint(again.examples) == TrainingPipeline.fingerprint(history.examples))
        try store.close()

        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m"), "--labels", "history"], output: out) == .success,
                "\(out.stderr)")
        #expect(out.stderr.contains("training on \(history.examples.count) labelled examples"))
        let bad = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("n"), "--labels", "guess"], output: bad) == .usage)

        let table = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["labels", "--db", db], output: table) == .success)
        let all = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("all\t") })
        #expect(all.split(separator: "\t")[1] == "\(history.examples.count)")
        #expect(table.stdout.contains("distance\t"))
    }
}
