import Foundation
import RunusCore
import Fuzzing

/// A daemon that died: its signature, the dump of what each connection had sent, and when the
/// crash reproduces in isolation, the request lines that cause it (minimized greedily).
struct CrashRecord {
    let number: Int
    let generation: Int
    let signal: Int32
    let signature: CrashSignature
    /// `signature.key` and the trigger's operation: crashes are counted by this.
    let classKey: String
    let dump: String
    /// The lines that crash a fresh daemon, trigger last; nil when not reproduced in isolation.
    let reproducer: [SentLine]?
    let replays: Int
    /// The first time this class was seen in the campaign.
    let isNew: Bool
    let muteRule: MuteRule?
}

/// What a hung daemon was doing, and the line that hung it when a replay confirmed it.
struct HangRecord {
    let generation: Int
    let dump: String
    let waited: Double
    let frames: [String]
    /// The runner's earlier state lines and the line that got no answer, trigger last.
    let reproducer: [SentLine]?
    /// The family of the line that hung it (not generated again).
    let family: String?
}

struct CrashTriage {
    let settings: ProtocolCampaign.Settings
    var replayer: Replayer
    private(set) var seen: [String: Int] = [:]
    private var count = 0
    /// Replays spent looking for one crash's trigger, at most.
    static let replaysPerTrigger = 12
    /// Lines of one runner replayed with a trigger candidate, at most (the newest).
    static let stateLinesPerCandidate = 400

    init(settings: ProtocolCampaign.Settings, replayer: Replayer) {
        self.settings = settings
        self.replayer = replayer
    }

    mutating func handle(signal: Int32, daemon: DaemonProcess, workers: [ConnectionWorker], generation: Int) throws -> CrashRecord {
        count += 1
        let stderr = daemon.stderrText()
        var signature = CrashSignature(stderr: stderr, signal: signal)
        let dump = "\(settings.out)/crash-\(count)"
        try write(dump: dump, stderr: stderr, workers: workers)
        var reproducer: [SentLine]?
        let before = replayer.replays
        if settings.minimize {
            let found = try findTrigger(signature, workers)
            reproducer = found?.lines
            // A backtrace cut short names no frame: the replay's full one stands for it.
            if signature.frames.isEmpty, let replayed = found?.signature { signature = replayed }
        }
        let trigger = reproducer?.last.map { Self.operation(of: $0.line) } ?? "?"
        let classKey = "\(signature.key) ← \(trigger)"
        let isNew = seen[classKey] == nil
        seen[classKey, default: 0] += 1
        if isNew, let found = reproducer { reproducer = try Self.minimize(found, signature: signature, replayer: &replayer) }
        if let reproducer { try Self.writeLines(reproducer.map(\.line.bytes), to: "\(dump)/reproducer.lines") }
        return CrashRecord(number: count, generation: generation, signal: signal, signature: signature, classKey: classKey, dump: dump,
                           reproducer: reproducer, replays: replayer.replays - before, isNew: isNew,
                           muteRule: reproducer.flatMap(Self.muteRule))
    }

    /// A crashing sequence made small: chunks of lines dropped (`Minimizer`), then each line
    /// made plainer (`LineSimplifier`), then runners and runs renamed; each step kept only while
    /// a fresh daemon still dies on the last line with the same signature.
    static func minimize(_ found: [SentLine], signature: CrashSignature, replayer: inout Replayer) throws -> [SentLine] {
        func reproduces(_ candidate: [SentLine]) throws -> Bool {
            let r = try replayer.replay(candidate)
            return r.died && r.deathIndex == candidate.count - 1 && r.signature?.key == signature.key
        }
        var minimized = try Minimizer.minimize(found, maximumProbes: 48, reproduces: reproduces).items
        var probes = 0
        for k in minimized.indices {
            var changed = true
            while changed, probes < 40 {
                changed = false
                for plainer in LineSimplifier.candidates(minimized[k].line) where probes < 40 {
                    var candidate = minimized
                    candidate[k] = SentLine(number: minimized[k].number, line: plainer, answers: minimized[k].answers)
                    probes += 1
                    if try reproduces(candidate) { minimized = candidate; changed = true; break }
                }
            }
        }
        let renamed = LineSimplifier.renamed(minimized.map(\.line))
        let candidate = zip(minimized, renamed).map { SentLine(number: $0.number, line: $1, answers: $0.answers) }
        if renamed.map(\.bytes) != minimized.map(\.line.bytes), try reproduces(candidate) { minimized = candidate }
        return minimized
    }

    /// The rule that stops a found class from being sent again: the trigger's family, for
    /// runners that were sent the runs of the reproducer (the families of its lines that store
    /// runs). Runs are what the read-backs trip on; the other lines only set the stage.
    static func muteRule(_ lines: [SentLine]) -> MuteRule? {
        guard let last = lines.last else { return nil }
        let storing = lines.dropLast().map(\.line.family).filter { family in
            ["ingest:", "param:runs.ingest", "malformed:", "collision:runs.ingest"].contains { family.hasPrefix($0) }
        }
        return storing.isEmpty ? nil : MuteRule(trigger: last.line.family, requires: Set(storing))
    }

