import Testing
import Foundation
import RunusCore
import Features
import Learning
import Storage
import Engine
import Training
@testable import RunusCLI

@Suite("simulate and train commands", .serialized)
struct SimulateAndTrainTests {
    @Test("runus simulate twice with the same seed gives byte-identical files; another seed does not")
    func simulateIsDeterministic() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        func simulate(_ name: String, seed: Int) -> ExitCode {
            RunusCLI.run(arguments: ["simulate", "--db", dir.file(name), "--runners", "6", "--days", "30",
                                     "--seed", "\(seed)", "--quiet"], output: CapturedOutput())
        }
        #expect(simulate("a.sqlite", seed: 11) == .success)
        #expect(simulate("b.sqlite", seed: 11) == .success)
        #expect(simulate("c.sqlite", seed: 12) == .success)
        let a = try #require(fileBytes(dir.file("a.sqlite")))
        #expect(a.count > 10_000)
        #expect(a == fileBytes(dir.file("b.sqlite")))
        #expect(a != fileBytes(dir.file("c.sqlite")))
        // No partial file or WAL is left behind.
        #expect(fileBytes(dir.file("a.sqlite.partial")) == nil)
        #expect(fileBytes(dir.file("a.sqlite-wal")) == nil)
        // Every run's digest is kept with it (record 0648), the one a daemon would compute.
        let store = try SQLiteStore(path: dir.file("a.sqlite"))
        defer { try? store.close() }
        var runs = 0
        for user in try store.allUsers() {
            let stored = try store.allRuns(user: user.id).map { try #require(try store.run(user: user.id, id: $0.id)) }
            runs += stored.count
            let kept = Dictionary(uniqueKeysWithValues: try store.runDigests(user: user.id).map { ($0.runID, $0) })
            #expect(kept.count == stored.count)
            for run in stored { #expect(kept[run.id] == RunDigests.stored(for: run), "\(run.id)") }
        }
        #expect(runs > 50)
    }

    @Test("simulate refuses to overwrite without --force")
    func refusesOverwrite() {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let args = ["simulate", "--db", dir.file("x.sqlite"), "--runners", "2", "--days", "5", "--quiet"]
        #expect(RunusCLI.run(arguments: args, output: CapturedOutput()) == .success)
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: args, output: out) == .failure)
        #expect(out.stderr.contains("exists; pass --force"))
        #expect(RunusCLI.run(arguments: args + ["--force"], output: CapturedOutput()) == .success)
    }

    @Test("runus train on the same database twice writes identical model files; --card-note adds its section and nothing else")
    func trainIsReproducible() throws {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("t.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "20", "--days", "60", "--seed", "3", "--quiet"],
                             output: CapturedOutput()) == .success)
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m1")], output: out) == .success, "\(out.stderr)")
        let note = dir.file("why.md")
        try "LR ships: it is ahead by person.\n".write(toFile: note, atomically: true, encoding: .utf8)
        let noted = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m2"), "--card-note", note], output: noted) == .success,
                "\(noted.stderr)")
        let model = try #require(fileBytes(dir.file("m1/model.json")))
        #expect(model == fileBytes(dir.file("m2/model.json")))
        let card = String(decoding: try #require(fileBytes(dir.file("m1/MODEL_CARD.md"))), as: UTF8.self)
        let notedCard = String(decoding: try #require(fileBytes(dir.file("m2/MODEL_CARD.md"))), as: UTF8.self)
        #expect(notedCard == card + "\n## Why this model\n\n\(ModelCard.provenance)\n\nLR ships: it is ahead by person.\n")
        let artifact = try ModelArtifact.decode(model)
        #expect(artifact.featureSchemaHash == MissionFeatures.schema.hash)
        #expect(artifact.featureNames == MissionFeatures.schema.names)
    }

    @Test("train --card-note: an unreadable or bad note fails before the data is read")
    func badCardNote() {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("tiny.sqlite")
        #expect(RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "1", "--days", "10", "--quiet"], output: CapturedOutput()) == .success)
        let missing = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m"), "--card-note", dir.file("absent.md")],
                             output: missing) == .failure)
        #expect(missing.stderr.contains("--card-note: cannot open '\(dir.file("absent.md"))'"))
        let directory = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m"), "--card-note", dir.path], output: directory) == .failure)
        #expect(directory.stderr.contains("--card-note: cannot"), "\(directory.stderr)")
        let bad = dir.file("bad.md")
        #expect(FileManager.default.createFile(atPath: bad, contents: Data([0x4C, 0xFF])))
        let refused = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m"), "--card-note", bad], output: refused) == .failure)
        #expect(refused.stderr.contains("--card-note: \(bad): not UTF-8 text"))
        #expect(!refused.stderr.contains("reading labelled examples"), "the note is checked before the data is read")
        #expect(fileBytes(dir.file("m/model.json")) == nil)
    }

    @Test("train refuses a database without enough labels and names the count")
    func tooFewLabels() {
        let dir = TemporaryDirectory()
        defer { dir.cleanup() }
        let db = dir.file("tiny.sqlite")
        _ = RunusCLI.run(arguments: ["simulate", "--db", db, "--runners", "1", "--days", "10", "--quiet"], output: CapturedOutput())
        let out = CapturedOutput()
        #expect(RunusCLI.run(arguments: ["train", "--db", db, "--out", dir.file("m")], output: out) == .failure)
        #expect(out.stderr.contains("labelled examples"))
    }
}
