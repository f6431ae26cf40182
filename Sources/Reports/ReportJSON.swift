import RunusCore

/// The report as JSON for machines: snake_case keys, sorted, written by `JSONWriter` (same report,
/// same bytes). Absent values (an undefined AUC, an empty bin) are `null`.
public enum ReportJSON {
    /// Bumped when a key changes meaning or disappears.
    public static let formatVersion = 1

    public static func bytes(_ report: EvaluationReport) -> [UInt8] { JSONWriter.bytes(value(report)) + [0x0A] }

    public static func value(_ r: EvaluationReport) -> JSONValue {
        let c = r.configuration
        var root: [String: JSONValue] = [
            "report_format": .number(Double(formatVersion)),
            "data": .object([
                "examples": int(r.data.examples), "completed": int(r.data.completed), "runners": int(r.data.runners),
                "base_rate": .number(r.data.baseRate), "first_day": .string(r.data.firstDay), "last_day": .string(r.data.lastDay),
                "period": .string(r.data.period), "source": .string(r.data.source),
            ]),
            "configuration": .object([
                "seed": .number(Double(c.seed)), "resamples": int(c.resamples), "slice_resamples": int(c.sliceResamples),
                "resample_unit": .string(c.resampleUnit.rawValue), "confidence": .number(c.confidence),
                "reliability_bins": int(c.reliabilityBins), "histogram_bins": int(c.histogramBins),
                "target_band": .array([.number(c.targetBand.lowerBound), .number(c.targetBand.upperBound)]),
                "permutation_rows": int(c.permutationRows), "permutation_repeats": int(c.permutationRepeats),
                "minimum_slice_size": int(c.minimumSliceSize),
            ]),
            "models": .array(r.models.map(model)),
            "slices": .array(r.slices.map(slice)),
            "kind_reliability": .array(r.kindReliability.map { k in .object([
                "kind": .string(k.kind), "count": int(k.count), "completed": int(k.completed),
                "ece": .array(k.ece.map { .number($0) }),
                "reliability": .array(k.reliability.map { bins in .array(bins.map { b in .object([
                    "lower": .number(b.lower), "upper": .number(b.upper), "count": int(b.count),
                    "mean_predicted": number(b.meanPredicted), "observed": number(b.observed),
                ]) }) }),
            ]) }),
            "policy": policy(r.policy),
        ]
        root["differences"] = r.differences.map(intervals) ?? .null
        root["verdict"] = r.verdict.map { .string($0) } ?? .null
        return .object(root)
    }

    static func int(_ n: Int) -> JSONValue { .number(Double(n)) }
    static func number(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }

    static func interval(_ i: Interval) -> JSONValue {
        .object(["estimate": .number(i.estimate), "lower": number(i.lower), "upper": number(i.upper)])
    }

    static func intervals(_ d: [String: Interval]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: MetricSet.names.map { ($0, d[$0].map(interval) ?? .null) }))
    }

    static func curve(_ points: [CurvePoint]) -> JSONValue {
        .array(points.map { .object(["x": .number($0.x), "y": .number($0.y), "threshold": .number($0.threshold)]) })
    }

    static func model(_ m: EvaluationReport.ModelSection) -> JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(m.name), "version": .string(m.version), "kind": .string(m.kind),
            "mean_predicted": .number(m.meanPredicted), "metrics": intervals(m.metrics),
            "average_precision": .number(m.curves.averagePrecision),
            "roc": curve(m.curves.roc), "precision_recall": curve(m.curves.precisionRecall),
            "reliability": .array(m.curves.reliability.map { b in .object([
                "lower": .number(b.lower), "upper": .number(b.upper), "count": int(b.count),
                "mean_predicted": number(b.meanPredicted), "observed": number(b.observed),
                "observed_lower": number(b.observedLower), "observed_upper": number(b.observedUpper),
            ]) }),
            "histogram": .array(m.curves.histogram.map { b in .object([
                "lower": .number(b.lower), "upper": .number(b.upper), "completed": int(b.completed), "failed": int(b.failed),
            ]) }),
        ]
        o["importance"] = m.importance.map { imp in .object([
            "permutation_rows": int(imp.permutationRows), "permutation_repeats": int(imp.permutationRepeats),
            "features": .array(imp.rows.map { row in .object([
                "feature": .string(row.feature), "gain_share": number(row.gainShare),
                "standardised_coefficient": number(row.standardisedCoefficient),
                "permutation_log_loss": .number(row.permutationLogLoss), "permutation_auc": .number(row.permutationAUC),
            ]) }),
        ]) } ?? .null
        return .object(o)
    }

    static func slice(_ s: SliceRow) -> JSONValue {
        .object([
            "dimension": .string(s.dimension), "value": .string(s.value), "count": int(s.count), "completed": int(s.completed),
            "mean_predicted": .array(s.meanPredicted.map { .number($0) }), "metrics": .array(s.metrics.map(intervals)),
            "difference": s.difference.map(intervals) ?? .null, "too_small": .bool(s.tooSmall),
        ])
    }

    static func group(_ g: PolicySummary.Group) -> JSONValue {
        .object([
            "name": .string(g.name), "offers": int(g.offers), "share": .number(g.share), "tried": int(g.tried),
            "mean_predicted": number(g.meanPredicted),
            "realised": number(g.realised), "realised_lower": number(g.realisedLower), "realised_upper": number(g.realisedUpper),
        ])
    }

    static func policy(_ p: PolicySummary) -> JSONValue {
        .object([
            "target_band": .array([.number(p.targetBand.lowerBound), .number(p.targetBand.upperBound)]),
            "offers": int(p.offers), "tried": int(p.tried), "scored": int(p.scored), "runner_days": int(p.runnerDays),
            "models": .array(p.models.map { v in .object([
                "model": .string(v.model), "overall": group(v.overall), "bands": .array(v.bands.map(group)),
                "share_in_band": .number(v.shareInBand),
            ]) }),
            "kinds": .array(p.kinds.map(group)),
            "variety": .object([
                "distinct_kinds": int(p.variety.distinctKinds), "mean_kinds_per_runner_day": .number(p.variety.meanKindsPerRunnerDay),
                "share_of_days_with_several_kinds": .number(p.variety.shareOfDaysWithSeveralKinds),
                "normalised_entropy": .number(p.variety.normalisedEntropy), "largest_kind_share": .number(p.variety.largestKindShare),
            ]),
        ])
    }
}
