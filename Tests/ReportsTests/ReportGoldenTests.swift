import Foundation
import Testing
import RunusCore
@testable import Reports

/// The JSON numbers of the fixture report against a reviewed golden file.
///
/// Regenerate (only on purpose, then review the diff):
///     RUNUS_WRITE_REPORT_GOLDEN=1 swift test --disable-xctest --filter ReportGoldenTests
@Suite("report golden file")
struct ReportGoldenTests {
    static let goldenPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/report-fixture.json").path
    /// The LR fit and scores go through OpenBLAS, whose kernel choice can move the last bits of a
    /// probability; every reported number is a smooth or rank function of them, so 1e-9 absolute
    /// (on values of order 1) catches any real change and tolerates that noise.
    static let numberTolerance = 1e-9

    @Test("the fixture report's JSON matches the golden file (strings exactly, numbers within 1e-9)")
    func golden() throws {
        let report = try ReportFixture().report()
        let bytes = ReportJSON.bytes(report)
        if ProcessInfo.processInfo.environment["RUNUS_WRITE_REPORT_GOLDEN"] == "1" {
            try Data(bytes).write(to: URL(fileURLWithPath: Self.goldenPath))
        }
        let stored = try #require(FileManager.default.contents(atPath: Self.goldenPath), "missing \(Self.goldenPath)")
        let expected = try JSONParser.parse(Array(stored)), actual = try JSONParser.parse(bytes)
        var differences: [String] = []
        Self.compare(expected, actual, path: "$", into: &differences)
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(5))")
    }

    static func compare(_ a: JSONValue, _ b: JSONValue, path: String, into out: inout [String]) {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if abs(x - y) > numberTolerance { out.append("\(path): golden \(x), now \(y)") }
        case (.array(let xs), .array(let ys)):
            if xs.count != ys.count { out.append("\(path): golden has \(xs.count) elements, now \(ys.count)"); return }
            for k in xs.indices { compare(xs[k], ys[k], path: "\(path)[\(k)]", into: &out) }
        case (.object(let xs), .object(let ys)):
            if Set(xs.keys) != Set(ys.keys) { out.append("\(path): keys \(xs.keys.sorted()) vs \(ys.keys.sorted())"); return }
            for key in xs.keys.sorted() { compare(xs[key]!, ys[key]!, path: "\(path).\(key)", into: &out) }
        default:
            if a != b { out.append("\(path): golden \(a), now \(b)") }
        }
    }
}

@Suite("report renderers")
struct ReportRenderTests {
    @Test("the HTML is well formed, self-contained, and has every section, plot and label",
          arguments: [1, 2])
    func html(models: Int) throws {
        let f = try ReportFixture(evaluated: 300)
        var report = try f.report(resamples: 100)
        if models == 1 {
            let examples = f.examples.map { e in
                EvaluatedExample(label: e.label, probabilities: [e.probabilities[0]], kind: e.kind, runner: e.runner,
                                 experience: e.experience, month: e.month, day: e.day)
            }
            var c = ReportConfiguration()
            c.resamples = 100
            report = try ReportBuilder.build(examples: examples, models: [f.gbdt], features: f.features,
                                             data: ReportFixture.data(examples), configuration: c)
        }
        let html = ReportHTML.render(report)
        let problems = HTMLChecker.problems(html)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        for id in ReportHTML.sectionIDs { #expect(html.contains("<section id=\"\(id)\">"), "missing section \(id)") }
        let svgCount = html.components(separatedBy: "<svg ").count - 1
        // ROC, PR, reliability, slices, the policy chart when missions were recommended, per
        // model a histogram and an importance chart, and one reliability diagram per kind.
        let offered = report.policy.offers > 0
        #expect(report.kindReliability.count == Set(report.slices.filter { $0.dimension == "kind" }.map(\.value)).count)
        #expect(report.kindReliability.count >= 2)
        #expect(svgCount == 4 + (offered ? 1 : 0) + models * 2 + report.kindReliability.count)
        let kinds = try #require(html.components(separatedBy: "<section id=\"kinds\">").last?.components(separatedBy: "</section>").first)
        for k in report.kindReliability { #expect(kinds.contains("Reliability diagram of \(k.kind) missions"), "no diagram for \(k.kind)") }
        let policy = try #require(html.components(separatedBy: "<section id=\"policy\">").last?.components(separatedBy: "</section>").first)
        #expect(policy.contains("<svg ") == offered && policy.contains("<table>") == offered,
                "the policy section shows its chart and tables exactly when missions were recommended")
        #expect(policy.contains("No recommendations were logged") == !offered)
        for label in ["False-positive rate", "Recall", "Observed completion rate", "Predicted completion probability",
                      "Increase in log loss when shuffled (nats)", "ROC AUC", "Log loss (nats)", "Brier score", "ECE (10 bins)"] {
            #expect(html.contains(label), "missing label \(label)")
        }
        #expect(html.contains("#0072B2") && html.contains("#009E73"))   // Okabe–Ito
        #expect(html.contains("Verdict") == (models == 2))
        // The checker itself catches what it should.
        #expect(!HTMLChecker.problems("<p><b>x</p></b>").isEmpty)
        #expect(!HTMLChecker.problems("<p class=x>y</p>").isEmpty)
        #expect(!HTMLChecker.problems("<p>a & b</p>").isEmpty)
        #expect(!HTMLChecker.problems("<svg><image href=\"https://example.com/a.png\"/></svg>").isEmpty)
        #expect(HTMLChecker.problems("<p title=\"a\">x<br/>&amp;</p>").isEmpty)
    }

    @Test("Markdown and JSON carry the verdict, every metric and every slice")
    func markdownAndJSON() throws {
        let report = try ReportFixture(evaluated: 300).report(resamples: 100)
        let md = ReportMarkdown.render(report)
        #expect(md.contains("**Verdict:**") && md.contains("## Slices") && md.contains("## Mission policy") && md.contains("## Feature importance"))
        for s in report.slices { #expect(md.contains("\(s.dimension): ")) }
        let json = try JSONParser.parse(ReportJSON.bytes(report))
        #expect(json["verdict"]?.stringValue == report.verdict)
        #expect(json["slices"]?.arrayValue?.count == report.slices.count)
        for name in MetricSet.names { #expect(json["differences"]?[name]?["lower"]?.doubleValue != nil) }
    }
}
