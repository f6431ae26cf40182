import RunusCore
import Missions

/// Mission specs for `missions.score` and `missions.evaluate`: every kind's example, with one
/// parameter set to a bound, just past it, an extreme or a wrong type; sometimes a spec that is
/// not one at all (unknown kind, `kind` missing or mistyped, unknown parameters).
public enum SpecFuzzer {
    /// The example spec of `kind` as raw members, `kind` first.
    public static func example(_ kind: MissionKind) -> RawJSON {
        guard case .object(let members) = kind.example.json else { return .object([]) }
        var out: [(String, RawJSON)] = [("kind", .string(kind.rawValue))]
        for key in members.keys.sorted() where key != "kind" { out.append((key, .value(members[key]!))) }
        return .object(out)
    }

    /// Every kind's example, in catalog order (a `missions.score` list the model must answer).
    public static var examples: [RawJSON] { MissionKind.allCases.map(example) }

    /// A spec: unchanged 40 %, one parameter at a boundary 40 %, broken 20 %.
    public static func spec(_ g: inout SeededGenerator) -> RawJSON {
        let kind = PathologicalValues.pick(MissionKind.allCases, &g)
        let base = example(kind)
        let roll = g.uniform()
        if roll < 0.4 { return base }
        let parameters = kind.parameters
        if roll < 0.8, !parameters.isEmpty {
            let p = PathologicalValues.pick(parameters, &g)
            let r = p.range
            let ulp = max(r.upperBound.ulp, 1e-9)
            let candidates: [RawJSON] = [
                .number(r.lowerBound), .number(r.upperBound), .number(r.lowerBound - ulp), .number(r.upperBound + ulp),
                .number(r.lowerBound.nextUp), .number(r.upperBound.nextDown), .raw("-0"), .raw("1e308"), .raw("1e-320"),
                .number((r.lowerBound + r.upperBound) / 2 + 0.5), .raw("9007199254740993"), .raw("null"),
            ]
            return base.setting(p.name, PathologicalValues.pick(candidates, &g))
        }
        switch g.int(in: 0...5) {
        case 0: return base.setting("kind", .string(PathologicalValues.pick(PathologicalValues.strings, &g)))
        case 1: return base.removing("kind")
        case 2: return base.setting("kind", PathologicalValues.any(&g))
        case 3: return base.setting(PathologicalValues.pick(PathologicalValues.strings, &g), PathologicalValues.any(&g))
        case 4:
            guard let p = parameters.first else { return base }
            return base.removing(p.name)
        default: return PathologicalValues.any(&g)
        }
    }
}
