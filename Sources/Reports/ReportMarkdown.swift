/// The report as Markdown for a pull request: the same numbers as the HTML, without plots.
public enum ReportMarkdown {
    public static func render(_ r: EvaluationReport) -> String {
        let level = ReportText.level(r.configuration)
        var lines: [String] = []
        lines.append("# \(ReportText.title(r))")
        lines.append("")
        lines.append(ReportText.dataLine(r))
        lines.append("")
        if let verdict = r.verdict { lines += ["**Verdict:** \(verdict)", ""] }

        lines.append("## Headline metrics (\(level) bootstrap intervals)")
        lines.append("")
        var header = "| metric |" + r.models.map { " \($0.name) |" }.joined()
        var rule = "|---|" + String(repeating: "---:|", count: r.models.count)
        if r.differences != nil { header += " \(r.models[0].name) − \(r.models[1].name) |"; rule += "---:|" }
        lines += [header, rule]
        for name in MetricSet.names {
            var row = "| \(EvaluationReport.metricTitles[name]!) \(EvaluationReport.lowerIsBetter.contains(name) ? "↓" : "↑") |"
            for m in r.models { row += " \(m.metrics[name].map(ReportText.interval) ?? "n/a") |" }
            if let d = r.differences { row += " \(d[name].map { ReportText.interval($0, signed: true) } ?? "n/a") |" }
            lines.append(row)
        }
        lines.append("| Average precision ↑ |" + r.models.map { " \(ReportFormat.number($0.curves.averagePrecision)) |" }.joined()
                     + (r.differences != nil ? " |" : ""))
        lines += ["", ReportText.bootstrapNote(r), ""]

        lines.append("## Slices")
        lines.append("")
        lines.append("| slice | n | completed |" + r.models.map { " \($0.name) mean p | \($0.name) AUC | \($0.name) log loss |" }.joined()
                     + (r.differences != nil ? " Δ log loss |" : ""))
        lines.append("|---|---:|---:|" + String(repeating: "---:|---:|---:|", count: r.models.count) + (r.differences != nil ? "---:|" : ""))
        for s in r.slices {
            var row = "| \(s.dimension): \(ReportText.sliceValue(s))\(s.tooSmall ? " (too few)" : "") | \(ReportFormat.integer(s.count)) | \(ReportFormat.percent(s.completionRate)) |"
            for m in r.models.indices {
                row += " \(ReportFormat.number(s.meanPredicted[m])) | \(s.metrics[m]["auc"].map(ReportText.interval) ?? "n/a") |"
                row += " \(s.metrics[m]["log_loss"].map(ReportText.interval) ?? "n/a") |"
            }
            if let d = s.difference { row += " \(d["log_loss"].map { ReportText.interval($0, signed: true) } ?? "n/a") |" }
            lines.append(row)
        }
        lines.append("")

        let p = r.policy
        lines.append("## Mission policy")
        lines.append("")
        lines.append(ReportText.policyIntro(p))
        lines.append("")
        if p.offers > 0 { ReportText.policyTables(p, into: &lines) }

        lines.append("## Feature importance")
        for m in r.models {
            guard let imp = m.importance else { continue }
            lines += ["", "### \(m.name)", "", ReportText.importanceNote(m, imp), ""]
            let first = m.kind == "gradient_boosting" ? "gain share" : "standardised coefficient"
            lines.append("| feature | \(first) | permutation Δ log loss (nats) | permutation Δ AUC |")
            lines.append("|---|---:|---:|---:|")
            for row in ReportText.importanceOrder(imp) {
                let head = row.gainShare.map { ReportFormat.percent($0) } ?? row.standardisedCoefficient.map { ReportFormat.signedPlain($0, digits: 3) } ?? "n/a"
                lines.append("| `\(row.feature)` | \(head) | \(ReportFormat.signedPlain(row.permutationLogLoss)) | \(ReportFormat.signedPlain(row.permutationAUC)) |")
            }
        }
        lines += ["", "---", ReportText.footer(r), ""]
        return lines.joined(separator: "\n")
    }
}

/// Sentences and cell formats shared by the Markdown and HTML renderers.
enum ReportText {
    static func level(_ c: ReportConfiguration) -> String { "\(Int(saturating: (c.confidence * 100).rounded()))%" }

    static func title(_ r: EvaluationReport) -> String {
        r.models.count == 2 ? "Mission model report: \(r.models[0].name) vs \(r.models[1].name)"
                            : "Mission model report: \(r.models[0].name)"
    }

    static func dataLine(_ r: EvaluationReport) -> String {
        let d = r.data
        return "\(ReportFormat.integer(d.examples)) tried missions of \(ReportFormat.integer(d.runners)) runners, "
            + "\(d.firstDay) to \(d.lastDay) (\(d.period)); completed \(ReportFormat.percent(d.baseRate)). Source: \(d.source). "
            + "Models: " + r.models.map { "\($0.name) = \($0.kind) `\($0.version)`" }.joined(separator: ", ") + "."
    }

    static func interval(_ i: Interval) -> String { interval(i, signed: false) }

    static func interval(_ i: Interval, signed: Bool) -> String {
        let f: (Double) -> String = signed ? { ReportFormat.signedPlain($0) } : { ReportFormat.number($0, digits: 4) }
        guard let lo = i.lower, let hi = i.upper else { return f(i.estimate) + " [n/a]" }
        return "\(f(i.estimate)) [\(f(lo)), \(f(hi))]"
    }

