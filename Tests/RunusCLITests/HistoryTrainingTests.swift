import Testing
import Foundation
import RunusCore
import Storage
import Features
import Training
@testable import Service
@testable import RunusCLI

/// How `runus train` and `runus labels` use history labels; the examples themselves are tested
/// in TrainingTests (TrainingExamplesTests).
@Suite("history labels in training", .serialized)
struct HistoryTrainingTests {
    @Test("train --labels history fits on a simulated database; a bad --labels is a usage error; labels prints base rates")
    func trainWithHistory() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("h.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "4", "--days", "40", "--seed", "5", "--quiet"],
                             output: CapturedOutput()) == .success)
        let store = try SQLiteStore(path: db)
        let history = try TrainingPipeline.examples(store: store, labels: .history, resolver: SystemTimeZones())
        #expect(!history.examples.isEmpty)
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
