/// The report's plots as inline SVG (docs/decisions/0703-curves.md, 0707-report-rendering.md).
enum ReportCharts {
    typealias P = SVGPlot.Palette
    static let unitTicks = stride(from: 0.0, through: 1.0, by: 0.2).map { $0 }

    static func modelItem(_ r: EvaluationReport, _ m: Int, _ suffix: String) -> (label: String, colour: String, dash: String, filled: Bool) {
        (r.models[m].name + suffix, P.models[m], P.modelDash[m], false)
    }

    static func roc(_ r: EvaluationReport) -> String {
        var plot = SVGPlot(x: 0...1, y: 0...1)
        plot.frame(title: "ROC curve", xLabel: "False-positive rate (failed missions predicted to complete)",
                   yLabel: "True-positive rate (recall)", xTicks: unitTicks, yTicks: unitTicks)
        plot.line([(0, 0), (1, 1)], colour: P.reference, dash: "2 3", width: 1)
        for (m, model) in r.models.enumerated() {
            plot.line(model.curves.roc.map { ($0.x, $0.y) }, colour: P.models[m], dash: P.modelDash[m])
        }
        var items = r.models.indices.map { m in
            modelItem(r, m, " (AUC \(r.models[m].metrics["auc"].map { ReportFormat.number($0.estimate) } ?? "n/a"))")
        }
        items.append(("chance (AUC 0.5)", P.reference, "2 3", false))
        plot.legend(items, corner: .bottomRight)
        return plot.svg(label: "ROC curves of " + r.models.map(\.name).joined(separator: " and "))
    }

    static func precisionRecall(_ r: EvaluationReport) -> String {
        let base = r.data.baseRate
        let low = max(0, (min(base, r.models.flatMap { $0.curves.precisionRecall.map(\.y) }.min() ?? base) * 10).rounded(.down) / 10)
        let yTicks = stride(from: low, through: 1.0001, by: 0.1).map { $0 }
        var plot = SVGPlot(x: 0...1, y: low...1)
        plot.frame(title: "Precision–recall curve", xLabel: "Recall (share of completed missions found)",
                   yLabel: "Precision (share completed)", xTicks: unitTicks, yTicks: yTicks)
        plot.line([(0, base), (1, base)], colour: P.reference, dash: "2 3", width: 1)
        for (m, model) in r.models.enumerated() {
            plot.line(model.curves.precisionRecall.map { ($0.x, $0.y) }, colour: P.models[m], dash: P.modelDash[m])
        }
        var items = r.models.indices.map { m in modelItem(r, m, " (AP \(ReportFormat.number(r.models[m].curves.averagePrecision)))") }
        items.append(("base rate \(ReportFormat.number(base))", P.reference, "2 3", false))
        plot.legend(items, corner: .bottomLeft)
        return plot.svg(label: "Precision-recall curves")
    }

    static func reliability(_ r: EvaluationReport) -> String {
        reliability(r, title: "Reliability diagram (\(r.configuration.reliabilityBins) bins, 95% Wilson bars)",
                    bins: r.models.map(\.curves.reliability), ece: r.models.map { $0.metrics["ece"]?.estimate },
                    label: "Reliability diagram")
    }

    /// The reliability diagram of one mission kind.
    static func reliability(_ r: EvaluationReport, kind k: KindReliability) -> String {
        reliability(r, title: "\(k.kind): \(k.count) missions, \(k.completed) completed", bins: k.reliability, ece: k.ece.map { $0 },
                    label: "Reliability diagram of \(k.kind) missions")
    }

    static func reliability(_ r: EvaluationReport, title: String, bins: [[ReliabilityPoint]], ece: [Double?], label: String) -> String {
        var plot = SVGPlot(x: 0...1, y: 0...1)
        let band = r.configuration.targetBand
        plot.rect(x0: band.lowerBound, y0: 0, x1: band.upperBound, y1: 1, fill: P.band, opacity: 0.25)
        plot.frame(title: title, xLabel: "Mean predicted completion in bin", yLabel: "Observed completion rate", xTicks: unitTicks, yTicks: unitTicks)
        plot.text("target band", x: (band.lowerBound + band.upperBound) / 2, y: 0.02, anchor: "middle", dy: -4)
        plot.line([(0, 0), (1, 1)], colour: P.reference, dash: "2 3", width: 1)
        for (m, modelBins) in bins.enumerated() where m < r.models.count {
            let points = modelBins.compactMap { b -> (Double, Double, Double, Double)? in
                guard let x = b.meanPredicted, let y = b.observed, let lo = b.observedLower, let hi = b.observedUpper else { return nil }
                return (x, y, lo, hi)
            }
            plot.line(points.map { ($0.0, $0.1) }, colour: P.models[m], dash: P.modelDash[m], width: 1.2)
            let dx = r.models.count == 2 ? (m == 0 ? -3.0 : 3.0) : 0
            for p in points { plot.marker(x: p.0, y: p.1, shape: m, colour: P.models[m], whisker: (p.2, p.3), dx: dx) }
        }
        var items = r.models.indices.map { m in
            modelItem(r, m, " (ECE \((m < ece.count ? ece[m] : nil).map { ReportFormat.number($0) } ?? "n/a"))")
        }
        items.append(("perfect calibration", P.reference, "2 3", false))
        plot.legend(items, corner: .topLeft)
        return plot.svg(label: label)
    }

