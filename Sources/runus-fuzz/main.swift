import Foundation
import RunusCore
import Fuzzing

// runus-fuzz: the driver of `make fuzz` (docs/decisions/0540-fuzzing-campaign.md). Exit status 0
// when nothing was found, 1 when a trap, hang or violation was, 2 on a usage or setup error.

func writeSummary(_ value: JSONValue, to path: String?) throws {
    guard let path else { return }
    try Data(JSONWriter.bytes(value) + [0x0A]).write(to: URL(fileURLWithPath: path))
}

func protocolCommand(_ o: Options) throws -> Bool {
    let settings = ProtocolCampaign.Settings(
        runus: try o.require("runus"), model: try o.require("model"), template: o.string("db-template"),
        lines: try o.int("lines", default: 100_000), connections: max(1, try o.int("connections", default: 8)),
        seed: UInt64(try o.int("seed", default: 1)), out: o.string("out") ?? "var/fuzz/protocol",
        answerTimeout: try o.double("answer-timeout", default: 60), restart: try o.bool("restart", default: true),
        minimize: try o.bool("minimize", default: true), mute: try o.bool("mute", default: true),
        simulatedRunners: try o.int("simulated-runners", default: o.string("db-template") == nil ? 0 : 20),
        scale: min(1, try o.double("scale", default: 1)))
    say("protocol fuzzing: \(settings.lines.formatted()) lines, \(settings.connections) connections, seed \(settings.seed), out \(settings.out)")
    let report = try ProtocolCampaign(settings: settings).run()
    report.printTable()
    try writeSummary(report.json, to: o.string("summary-json"))
    let violations = report.tally.violations.values.reduce(0, +)
    return report.crashes.isEmpty && report.hangs.isEmpty && violations == 0 && report.lineLimitProbes.allSatisfy(\.passed)
}

func filesCommand(_ o: Options) throws -> Bool {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let settings = FileCampaign.Settings(executable: executable, datasets: o.string("datasets"), count: try o.int("count", default: 1000),
                                         seed: UInt64(try o.int("seed", default: 1)), out: o.string("out") ?? "var/fuzz/files",
                                         timeout: try o.double("file-timeout", default: 20),
                                         maximumBytes: try o.int("max-file-bytes", default: 16 << 20))
    let (r, mutator) = try FileCampaign(settings: settings).run()
    func n(_ x: Int) -> String { x.formatted() }
    func row(_ label: String, _ value: String) { say("  " + label.padding(toLength: 30, withPad: " ", startingAt: 0) + value) }
    func ms(_ micros: Int) -> String { String(format: "%.1f ms", Double(micros) / 1000) }
    say("\nfile fuzzing: seed \(settings.seed), \(Int(r.seconds)) s; \(r.note)")
    row("files mutated", n(r.done + r.crashes.count + r.hangs.count))
    row("accepted", "\(n(r.accepted))  (\(n(r.points)) points read)")
    for (problem, count) in r.refusedBy.sorted(by: { $0.value > $1.value }) { row("  refused: \(problem)", n(count)) }
    row("crashes", n(r.crashes.count))
    row("hangs (> \(Int(settings.timeout)) s)", n(r.hangs.count))
    row("files with anomalies", n(r.anomalyFiles))
    if r.slowestRefusal.index >= 0 {
        row("slowest refusal", "\(ms(r.slowestRefusal.micros)): file \(r.slowestRefusal.index), \(mutator.file(r.slowestRefusal.index).description)")
    }
    if r.slowestAcceptance.index >= 0 {
        row("slowest accepted file", "\(ms(r.slowestAcceptance.micros)): file \(r.slowestAcceptance.index), \(mutator.file(r.slowestAcceptance.index).description)")
    }
    for (kind, index) in r.skippedKinds { row("kind left out", "\(kind) after file \(index)") }
    for p in r.crashes { say("  crash, file \(p.index) (\(p.saved)): \(p.signature.message) at \(p.signature.location)\n    \(p.description)") }
    for p in r.hangs { say("  hang, file \(p.index) (\(p.saved)): \(p.signature.frames.prefix(3).joined(separator: " ← "))\n    \(p.description)") }
    var seen = Set<String>()
    for a in r.anomalies where seen.insert(a.text).inserted && seen.count <= 10 {
        say("  anomaly, file \(a.index): \(a.text) — \(mutator.file(a.index).description)")
    }
    try writeSummary([
        "files": .number(Double(r.done + r.crashes.count + r.hangs.count)), "accepted": .number(Double(r.accepted)),
        "crashes": .array(r.crashes.map { .string("file \($0.index): \($0.signature.key): \($0.description)") }),
        "hangs": .array(r.hangs.map { .string("file \($0.index): \($0.description)") }),
        "anomaly_files": .number(Double(r.anomalyFiles)), "slowest_refusal_ms": .number(Double(r.slowestRefusal.micros) / 1000),
        "seeds": .string(r.note),
    ], to: o.string("summary-json"))
    return r.crashes.isEmpty && r.hangs.isEmpty
}

/// `runus-fuzz lines`: the lines one connection would send, to standard output (to read what
/// the fuzzer sends, or to replay them).
func linesCommand(_ o: Options) throws -> Bool {
    var generator = RequestGenerator(.init(seed: UInt64(try o.int("seed", default: 1)), connection: try o.int("connection", default: 0),
                                           simulatedRunners: try o.int("simulated-runners", default: 0)))
    let now = Date().timeIntervalSince1970.rounded()
    var out: [UInt8] = []
    for _ in 0..<(try o.int("lines", default: 100)) {
        out += generator.next(now: now).bytes
        if out.count > 1 << 20 { FileHandle.standardOutput.write(Data(out)); out.removeAll(keepingCapacity: true) }
    }
    FileHandle.standardOutput.write(Data(out))
    return true
}

func replayCommand(_ o: Options) throws -> Bool {
    guard let path = o.positional.first, let data = FileManager.default.contents(atPath: path) else { throw FuzzError("replay needs a FILE.lines") }
    var lines: [SentLine] = []
    var start = 0
    let bytes = [UInt8](data)
    for (i, b) in bytes.enumerated() where b == 0x0A {
        lines.append(SentLine(number: lines.count + 1, line: FuzzLine(bytes: Array(bytes[start...i]), family: "replay")))
        start = i + 1
    }
    let out = o.string("out") ?? "var/fuzz/replay"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    var replayer = Replayer(runus: try o.require("runus"), model: try o.require("model"), template: o.string("db-template"), directory: out)
    let r = try replayer.replay(lines)
    if r.died, let s = r.signature {
        say("daemon died on line \(r.deathIndex.map { String($0 + 1) } ?? "?") of \(lines.count): \(s.message)")
        s.frames.prefix(8).forEach { say("  \($0)") }
        if try o.bool("minimize", default: false), let i = r.deathIndex {
            let minimized = try CrashTriage.minimize(Array(lines[0...i]), signature: s, replayer: &replayer)
            say("minimized (\(replayer.replays) replays):")
            for line in minimized { say(ProtocolReport.printable(line.line.bytes, limit: 100_000)) }
        }
        return false
    }
    say("\(lines.count) lines replayed, the daemon is alive")
    return true
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let clean: Bool
    switch options.command {
    case "protocol": clean = try protocolCommand(options)
    case "files": clean = try filesCommand(options)
    case "files-worker": try FileWorker.run(options); clean = true
    case "replay": clean = try replayCommand(options)
    case "lines": clean = try linesCommand(options)
    default: throw FuzzError(Options.usage)
    }
    exit(clean ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("runus-fuzz: \(error)\n".utf8))
    exit(2)
}
