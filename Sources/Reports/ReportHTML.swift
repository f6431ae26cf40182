/// The report as one self-contained HTML file: inline CSS and SVG, no scripts, no external
/// resources, readable printed or as a screenshot (docs/decisions/0707-report-rendering.md).
public enum ReportHTML {
    /// Section ids in page order (tests check every one is present).
    public static let sectionIDs = ["summary", "headline", "curves", "kinds", "slices", "policy", "importance", "method"]

    public static func render(_ r: EvaluationReport) -> String {
        let e = HTMLText.escape
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        h += "<title>\(e(ReportText.title(r)))</title>\n<style>\(css)</style>\n</head>\n<body>\n<main>\n"
        h += "<section id=\"summary\">\n<h1>\(e(ReportText.title(r)))</h1>\n<p class=\"meta\">\(e(ReportText.dataLine(r)))</p>\n"
        if let verdict = r.verdict { h += "<p class=\"verdict\"><strong>Verdict.</strong> \(e(verdict))</p>\n" }
        h += "</section>\n"
        h += headline(r)
        h += "<section id=\"curves\">\n<h2>Ranking and calibration</h2>\n<div class=\"grid\">\n"
        h += figure(ReportCharts.roc(r), "Each curve sweeps the decision threshold; the further above the diagonal, the better the model ranks missions.")
        h += figure(ReportCharts.precisionRecall(r), "Precision among missions predicted to complete, as more are included.")
        h += figure(ReportCharts.reliability(r), "Points on the diagonal are calibrated; the shaded strip is the policy's target band.")
        for m in r.models.indices {
            h += figure(ReportCharts.histogram(r, model: m), "Green: completed missions, orange: failed ones; each outcome sums to 100%.")
        }
        h += "</div>\n</section>\n"
        h += "<section id=\"kinds\">\n<h2>Calibration by mission kind</h2>\n<div class=\"grid\">\n"
        for k in r.kindReliability {
            h += figure(ReportCharts.reliability(r, kind: k), "Reliability of \(k.kind) missions alone: a kind off the diagonal is offered outside the band it seems to sit in.")
        }
        h += "</div>\n</section>\n"
        h += slices(r)
        h += policy(r)
        h += importance(r)
        h += method(r)
        h += "</main>\n</body>\n</html>\n"
        return h
    }

    static func figure(_ svg: String, _ caption: String) -> String {
        "<figure>\(svg)<figcaption>\(HTMLText.escape(caption))</figcaption></figure>\n"
    }