    /// The operation a line asks for (`runs.ingest`), or its family for lines without one.
    static func operation(of line: FuzzLine) -> String {
        guard let first = line.answeredLines.first, let value = try? JSONParser.parse(first), let op = value["op"]?.stringValue else {
            return line.family
        }
        return op
    }

    /// Tries each line that was in flight, with the earlier state-changing lines about the same
    /// runner, on a fresh daemon; then each connection's whole state log. The first sequence
    /// that dies with the same signature, cut after the line that killed it.
    mutating func findTrigger(_ signature: CrashSignature, _ workers: [ConnectionWorker]) throws -> (lines: [SentLine], signature: CrashSignature?)? {
        var budget = Self.replaysPerTrigger
        // Without frames (the backtrace did not finish) any trap with the same signal matches.
        let complete = !signature.frames.isEmpty
        var replayed: CrashSignature?
        func attempt(_ lines: [SentLine]) throws -> [SentLine]? {
            guard !lines.isEmpty, budget > 0 else { return nil }
            budget -= 1
            let r = try replayer.replay(lines)
            guard r.died, let i = r.deathIndex, !complete || r.signature?.key == signature.key else { return nil }
            replayed = r.signature
            return Array(lines[0...i])
        }
        let sessions = workers.map(\.session).filter { !$0.inFlight.isEmpty }
        // The oldest line in flight on each connection is the one each was running; then the
        // next. When the backtrace names the operation, only lines asking for it.
        let op = complete ? signature.operation : nil
        for depth in 0..<3 {
            for session in sessions where depth < session.inFlight.count {
                let trigger = session.inFlight[depth]
                if let op, Self.operation(of: trigger.line) != op { continue }
                let state = session.stateLines.filter { $0.number < trigger.number && trigger.line.user != nil && $0.line.user == trigger.line.user }
                if let found = try attempt(state.suffix(Self.stateLinesPerCandidate) + [trigger]) { return (found, replayed) }
            }
        }
        for session in sessions {
            let state = session.stateLines.filter { $0.number < (session.inFlight.first?.number ?? .max) }
            if let found = try attempt(state.suffix(2000) + session.inFlight) { return (found, replayed) }
        }
        return nil
    }

    /// Dumps a hang, then replays the oldest line in flight on each connection that waited (with
    /// its runner's state lines) on a fresh daemon with a 10 s answer timeout: the first that
    /// gets no answer is the trigger.
    mutating func handleHang(workers: [ConnectionWorker], daemon: DaemonProcess, generation: Int) -> HangRecord {
        count += 1
        let dump = "\(settings.out)/hang-\(count)"
        let stderr = daemon.stderrText()
        try? write(dump: dump, stderr: stderr, workers: workers)
        var reproducer: [SentLine]?
        if settings.minimize {
            var quick = replayer
            quick.answerTimeout = 10
            for w in workers where w.end == .hang {
                guard let trigger = w.session.inFlight.first else { continue }
                let state = w.session.stateLines.filter { $0.number < trigger.number && trigger.line.user != nil && $0.line.user == trigger.line.user }
                let candidate = Array(state.suffix(Self.stateLinesPerCandidate)) + [trigger]
                if let r = try? quick.replay(candidate), r.hung, let i = r.deathIndex {
                    reproducer = Array(candidate[0...i])
                    break
                }
            }
            if let reproducer { try? Self.writeLines(reproducer.map(\.line.bytes), to: "\(dump)/reproducer.lines") }
        }
        let family = reproducer?.last?.line.family ?? workers.first(where: { $0.end == .hang })?.session.inFlight.first?.line.family
        return HangRecord(generation: generation, dump: dump, waited: workers.map(\.waited).max() ?? 0,
                          frames: CrashSignature.busyThread(in: stderr), reproducer: reproducer, family: family)
    }

    /// `connection-C.lines`: the last lines sent on connection C, as sent; `in-flight-C.lines`:
    /// those still unanswered; `stderr.txt`: the daemon's log and backtrace.
    func write(dump: String, stderr: String, workers: [ConnectionWorker]) throws {
        try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
        try stderr.write(toFile: "\(dump)/stderr.txt", atomically: true, encoding: .utf8)
        for (c, w) in workers.enumerated() {
            try Self.writeLines(w.session.recent.map(\.line.bytes), to: "\(dump)/connection-\(c).lines")
            let inFlight = w.session.inFlight
            if !inFlight.isEmpty { try Self.writeLines(inFlight.map(\.line.bytes), to: "\(dump)/in-flight-\(c).lines") }
        }
    }

    static func writeLines(_ lines: [[UInt8]], to path: String) throws {
        try Data(lines.joined()).write(to: URL(fileURLWithPath: path))
    }
}