    /// Share of each outcome's missions per probability bin, in percent (classes of unequal size stay comparable).
    static func histogram(_ r: EvaluationReport, model m: Int) -> String {
        let bins = r.models[m].curves.histogram
        let completed = Double(bins.reduce(0) { $0 + $1.completed }), failed = Double(bins.reduce(0) { $0 + $1.failed })
        let shares = bins.map { (completed > 0 ? Double($0.completed) / completed : 0, failed > 0 ? Double($0.failed) / failed : 0) }
        let top = max(0.05, ((shares.map { max($0.0, $0.1) }.max() ?? 0) * 1.06 * 20).rounded(.up) / 20)
        let step = top > 0.3 ? 0.1 : 0.05
        var plot = SVGPlot(x: 0...1, y: 0...top)
        let band = r.configuration.targetBand
        plot.rect(x0: band.lowerBound, y0: 0, x1: band.upperBound, y1: top, fill: P.band, opacity: 0.25)
        plot.frame(title: "\(r.models[m].name): predicted probability by outcome", xLabel: "Predicted completion probability",
                   yLabel: "Share of missions with that outcome (%)", xTicks: unitTicks,
                   yTicks: stride(from: 0, through: top + 1e-9, by: step).map { $0 }, yFormat: { ReportFormat.number($0 * 100, digits: 0) })
        for (k, b) in bins.enumerated() {
            let w = (b.upper - b.lower) / 2
            plot.rect(x0: b.lower + w * 0.08, y0: 0, x1: b.lower + w, y1: shares[k].0, fill: P.green, stroke: "#fff")
            plot.rect(x0: b.lower + w, y0: 0, x1: b.upper - w * 0.08, y1: shares[k].1, fill: P.orange, stroke: "#fff")
        }
        plot.legend([("completed (n = \(ReportFormat.integer(Int(completed))))", P.green, "", true),
                     ("failed (n = \(ReportFormat.integer(Int(failed))))", P.orange, "", true)], corner: .topLeft)
        return plot.svg(label: "Histogram of predicted probabilities of \(r.models[m].name) by outcome")
    }

    /// Predicted versus realised completion of the recommended missions below, in and above the band.
    static func policy(_ r: EvaluationReport) -> String {
        let p = r.policy
        var plot = SVGPlot(height: 360, bottom: 66, x: -0.5...2.5, y: 0...1.08)
        plot.rect(x0: -0.5, y0: p.targetBand.lowerBound, x1: 2.5, y1: p.targetBand.upperBound, fill: P.band, opacity: 0.3)
        plot.frame(title: "Recommended missions: predicted vs realised", xLabel: "Group by the model's predicted completion",
                   yLabel: "Completion probability", xTicks: [], yTicks: unitTicks)
        for (k, name) in ["below", "in", "above"].enumerated() {
            plot.text(ReportText.bandName(name, p.targetBand), x: Double(k), y: 0, anchor: "middle", dy: 16)
            let counts = p.models.map { ReportFormat.integer($0.bands[k].tried) }.joined(separator: " / ")
            plot.text("tried: \(counts)", x: Double(k), y: 0, anchor: "middle", dy: 30)
        }
        for (m, view) in p.models.enumerated() {
            let offset = r.models.count == 2 ? (m == 0 ? -0.17 : 0.17) : 0
            for (k, g) in view.bands.enumerated() {
                guard let predicted = g.meanPredicted, let realised = g.realised else { continue }
                let x = Double(k) + offset
                plot.marker(x: x - 0.05, y: predicted, shape: 2, colour: P.models[m])
                plot.marker(x: x + 0.05, y: realised, shape: 0, colour: P.models[m], whisker: (g.realisedLower!, g.realisedUpper!))
            }
        }
        var items = r.models.indices.map { m in modelItem(r, m, "") }
        items.append(("◆ mean predicted", "", "", false))
        items.append(("● realised, 95% Wilson bar", "", "", false))
        plot.legend(items, corner: .bottomRight)
        return plot.svg(label: "Predicted versus realised completion by band")
    }