    static func bootstrapNote(_ r: EvaluationReport) -> String {
        let c = r.configuration
        let unit = c.resampleUnit == .runner ? "whole runners (cluster bootstrap: a runner's missions are not independent)" : "single missions"
        return "Intervals: percentile bootstrap, \(ReportFormat.integer(c.resamples)) resamples of \(unit), seed \(c.seed)"
            + (r.differences != nil ? "; differences are paired (both models on the same resamples)." : ".")
            + " Slices use \(c.sliceResamples) resamples."
    }

    static func sliceValue(_ s: SliceRow) -> String {
        s.dimension == "experience" ? (RunnerExperience(rawValue: s.value)?.label ?? s.value) : s.value
    }

    static func bandName(_ name: String, _ band: ClosedRange<Double>) -> String {
        let lo = ReportFormat.number(band.lowerBound, digits: 2), hi = ReportFormat.number(band.upperBound, digits: 2)
        switch name {
        case "all": return "all recommended"
        case "below": return "p < \(lo)"
        case "in": return "in band \(lo)–\(hi)"
        case "above": return "p > \(hi)"
        default: return name
        }
    }

    static func realised(_ g: PolicySummary.Group) -> String {
        guard let r = g.realised, let lo = g.realisedLower, let hi = g.realisedUpper else { return "n/a" }
        return "\(ReportFormat.number(r)) [\(ReportFormat.number(lo)), \(ReportFormat.number(hi))]"
    }

    static func policyIntro(_ p: PolicySummary) -> String {
        if p.offers == 0 {
            return "No recommendations were logged in the period (e.g. history-derived labels only): nothing to show about the policy."
        }
        return "The \(ReportFormat.integer(p.offers)) missions the policy recommended in the period (\(ReportFormat.integer(p.runnerDays)) runner-days; "
            + "\(ReportFormat.integer(p.scored)) of them of kinds the models score), grouped by each model's predicted completion. "
            + "Realised completion counts the \(ReportFormat.integer(p.tried)) the runners tried (an untried mission has no outcome). "
            + "Target band \(ReportFormat.number(p.targetBand.lowerBound, digits: 2))–\(ReportFormat.number(p.targetBand.upperBound, digits: 2)): "
            + "with a calibrated model, in-band missions are completed at a rate inside the band."
    }

    static func varietyLine(_ v: PolicySummary.Variety) -> String {
        "Variety: \(v.distinctKinds) kinds; \(ReportFormat.number(v.meanKindsPerRunnerDay, digits: 2)) kinds per runner-day; "
            + "\(ReportFormat.percent(v.shareOfDaysWithSeveralKinds)) of runner-days with two or more kinds; "
            + "kind mix evenness (normalised entropy) \(ReportFormat.number(v.normalisedEntropy, digits: 2)); "
            + "most frequent kind \(ReportFormat.percent(v.largestKindShare))."
    }

    static func importanceNote(_ m: EvaluationReport.ModelSection, _ imp: FeatureImportance) -> String {
        let first = m.kind == "gradient_boosting"
            ? "Gain share: the feature's part of all split gain in the trees (training data)."
            : "Standardised coefficient: log-odds per standard deviation of the feature (training scale)."
        return first + " Permutation: mean change when the feature's column is shuffled, \(imp.permutationRepeats) shuffles "
            + "on \(ReportFormat.integer(imp.permutationRows)) evaluation rows (higher = the model relies on it more)."
    }

    /// Rows by decreasing permutation log-loss increase, then name.
    static func importanceOrder(_ imp: FeatureImportance) -> [FeatureImportance.Row] {
        imp.rows.sorted { ($0.permutationLogLoss, $1.feature) > ($1.permutationLogLoss, $0.feature) }
    }

    static func footer(_ r: EvaluationReport) -> String {
        "Built by `runus report`: report format \(ReportJSON.formatVersion), seed \(r.configuration.seed). "
            + "Definitions: docs/decisions/0700–0706 and 0303."
    }

    /// The policy's tables by predicted band and by kind, and the variety line.
    static func policyTables(_ p: PolicySummary, into lines: inout [String]) {
        lines.append("| model | group by predicted p | offers | share | tried | predicted (tried) | realised (95% Wilson) |")
        lines.append("|---|---|---:|---:|---:|---:|---:|")
        for v in p.models {
            for g in [v.overall] + v.bands {
                lines.append("| \(v.model) | \(ReportText.bandName(g.name, p.targetBand)) | \(ReportFormat.integer(g.offers)) | \(ReportFormat.percent(g.share)) | "
                             + "\(ReportFormat.integer(g.tried)) | \(g.meanPredicted.map { ReportFormat.number($0) } ?? "n/a") | \(ReportText.realised(g)) |")
            }
        }
        lines.append("")
        lines.append("| kind | offers | share | tried | realised (95% Wilson) |")
        lines.append("|---|---:|---:|---:|---:|")
        for g in p.kinds {
            lines.append("| \(g.name) | \(ReportFormat.integer(g.offers)) | \(ReportFormat.percent(g.share)) | \(ReportFormat.integer(g.tried)) | \(ReportText.realised(g)) |")
        }
        lines += ["", ReportText.varietyLine(p.variety), ""]
    }
}
