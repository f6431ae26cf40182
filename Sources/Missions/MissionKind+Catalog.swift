import RunusCore

extension MissionKind {
    /// This kind's parameters, in wire order (`MissionSpec.parameters(of:)`, the description the
    /// validation reads too).
    public var parameters: [MissionParameter] { MissionSpec.parameters(of: self) }

    /// The kind as `runus mission kinds --json` lists it (record 0320):
    /// `{"kind", "needs_context", "parameters": [{"name", "type", "unit", "min", "max",
    /// "optional", "default", "meaning"}], "example", "title"}`. A parameter's `default` is its
    /// value in the kind's example (`MissionKind.example`), null for an optional one the example
    /// leaves out.
    public var catalogJSON: JSONValue {
        let example = self.example
        let values = Dictionary(example.parameterValues, uniquingKeysWith: { a, _ in a })
        return .object([
            "kind": .string(rawValue),
            "needs_context": .bool(needsContext),
            "parameters": .array(parameters.map { p in
                .object([
                    "name": .string(p.name), "type": .string(p.type), "unit": .string(p.unit),
                    "min": .number(p.range.lowerBound), "max": .number(p.range.upperBound),
                    "optional": .bool(p.optional), "default": values[p.name].map { .number($0) } ?? .null,
                    "meaning": .string(p.meaning),
                ])
            }),
            "example": example.json,
            "title": .string(MissionTitle.title(for: example)),
        ])
    }
}

extension MissionEvaluation {
    /// The verdict as a JSON object (the CLI's `--json` and the daemon's mission answers):
    /// `{"status", "progress", "count": {"done", "target", "unit"} | null, "evidence": [sentences],
    /// "details": [{"part", "index", "from_m", "to_m", "value", "unit", "passed"}]}`.
    /// Progress is rounded to 4 decimals (never to 1 unless completed), values to 3.
    public var json: JSONValue {
        func r(_ x: Double, _ scale: Double) -> JSONValue { x.isFinite ? .number((x * scale).rounded() / scale) : .null }
        // Rounding must not turn 0.99996 into 1: progress 1 means completed (MissionEvaluation).
        let shownProgress = status == .completed ? 1 : min(progress, MissionEvaluator.failedProgressCap)
        return .object([
            "status": .string(status.rawValue),
            "progress": r(shownProgress, 10_000),
            "count": count.map { .object(["done": .number(Double($0.done)), "target": .number(Double($0.target)),
                                          "unit": .string($0.unit)]) } ?? .null,
            "evidence": .array(evidence.map { .string($0) }),
            "details": .array(details.map { d in
                .object([
                    "part": .string(d.part.rawValue), "index": d.index.map { .number(Double($0)) } ?? .null,
                    "from_m": d.fromDistance.map { r($0, 10) } ?? .null, "to_m": d.toDistance.map { r($0, 10) } ?? .null,
                    "value": r(d.value, 1000), "unit": .string(d.unit), "passed": .bool(d.passed),
                ])
            }),
        ])
    }
}
