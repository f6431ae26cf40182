import Testing
import Foundation
import RunusCore
import Storage
@testable import RunusCLI

/// Commands that read a database refuse a path that is not one, instead of creating an empty
/// database there (a mistyped `--db` used to train on nothing), and `report` refuses a file
/// name it would not write as named (`--out x.pdf` used to get HTML) (issue 24, item 9).
@Suite("command-line paths")
struct CLIPathTests {
    @Test("train, labels, report and models compare refuse a --db that does not exist, and create nothing", arguments: [
        ["train", "--out", "M"], ["labels"], ["report", "--model", "models/default", "--out", "R.html"],
        ["models", "compare", "models/default"],
    ])
    func missingDatabase(_ command: [String]) throws {
        let dir = TemporaryDirectory("paths")
        defer { dir.cleanup() }
        let db = dir.file("mistyped.sqlite")
        let arguments = command.map { $0 == "M" ? dir.file("model") : $0 == "R.html" ? dir.file("r.html") : $0 }
        let r = runCLI(arguments + ["--db", db])
        #expect(r.code == .usage, "\(r.err)")
        #expect(r.err.contains("no such database"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("report --out with an extension it does not write is refused before any work", arguments: ["r.pdf", "dir/r.png", "r.HTM.txt"])
    func reportExtension(_ name: String) throws {
        #expect(throws: UsageError.self) { _ = try ReportCommand.format(nil, out: name) }
        #expect(try ReportCommand.format("html", out: name) == .html)
        #expect(try ReportCommand.format(nil, out: "r.md") == .md)
        #expect(try ReportCommand.format(nil, out: "out/report") == .html)
        #expect(try ReportCommand.format(nil, out: "r.HTML") == .html)
    }

    @Test("train on runs without logged outcomes (an imported history) says to use --labels history")
    func trainSuggestsHistoryLabels() throws {
        let dir = TemporaryDirectory("paths")
        defer { dir.cleanup() }
        let store = try SQLiteStore(path: dir.file("imported.sqlite"))
        try store.upsertUser(UserProfile(id: "ana", weightKg: 58, timeZone: "UTC", utcOffsetSeconds: 0))
        for i in 0..<5 {
            try store.insertRun(RunRecord(id: "import-\(i)", userID: "ana", startTime: 1_790_000_000 + Double(i) * 86_400,
                                          distance: 6000, elapsed: 2100, moving: 2000, elevationGain: 20, source: "import"))
        }
        try store.close()
        let r = runCLI(["train", "--db", dir.file("imported.sqlite"), "--out", dir.file("model")])
        #expect(r.code == .failure)
        #expect(r.err.contains("--labels history") && r.err.contains("0 logged outcomes"), "\(r.err)")
    }
}
