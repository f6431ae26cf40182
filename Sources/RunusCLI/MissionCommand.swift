import RunusCore
import Missions

/// `runus mission check|kinds`: checks track files against a mission, or lists the kinds.
enum MissionCommand: Command {
    static let name = "mission"
    static let abstract = "Check track files against a mission (verdict, progress, evidence), or list the mission kinds."
    static let usage = "check --mission JSON [--json] [--history FILE|DIR]... [--time-zone ZONE] FILE|DIR... | kinds [--json]"
    static let discussion = """
    check: reads each FILE (GPX, TCX, FIT, GeoJSON, compact JSON or CSV, gzip too; a DIR is searched
    for them) and checks every activity in it against the mission. History files (--history) are
    the runner's earlier runs: they feed long run, streak, weekly volume, personal best and explorer
    (only runs that start before the checked one count). Time-of-day and calendar kinds need
    --time-zone. Race kinds need a race result and are not applicable to files.
    Output: a table for people, or with --json one object per activity and line.
    The mission is a JSON object, or the path of a file holding one, e.g.
      --mission '{"kind":"negative_split","min_distance_m":5000}'

    kinds: lists every kind with its parameters (name, type, unit, range, default) and an example
    spec with its title; --json prints one object per kind and line.
    """
    static let parser = ArgumentParser(options: [
        .optional("mission", "JSON", help: "check: the mission spec (JSON text, or a file holding it)."),
        .flag("json", help: "One JSON object per activity (check) or kind (kinds) and line."),
        .repeated("history", "FILE|DIR", help: "check: the runner's earlier runs (track files or directories)."),
        .optional("time-zone", "ZONE", help: "check: the runner's IANA time zone, e.g. Europe/Paris (time-of-day and calendar kinds)."),
    ], positionals: ["check|kinds", "FILE..."], allowsManyPositionals: true)

    static func run(_ arguments: ParsedArguments, output: OutputSink) throws -> ExitCode {
        guard let sub = arguments.positional.first else { throw UsageError("mission needs a sub-command: check or kinds") }
        let rest = Array(arguments.positional.dropFirst())
        switch sub {
        case "check":
            return try MissionCheckCommand.run(arguments, files: rest, output: output)
        case "kinds":
            guard rest.isEmpty else { throw UsageError("mission kinds takes no FILE, got '\(rest[0])'") }
            for option in ["mission", "time-zone"] where arguments.string(option) != nil {
                throw UsageError("--\(option) is for mission check, not mission kinds")
            }
            guard arguments.strings("history").isEmpty else { throw UsageError("--history is for mission check, not mission kinds") }
            output.out(kinds(json: arguments.flag("json")))
            return .success
        default:
            throw UsageError("unknown sub-command '\(sub)', expected check or kinds")
        }
    }

    /// The listing of `mission kinds`, from `MissionKind.catalogJSON` (one description of the
    /// parameters, shared with the validation).
    static func kinds(json: Bool) -> String {
        if json {
            return MissionKind.allCases.map { JSONWriter.string($0.catalogJSON) + "\n" }.joined()
        }
        var out = ""
        for kind in MissionKind.allCases {
            let context = kind.needsContext ? "  (needs the runner's history, clock or a race result)" : ""
            out += "\(kind.rawValue)\(context)\n"
            let defaults = Dictionary(kind.example.parameterValues, uniquingKeysWith: { a, _ in a })
            let rows = kind.parameters.map { p -> [String] in
                [p.name, p.type, p.unit, "\(number(p.range.lowerBound))…\(number(p.range.upperBound))",
                 p.optional ? "optional" : (defaults[p.name].map(number) ?? "-"), p.meaning]
            }
            let header = ["parameter", "type", "unit", "range", "default", "meaning"]
            let widths = (0..<header.count).map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
            for row in [header] + rows {
                out += "  " + row.enumerated().map { c, cell in
                    c == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count)
                }.joined(separator: "  ") + "\n"
            }
            out += "  example: \(kind.example.canonicalJSON)\n  title:   \(MissionTitle.title(for: kind.example))\n\n"
        }
        return out
    }

    /// 5000 → "5000", 0.05 → "0.05".
    static func number(_ x: Double) -> String {
        x.rounded() == x && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