    /// Horizontal bars of permutation importance (Δ log loss), largest first.
    static func importance(_ model: EvaluationReport.ModelSection, index m: Int) -> String? {
        guard let imp = model.importance else { return nil }
        let rows = Array(ReportText.importanceOrder(imp).prefix(16))
        let top = max(rows.map(\.permutationLogLoss).max() ?? 0, 1e-4)
        let low = min(rows.map(\.permutationLogLoss).min() ?? 0, 0)
        let labelWidth = 8 + 6.6 * Double(rows.map(\.feature.count).max() ?? 10)
        var plot = SVGPlot(width: 460, height: 60 + 22 * Double(rows.count) + 34, left: labelWidth,
                           x: low...top * 1.08, y: 0...Double(rows.count))
        let ticks = niceTicks(low...top * 1.08)
        plot.frame(title: "\(model.name): permutation importance", xLabel: "Increase in log loss when shuffled (nats)",
                   yLabel: "", xTicks: ticks, yTicks: [], format: { ReportFormat.number($0, digits: decimals(ticks)) })
        for (k, row) in rows.enumerated() {
            let yTop = Double(rows.count - k) - 0.15, yBottom = Double(rows.count - k - 1) + 0.15
            plot.rect(x0: 0, y0: yBottom, x1: row.permutationLogLoss, y1: yTop, fill: P.models[m])
            plot.text(row.feature, x: low, y: (yTop + yBottom) / 2, anchor: "end", dx: -6, dy: 4)
        }
        return plot.svg(label: "Permutation importance of \(model.name)")
    }

    /// A forest plot of the slices: with two models the paired difference in log loss (below 0:
    /// the first model is better there), with one model its AUC; 95% bootstrap bars.
    static func slices(_ r: EvaluationReport) -> String {
        let rows = r.slices
        let two = r.differences != nil
        let values: [(Double, Double?, Double?)] = rows.map { s in
            let i = two ? s.difference?["log_loss"] : s.metrics[0]["auc"]
            return (i?.estimate ?? .nan, i?.lower, i?.upper)
        }
        let finite = values.flatMap { [$0.0, $0.1 ?? $0.0, $0.2 ?? $0.0] }.filter(\.isFinite)
        var lo = finite.min() ?? 0, hi = finite.max() ?? 1
        if two { lo = min(lo, 0); hi = max(hi, 0) }
        let pad = max((hi - lo) * 0.06, 1e-3)
        let range = (lo - pad)...(hi + pad)
        let labels = rows.map { "\($0.dimension): \(ReportText.sliceValue($0)) (n=\(ReportFormat.integer($0.count)))" }
        let labelWidth = 10 + 6.4 * Double(labels.map(\.count).max() ?? 10)
        var plot = SVGPlot(width: 760, height: 90 + 19 * Double(rows.count), left: labelWidth, x: range, y: 0...Double(rows.count))
        let ticks = niceTicks(range)
        let title = two ? "Slices: \(r.models[0].name) − \(r.models[1].name) log loss (nats), 95% paired bootstrap"
                        : "Slices: \(r.models[0].name) ROC AUC, 95% bootstrap"
        plot.frame(title: title, xLabel: two ? "Difference in log loss (below 0: \(r.models[0].name) better)" : "ROC AUC",
                   yLabel: "", xTicks: ticks, yTicks: [], format: { ReportFormat.number($0, digits: decimals(ticks)) })
        if two { plot.line([(0, 0), (0, Double(rows.count))], colour: P.black, width: 1) }
        var previous = ""
        for (k, s) in rows.enumerated() {
            let y = Double(rows.count - k) - 0.5
            if s.dimension != previous && k > 0 {
                plot.line([(range.lowerBound, y + 0.5), (range.upperBound, y + 0.5)], colour: P.reference, dash: "1 2", width: 0.8)
            }
            previous = s.dimension
            plot.text(labels[k], x: range.lowerBound, y: y, anchor: "end", dx: -6, dy: 4, cls: s.tooSmall ? "k dim" : "k")
            let v = values[k]
            guard v.0.isFinite else { continue }
            let whisker: (Double, Double)? = v.1.flatMap { a in v.2.map { (a, $0) } }
            plot.marker(x: v.0, y: y, shape: 0, colour: s.tooSmall ? P.reference : P.models[0], whisker: nil)
            if let (a, b) = whisker {
                plot.line([(a, y), (b, y)], colour: s.tooSmall ? P.reference : P.models[0], width: 1.5)
            }
        }
        return plot.svg(label: title)
    }

    /// Four to ten round ticks (1, 2 or 5 × 10^k apart) covering `range`.
    static func niceTicks(_ range: ClosedRange<Double>) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0 && span.isFinite else { return [range.lowerBound] }
        let raw = span / 6
        var magnitude = 1.0
        while magnitude > raw { magnitude /= 10 }
        while magnitude * 10 <= raw { magnitude *= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? magnitude * 10
        var ticks: [Double] = []
        var k = (range.lowerBound / step).rounded(.up)
        while k * step <= range.upperBound + step * 1e-9 { ticks.append(k == 0 ? 0 : k * step); k += 1 }
        return ticks
    }

    /// Decimals that tell ticks `step` apart.
    static func decimals(_ ticks: [Double]) -> Int {
        guard ticks.count > 1 else { return 2 }
        let step = ticks[1] - ticks[0]
        var digits = 0, unit = 1.0
        while unit > step * 1.0001 && digits < 6 { unit /= 10; digits += 1 }
        return digits
    }
}
