import Foundation
import RunusCore
import Fuzzing

/// What the protocol campaign measured and found; printed as a table, written as JSON.
final class ProtocolReport: @unchecked Sendable {
    let settings: ProtocolCampaign.Settings
    var tally = ProtocolTally()
    var crashes: [CrashRecord] = []
    var hangs: [HangRecord] = []
    var findings: [Finding] = []
    var lineLimitProbes: [LineLimitProbe.Result] = []
    /// Internal errors reproduced in isolation, one per message.
    var internalReproducers: [(message: String, lines: [SentLine])] = []
    var uncleanStops: [String] = []
    var restarts = 0
    var rssBefore: Int?
    var rssAfter: Int?
    var rssMax = 0
    /// Export floods (`SilentReaders`): connections that asked and never read, those the daemon
    /// cut off, those it kept past the campaign's patience.
    var silentOpened = 0, silentCutOff = 0, silentDeliveredWhole = 0, silentKeptTooLong = 0
    var seconds = 0.0
    private let lock = NSLock()

    init(settings: ProtocolCampaign.Settings) { self.settings = settings }

    func noteRSS(before kb: Int?, generation: Int) { if generation == 0 { rssBefore = kb } }
    func noteRSS(samples: [Int]) { rssMax = max(rssMax, samples.max() ?? 0); if let last = samples.last { rssAfter = last } }
    func noteSilent(_ s: SilentReaders) {
        silentOpened += s.opened; silentCutOff += s.cutOff; silentDeliveredWhole += s.deliveredWhole
        silentKeptTooLong += s.keptTooLong
    }
    func noteRSS(after kb: Int?) { if let kb { rssAfter = kb; rssMax = max(rssMax, kb) } }

    /// Keeps the first three findings of each kind and family, over all connections.
    func addFindings(_ more: [Finding]) {
        for f in more {
            let key = "\(f.violation.kind) \(f.request.line.family)"
            guard findings.count < 400, keptByFamily[key, default: 0] < 3 else { continue }
            keptByFamily[key, default: 0] += 1
            findings.append(f)
        }
    }
    private var keptByFamily: [String: Int] = [:]

    func add(_ crash: CrashRecord) {
        crashes.append(crash)
        say("\n*** daemon \(crash.generation) died: \(DaemonProcess.Status.signalName(crash.signal)) — \(crash.signature.message)")
        say("    at \(crash.signature.location)\(crash.isNew ? " (new class)" : "")  dump: \(crash.dump)")
        if let r = crash.reproducer, crash.isNew {
            say("    reproducer (\(r.count) lines, \(crash.replays) replays), trigger last:")
            for line in r { say("      " + Self.printable(line.line.bytes, limit: 400)) }
        } else if crash.reproducer == nil {
            say("    not reproduced in isolation (\(crash.replays) replays): see the dump")
        }
    }

    private var lastProgress = Date()

    /// A progress line at most every 10 s.
    func progressIfDue(sent: Int, started: Date) {
        guard -lastProgress.timeIntervalSinceNow >= 10 else { return }
        progress(sent: sent, started: started)
    }

    func add(_ hang: HangRecord) {
        hangs.append(hang)
        say("\n*** daemon \(hang.generation) hung: no answer for \(Int(hang.waited)) s; dump \(hang.dump)")
        hang.frames.prefix(4).forEach { say("    \($0)") }
        if let r = hang.reproducer {
            say("    reproduced on a fresh daemon by (trigger last):")
            for line in r.suffix(4) { say("      " + Self.printable(line.line.bytes, limit: 400)) }
        }
        if let family = hang.family { say("    lines of family \(family) are not sent again") }
    }

    func progress(sent: Int, started: Date) {
        lastProgress = Date()
        let s = -started.timeIntervalSinceNow
        lock.lock(); defer { lock.unlock() }
        say(String(format: "  %9d lines sent, %6.0f lines/s, %d daemons died", sent, Double(sent) / max(s, 0.001), crashes.count))
    }

    func finish(started: Date) { seconds = -started.timeIntervalSinceNow }