    static func cell(_ text: String, _ cls: String = "") -> String {
        "<td\(cls.isEmpty ? "" : " class=\"\(cls)\"")>\(HTMLText.escape(text))</td>"
    }

    static func headline(_ r: EvaluationReport) -> String {
        let e = HTMLText.escape
        var h = "<section id=\"headline\">\n<h2>Headline metrics</h2>\n<table>\n<thead><tr><th>metric</th>"
        for m in r.models { h += "<th>\(e(m.name)) <span class=\"ci\">[\(ReportText.level(r.configuration)) CI]</span></th>" }
        if r.differences != nil { h += "<th>\(e(r.models[0].name)) − \(e(r.models[1].name)) <span class=\"ci\">[paired CI]</span></th><th>reading</th>" }
        h += "</tr></thead>\n<tbody>\n"
        for name in MetricSet.names {
            let lower = EvaluationReport.lowerIsBetter.contains(name)
            h += "<tr><th scope=\"row\">\(e(EvaluationReport.metricTitles[name]!)) <span class=\"ci\">\(lower ? "lower is better" : "higher is better")</span></th>"
            for m in r.models { h += cell(m.metrics[name].map(ReportText.interval) ?? "n/a", "num") }
            if let d = r.differences {
                h += cell(d[name].map { ReportText.interval($0, signed: true) } ?? "n/a", "num")
                h += cell(reading(d[name], lowerIsBetter: lower, a: r.models[0].name, b: r.models[1].name))
            }
            h += "</tr>\n"
        }
        h += "<tr><th scope=\"row\">Average precision <span class=\"ci\">higher is better</span></th>"
        for m in r.models { h += cell(ReportFormat.number(m.curves.averagePrecision, digits: 4), "num") }
        if r.differences != nil { h += cell("", "num") + cell("") }
        h += "</tr>\n<tr><th scope=\"row\">Mean predicted <span class=\"ci\">observed \(ReportFormat.number(r.data.baseRate, digits: 4))</span></th>"
        for m in r.models { h += cell(ReportFormat.number(m.meanPredicted, digits: 4), "num") }
        if r.differences != nil { h += cell("", "num") + cell("") }
        h += "</tr>\n</tbody>\n</table>\n<p class=\"note\">\(e(ReportText.bootstrapNote(r)))</p>\n</section>\n"
        return h
    }

    /// "A better" / "B better" / "no clear difference" for one paired difference.
    static func reading(_ i: Interval?, lowerIsBetter: Bool, a: String, b: String) -> String {
        guard let i else { return "n/a" }
        guard i.excludesZero else { return i.estimate == 0 && i.lower == 0 && i.upper == 0 ? "identical" : "no clear difference" }
        let aBetter = lowerIsBetter ? i.estimate < 0 : i.estimate > 0
        return "\(aBetter ? a : b) better"
    }

    static func slices(_ r: EvaluationReport) -> String {
        let e = HTMLText.escape
        var h = "<section id=\"slices\">\n<h2>Slices: mission kind, runner experience, month</h2>\n"
        h += figure(ReportCharts.slices(r), "Grey rows have fewer than \(r.configuration.minimumSliceSize) missions: too few to read. "
                    + "Runner experience counts the runs logged before the offer.")
        h += "<table class=\"compact\">\n<thead><tr><th>slice</th><th>missions</th><th>completed</th>"
        for m in r.models { h += "<th>\(e(m.name)) mean p</th><th>\(e(m.name)) AUC</th><th>\(e(m.name)) log loss</th>" }
        if r.differences != nil { h += "<th>Δ log loss</th>" }
        h += "</tr></thead>\n<tbody>\n"
        for s in r.slices {
            h += "<tr\(s.tooSmall ? " class=\"dim\"" : "")><th scope=\"row\">\(e(s.dimension)): \(e(ReportText.sliceValue(s)))</th>"
            h += cell(ReportFormat.integer(s.count), "num") + cell(ReportFormat.percent(s.completionRate), "num")
            for m in r.models.indices {
                h += cell(ReportFormat.number(s.meanPredicted[m]), "num")
                h += stacked(s.metrics[m]["auc"], signed: false)
                h += stacked(s.metrics[m]["log_loss"], signed: false)
            }
            if let d = s.difference { h += stacked(d["log_loss"], signed: true) }
            h += "</tr>\n"
        }
        return h + "</tbody>\n</table>\n</section>\n"
    }

    /// An estimate with its interval on a second, smaller line (keeps wide tables readable).
    static func stacked(_ i: Interval?, signed: Bool) -> String {
        guard let i else { return cell("n/a", "num") }
        let f: (Double) -> String = signed ? { ReportFormat.signedPlain($0, digits: 3) } : { ReportFormat.number($0, digits: 3) }
        let ci = i.lower.flatMap { lo in i.upper.map { "[\(f(lo)), \(f($0))]" } } ?? "[n/a]"
        return "<td class=\"num\">\(HTMLText.escape(f(i.estimate)))<br/><span class=\"ci\">\(HTMLText.escape(ci))</span></td>"
    }

    static func policy(_ r: EvaluationReport) -> String {
        let e = HTMLText.escape
        let p = r.policy
        var h = "<section id=\"policy\">\n<h2>Mission policy</h2>\n<p>\(e(ReportText.policyIntro(p)))</p>\n"
        // Nothing recommended (history-derived labels): the sentence says so; no empty chart or tables.
        if p.offers == 0 { return h + "</section>\n" }
        h += "<div class=\"grid\">\n"
        h += figure(ReportCharts.policy(r), "Diamonds: mean predicted completion; circles: realised completion. The shaded strip is the target band.")
        h += "<div>\n<table>\n<thead><tr><th>model</th><th>predicted p</th><th>offers</th><th>share</th><th>tried</th><th>predicted (tried)</th><th>realised [95% Wilson]</th></tr></thead>\n<tbody>\n"
        for v in p.models {
            for g in [v.overall] + v.bands {
                h += "<tr>" + cell(v.model) + cell(ReportText.bandName(g.name, p.targetBand)) + cell(ReportFormat.integer(g.offers), "num")
                    + cell(ReportFormat.percent(g.share), "num") + cell(ReportFormat.integer(g.tried), "num") + cell(g.meanPredicted.map { ReportFormat.number($0) } ?? "n/a", "num")
                    + cell(ReportText.realised(g), "num") + "</tr>\n"
            }
        }
        h += "</tbody>\n</table>\n<table>\n<thead><tr><th>kind</th><th>offers</th><th>share</th><th>tried</th><th>realised [95% Wilson]</th></tr></thead>\n<tbody>\n"
        for g in p.kinds {
            h += "<tr>" + cell(g.name) + cell(ReportFormat.integer(g.offers), "num") + cell(ReportFormat.percent(g.share), "num")
                + cell(ReportFormat.integer(g.tried), "num")
                + cell(ReportText.realised(g), "num") + "</tr>\n"
        }
        h += "</tbody>\n</table>\n</div>\n</div>\n<p>\(e(ReportText.varietyLine(p.variety)))</p>\n</section>\n"
        return h
    }

    static func importance(_ r: EvaluationReport) -> String {
        let e = HTMLText.escape
        var h = "<section id=\"importance\">\n<h2>Feature importance</h2>\n"
        if r.models.allSatisfy({ $0.importance == nil }) {
            return h + "<p>Not computed: the report was built without feature rows.</p>\n</section>\n"
        }
        h += "<div class=\"grid\">\n"
        for (m, model) in r.models.enumerated() {
            guard let imp = model.importance, let svg = ReportCharts.importance(model, index: m) else { continue }
            let first = model.kind == "gradient_boosting" ? "gain share" : "std. coefficient"
            h += "<div>\n" + figure(svg, ReportText.importanceNote(model, imp))
            h += "<table>\n<thead><tr><th>feature</th><th>\(first)</th><th>Δ log loss</th><th>Δ AUC</th></tr></thead>\n<tbody>\n"
            for row in ReportText.importanceOrder(imp) {
                let head = row.gainShare.map { ReportFormat.percent($0) }
                    ?? row.standardisedCoefficient.map { ReportFormat.signedPlain($0, digits: 3) } ?? "n/a"
                h += "<tr><td><code>\(e(row.feature))</code></td>" + cell(head, "num")
                    + cell(ReportFormat.signedPlain(row.permutationLogLoss), "num") + cell(ReportFormat.signedPlain(row.permutationAUC), "num") + "</tr>\n"
            }
            h += "</tbody>\n</table>\n</div>\n"
        }
        return h + "</div>\n</section>\n"
    }

    static func method(_ r: EvaluationReport) -> String {
        let items = [
            ReportText.bootstrapNote(r),
            "Log loss in nats with probabilities clipped to [1e-15, 1 − 1e-15]; ECE over 10 equal-width bins; "
                + "AUC by average ranks (ties count one half).",
            "ECE is biased upward under resampling (it adds up absolute bin errors, and resampling adds noise to every bin), "
                + "so its interval sits mostly above the estimate; read it as \"how large could the error be\", and its "
                + "difference interval with the same care.",
            "Runner experience: new < \(RunnerExperience.regularFrom) runs logged before the offer, regular \(RunnerExperience.regularFrom)–"
                + "\(RunnerExperience.veteranFrom - 1), veteran ≥ \(RunnerExperience.veteranFrom). Months are the runner's local calendar.",
            "Colours: Okabe–Ito palette; the second model is also dashed, so the plots survive grey printing and colour-vision deficiencies.",
            ReportText.footer(r),
        ]
        return "<section id=\"method\">\n<h2>Method</h2>\n<ul>\n" + items.map { "<li>\(HTMLText.escape($0))</li>\n" }.joined()
            + "</ul>\n</section>\n"
    }

    static let css = """
    body{font-family:"DejaVu Sans",Verdana,system-ui,sans-serif;color:#1a1a1a;background:#fff;margin:0}\
    main{max-width:1000px;margin:0 auto;padding:20px 28px 40px}\
    h1{font-size:24px;margin:4px 0 8px}h2{font-size:19px;margin:30px 0 10px;border-bottom:1px solid #ccc;padding-bottom:4px}\
    p,li{font-size:14px;line-height:1.45}.meta{color:#444}\
    .verdict{font-size:16px;background:#f4f4f4;border-left:5px solid #0072B2;padding:10px 14px}\
    table{border-collapse:collapse;font-size:13px;margin:8px 0 14px}\
    th,td{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}\
    thead th{border-bottom:2px solid #999;background:#fafafa}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
    table.compact td,table.compact th{padding:3px 6px}table.compact tbody th{white-space:nowrap}\
    .ci{font-weight:normal;color:#666;font-size:11px}tr.dim{color:#999}.note{color:#555;font-size:13px}\
    .grid{display:flex;flex-wrap:wrap;gap:12px 24px;align-items:flex-start}figure{margin:0}\
    figcaption{font-size:12px;color:#555;max-width:460px;margin-top:2px}\
    svg text{font-family:"DejaVu Sans",Verdana,sans-serif}svg .t{font-size:14px;font-weight:bold}\
    svg .k{font-size:11.5px;fill:#222}svg .a{font-size:12.5px;fill:#222}svg .dim{fill:#999}code{font-size:12px}
    """
}
