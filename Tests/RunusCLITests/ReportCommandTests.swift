import Foundation
import Testing
import RunusCore
@testable import ModelStore
@testable import RunusCLI

@Suite("runus report", .serialized)
struct ReportCommandTests {
    /// One small simulated database with an LR (runus train) and a GBDT (Learning API) model.
    final class Fixture: @unchecked Sendable {
        let dir = TemporaryDirectory("report-command")
        var db: String { dir.file("sim.sqlite") }
        init() {
            let out = CapturedOutput()
            precondition(RunusCLI.run(arguments: ["simulate", "--db", dir.file("sim.sqlite"), "--runners", "8", "--days", "40",
                                                  "--seed", "5", "--quiet"], output: out) == .success, out.stderr)
            precondition(RunusCLI.run(arguments: ["train", "--db", dir.file("sim.sqlite"), "--out", dir.file("lr")], output: out) == .success,
                         out.stderr)
            try! ReportGBDT.train(db: dir.file("sim.sqlite"), out: dir.file("gbdt"))
        }
        deinit { dir.cleanup() }
    }
    static let fixture = Fixture()

    func run(_ arguments: [String]) -> (ExitCode, CapturedOutput) {
        let out = CapturedOutput()
        return (RunusCLI.run(arguments: ["report"] + arguments, output: out), out)
    }

    @Test("GBDT vs LR: the HTML has every section and no external reference; JSON evaluates the held-out share")
    func gbdtVersusLR() throws {
        let f = Self.fixture
        let (code, out) = run(["--model", f.dir.file("gbdt"), "--vs", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("r.html")])
        #expect(code == .success, "\(out.stderr)")
        #expect(out.stdout.contains("GBDT") && out.stdout.contains("LR"))
        let html = String(decoding: try #require(fileBytes(f.dir.file("r.html"))), as: UTF8.self)
        for id in ["summary", "headline", "curves", "slices", "policy", "importance", "method"] {
            #expect(html.contains("<section id=\"\(id)\">"))
        }
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
        let (jsonCode, _) = run(["--model", f.dir.file("gbdt"), "--vs", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("r.json")])
        #expect(jsonCode == .success)
        let json = try JSONParser.parse(try #require(fileBytes(f.dir.file("r.json"))))
        let lr = try ModelFiles.read(from: f.dir.file("lr"))
        #expect(json["data"]?["examples"]?.doubleValue == lr.metrics["test_rows"])
        #expect(json["models"]?.arrayValue?.map { $0["kind"]?.stringValue } == ["gradient_boosting", "logistic_regression"])
        // The report's point AUC of the LR is the one runus train wrote into the artifact.
        let auc = try #require(json["models"]?.arrayValue?[1]["metrics"]?["auc"]?["estimate"]?.doubleValue)
        #expect(abs(auc - lr.metrics["test_auc"]!) < 1e-12)
    }

    @Test("--vs with the same model twice: zero differences and an 'identical' verdict; Markdown by extension")
    func sameModelTwice() throws {
        let f = Self.fixture
        let (code, out) = run(["--model", f.dir.file("lr"), "--vs", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("same.json")])
        #expect(code == .success, "\(out.stderr)")
        let json = try JSONParser.parse(try #require(fileBytes(f.dir.file("same.json"))))
        for name in ["auc", "log_loss", "brier", "ece"] {
            let d = try #require(json["differences"]?[name])
            #expect(d["estimate"]?.doubleValue == 0 && d["lower"]?.doubleValue == 0 && d["upper"]?.doubleValue == 0)
        }
        #expect(out.stdout.contains("identical"))
        let (mdCode, _) = run(["--model", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("one.md")])
        #expect(mdCode == .success)
        #expect(String(decoding: try #require(fileBytes(f.dir.file("one.md"))), as: UTF8.self).hasPrefix("# Mission model report: LR"))
    }

    @Test("usage and data errors name the problem")
    func errors() {
        let f = Self.fixture
        let (c1, o1) = run(["--model", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("x"), "--format", "pdf"])
        #expect(c1 == .usage && o1.stderr.contains("'pdf' is not html, md or json"))
        let (c2, o2) = run(["--model", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("x"), "--from", "2001-01-01", "--to", "2001-01-31"])
        #expect(c2 == .failure && o2.stderr.contains("no labelled examples in the period"))
        let (c3, o3) = run(["--model", f.dir.file("nothing"), "--db", f.db, "--out", f.dir.file("x")])
        #expect(c3 == .failure && o3.stderr.contains("no model artifact at"))
        let (c4, o4) = run(["--model", f.dir.file("lr"), "--db", f.db, "--out", f.dir.file("x"), "--from", "2026-01-01"])
        #expect(c4 == .usage && o4.stderr.contains("--from and --to go together"))
    }
}