    /// Distinct crash classes, first seen first, with how often each happened.
    var classes: [(key: String, count: Int, first: CrashRecord)] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        var first: [String: CrashRecord] = [:]
        for c in crashes {
            if first[c.classKey] == nil { order.append(c.classKey); first[c.classKey] = c }
            counts[c.classKey, default: 0] += 1
        }
        return order.map { ($0, counts[$0]!, first[$0]!) }
    }

    func printTable() {
        func n(_ x: Int) -> String { x.formatted() }
        func row(_ label: String, _ value: String) { say("  " + label.padding(toLength: max(34, label.count + 2), withPad: " ", startingAt: 0) + value) }
        say("\nprotocol fuzzing: seed \(settings.seed), \(settings.connections) connections, \(Int(seconds)) s, \(settings.runus)")
        row("lines sent", n(tally.linesSent))
        row("answers due", n(tally.answersDue))
        row("answered", "\(n(tally.answered))  (lost with dying daemons: \(n(tally.lostToCrashes)))")
        for (outcome, count) in tally.outcomes.sorted(by: { $0.value > $1.value }) { row("  \(outcome)", n(count)) }
        row("pushed race events", n(tally.pushed))
        row("traps (daemon died)", "\(crashes.count) in \(classes.count) distinct classes")
        row("hangs", n(hangs.count))
        row("protocol violations", n(protocolViolations))
        row("expectation failures", n(tally.violations["expectation"] ?? 0))
        row("ordering findings", n(tally.violations["ordering"] ?? 0))
        row("internal errors", n(tally.violations["internal"] ?? 0))
        row("line_too_long probes", lineLimitProbes.allSatisfy(\.passed) ? "\(lineLimitProbes.count) passed" : lineLimitProbes.map(\.description).joined(separator: "; "))
        row("daemon restarts", n(restarts))
        row("RSS kB before / after / max", "\(rssBefore.map(n) ?? "-") / \(rssAfter.map(n) ?? "-") / \(n(rssMax))")
        row("unread exports: asked / cut off / sent whole / held past 45 s",
            "\(n(silentOpened)) / \(n(silentCutOff)) / \(n(silentDeliveredWhole)) / \(n(silentKeptTooLong))")
        for stop in uncleanStops { row("note", stop) }
        if !classes.isEmpty { say("\ndistinct crashes:") }
        for (k, c) in classes.enumerated() {
            say("  \(k + 1). \(c.first.signature.message)\n     at \(c.first.signature.location), trigger \(c.key.components(separatedBy: " ← ").last ?? "?"), \(c.count)×")
            for f in c.first.signature.frames.prefix(6) { say("       \(f)") }
            if let r = c.first.reproducer {
                say("     reproducer (\(c.first.dump)/reproducer.lines):")
                for line in r { say("       " + Self.printable(line.line.bytes, limit: 300)) }
            } else {
                say("     not reproduced in isolation; dump \(c.first.dump)")
            }
        }
        if !tally.violationsByFamily.isEmpty { say("\nviolations by kind and family:") }
        for (key, count) in tally.violationsByFamily.sorted(by: { $0.value > $1.value }) { row("  \(key)", n(count)) }
        for r in internalReproducers {
            say("\ninternal error \"\(r.message)\" reproduced on a fresh daemon by:")
            for line in r.lines { say("       " + Self.printable(line.line.bytes, limit: 300)) }
        }
        if !findings.isEmpty { say("\nfindings (the first of each kind and family):") }
        var shown = Set<String>()
        for f in findings where shown.insert("\(f.violation.kind) \(f.request.line.family)").inserted {
            say("  [\(f.violation.kind)] \(f.request.line.family): \(f.violation)")
            for c in f.context.suffix(3) { say("     before:  " + Self.printable(c.line.bytes, limit: 200)) }
            say("     request: " + Self.printable(f.request.line.bytes, limit: 300))
            say("     answer:  " + Self.printable(f.answer, limit: 300))
        }
        for h in hangs {
            say("\nhang (\(Int(h.waited)) s without an answer), dump \(h.dump):")
            h.frames.prefix(8).forEach { say("    \($0)") }
            if let r = h.reproducer {
                say("  reproducer (\(h.dump)/reproducer.lines), trigger last:")
                for line in r.suffix(6) { say("    " + Self.printable(line.line.bytes, limit: 300)) }
            }
        }
    }

    /// Violations of the envelope: not JSON, no `ok`, unknown code, wrong or out-of-order id,
    /// lines nobody asked for.
    var protocolViolations: Int {
        tally.violations.filter { !["expectation", "internal", "ordering"].contains($0.key) }.values.reduce(0, +)
    }

    /// The facts a test asserts on.
    var json: JSONValue {
        func n(_ x: Int) -> JSONValue { .number(Double(x)) }
        return [
            "lines_sent": n(tally.linesSent), "answers_due": n(tally.answersDue), "answered": n(tally.answered),
            "lost_to_crashes": n(tally.lostToCrashes),
            "outcomes": .object(tally.outcomes.mapValues { n($0) }), "violations": .object(tally.violations.mapValues { n($0) }),
            "traps": n(crashes.count), "hangs": n(hangs.count), "restarts": n(restarts),
            "protocol_violations": n(protocolViolations), "expectation_failures": n(tally.violations["expectation"] ?? 0),
            "ordering_findings": n(tally.violations["ordering"] ?? 0), "internal_errors": n(tally.violations["internal"] ?? 0),
            "line_limit_probes_failed": n(lineLimitProbes.filter { !$0.passed }.count),
            "rss_kb": ["before": rssBefore.map(n) ?? .null, "after": rssAfter.map(n) ?? .null, "max": n(rssMax)],
            "unread_exports": ["asked": n(silentOpened), "cut_off": n(silentCutOff), "delivered_whole": n(silentDeliveredWhole),
                               "kept_too_long": n(silentKeptTooLong)],
            "violations_by_family": .object(tally.violationsByFamily.mapValues { n($0) }),
            "internal_reproducers": .array(internalReproducers.map { r in
                ["message": .string(r.message), "lines": .array(r.lines.map { .string(Self.printable($0.line.bytes, limit: 4000)) })]
            }),
            "crashes": .array(classes.map { c in
                ["class": .string(c.key), "count": n(c.count), "message": .string(c.first.signature.message),
                 "location": .string(c.first.signature.location), "dump": .string(c.first.dump),
                 "frames": .array(c.first.signature.frames.map { .string($0) }),
                 "reproducer": c.first.reproducer.map { r in .array(r.map { .string(Self.printable($0.line.bytes, limit: 4000)) }) } ?? .null]
            }),
            "hang_reproducers": .array(hangs.map { h in
                h.reproducer.map { r in .array(r.map { .string(Self.printable($0.line.bytes, limit: 4000)) }) } ?? .null
            }),
            "findings": .array(findings.prefix(60).map { f in
                ["kind": .string(f.violation.kind), "family": .string(f.request.line.family), "violation": .string("\(f.violation)"),
                 "request": .string(Self.printable(f.request.line.bytes, limit: 600)), "answer": .string(Self.printable(f.answer, limit: 600))]
            }),
            "seconds": .number(seconds.rounded()),
        ]
    }

    /// A line for a terminal: UTF-8 as is, control bytes and invalid bytes escaped, shortened.
    static func printable(_ bytes: [UInt8], limit: Int) -> String {
        var body = bytes
        while body.last == 0x0A || body.last == 0x0D { body.removeLast() }
        var out = ""
        var it = body.makeIterator()
        var decoder = UTF8()
        var shown = 0
        var i = 0
        while shown < limit {
            switch decoder.decode(&it) {
            case .scalarValue(let s):
                i += String(s).utf8.count
                if s.value < 0x20 || s.value == 0x7F { out += "\\x" + String(format: "%02x", s.value) } else { out.unicodeScalars.append(s) }
                shown += 1
            case .emptyInput: return out
            case .error:
                i += 1
                out += "\\x??"
                shown += 1
            }
        }
        return out + "… (\(bytes.count) bytes)"
    }
}
