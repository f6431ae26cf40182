import Foundation
import Synchronization
import RunusCore
import Server
import Fuzzing

/// The protocol campaign (record 0540): a real `runus serve` on a scratch copy of the template
/// database, `connections` pipelined connections sending the generators' lines until `lines`
/// are sent, every answer checked; a daemon that dies is triaged (dump, reproducer, minimized),
/// restarted on the same database, and the campaign goes on with fresh runners. Each daemon
/// first gets a `line_too_long` probe (one line over 4 MiB on a connection of its own).
struct ProtocolCampaign {
    struct Settings {
        var runus: String
        var model: String
        var template: String?
        var lines: Int
        var connections: Int
        var seed: UInt64
        var out: String
        var answerTimeout: Double
        var restart: Bool
        var minimize: Bool
        var mute: Bool
        /// Answers due per connection at most.
        var window = 16
        /// Simulated runners in the template (`runner-0001`…), read by some lines.
        var simulatedRunners = 0
        /// Long tracks and huge strings shortened to this fraction (`RequestGenerator`).
        var scale = 1.0
    }

    let settings: Settings
    let checker = AnswerChecker(codes: Set(ErrorCode.allCases.map(\.rawValue)))

    func run() throws -> ProtocolReport {
        try FileManager.default.createDirectory(atPath: settings.out, withIntermediateDirectories: true)
        let replayer = Replayer(runus: settings.runus, model: settings.model, template: settings.template, directory: settings.out)
        let db = try replayer.freshDatabase("scratch")
        var triage = CrashTriage(settings: settings, replayer: replayer)
        let report = ProtocolReport(settings: settings)
        let budget = LineBudget(settings.lines)
        let started = Date()
        var generation = 0
        var mutes: [MuteRule] = []
        var mutedFamilies: Set<String> = []
        while budget.remaining > 0 {
            let daemon = try DaemonProcess(runus: settings.runus, db: db, model: settings.model,
                                           socket: "\(settings.out)/fuzz.sock", stderrPath: "\(settings.out)/daemon-\(generation).stderr")
            let sampler = RSSSampler(daemon)
            let silent = settings.simulatedRunners > 0 ? SilentReaders(socket: daemon.socket, simulatedRunners: settings.simulatedRunners) : nil
            report.noteRSS(before: daemon.rssKB, generation: generation)
            report.lineLimitProbes.append(LineLimitProbe.run(socket: daemon.socket, checker: checker))
            let workers = (0..<settings.connections).map { c -> ConnectionWorker in
                var generator = RequestGenerator(.init(seed: settings.seed, connection: c, generation: generation,
                                                       simulatedRunners: settings.simulatedRunners, scale: settings.scale))
                for rule in mutes { generator.mute(rule) }
                for family in mutedFamilies { generator.mute(family: family) }
                return ConnectionWorker(session: ProtocolSession(generator: generator, checker: checker), socket: daemon.socket,
                                        budget: budget, window: settings.window, answerTimeout: settings.answerTimeout)
            }
            Self.runAll(workers, budget: budget, progress: { report.progressIfDue(sent: settings.lines - budget.remaining, started: started) })
            let ends = workers.map(\.end)
            var status = daemon.status
            if ends.contains(.closed) || ends.contains(where: { if case .failed = $0 { return true }; return false }) {
                status = daemon.waitForExit(limit: 60)
            }
            // A trap whose backtrace never finished (seen under heavy load) looks like a hang:
            // the process lives on inside the backtracer. It is a crash; the replays say where.
            var trapped = Self.trapSignal(inStderrOf: daemon)
            if status == .running, trapped != nil {
                daemon.signal(SIGKILL)
                status = daemon.waitForExit(limit: 30)
            }
            if status == .running, ends.contains(.hang) {
                daemon.signal(SIGABRT)  // the backtracer prints where every thread is
                status = daemon.waitForExit(limit: 60)
                let hang = triage.handleHang(workers: workers, daemon: daemon, generation: generation)
                report.add(hang)
                // Only a hang a replay confirmed mutes its line's family.
                if settings.mute, hang.reproducer != nil, let family = hang.family { mutedFamilies.insert(family) }
            }
            for w in workers { var s = w.session; s.abandon(); report.tally.add(s.tally); report.addFindings(s.findings) }
            silent?.stop()
            if let silent { report.noteSilent(silent) }
            sampler.stop()
            report.noteRSS(samples: sampler.samples)
            if case .signalled(let s) = status, trapped == nil, !ends.contains(.hang) { trapped = s }
            switch status {
            case .signalled where trapped != nil:
                let crash = try triage.handle(signal: trapped!, daemon: daemon, workers: workers, generation: generation)
                report.add(crash)
                if settings.mute, let rule = crash.muteRule, !mutes.contains(rule) { mutes.append(rule) }
                report.restarts += 1
                guard settings.restart, budget.remaining > 0 else { report.finish(started: started); return report }
            case .running:
                report.noteRSS(after: daemon.rssKB)
                let final = daemon.stop()
                if final != .exited(0) { report.uncleanStops.append("daemon \(generation): \(final) after SIGTERM") }
                if budget.remaining > 0 {
                    report.uncleanStops.append("daemon \(generation): a connection ended early (\(ends)); restarting")
                    report.restarts += 1
                }
            default:
                if !ends.contains(.hang) { report.uncleanStops.append("daemon \(generation): \(status) with connections \(ends)") }
                report.restarts += 1
                guard settings.restart else { report.finish(started: started); return report }
            }
            budget.stop.store(false, ordering: .relaxed)
            generation += 1
            report.progressIfDue(sent: settings.lines - budget.remaining, started: started)
        }
        if settings.minimize { try reproduceInternalErrors(report, replayer: replayer) }
        report.finish(started: started)
        return report
    }

    /// Each distinct `internal` answer (by message, digits ignored) replayed on a fresh daemon
    /// with the earlier state lines of its runner, then minimized.
    func reproduceInternalErrors(_ report: ProtocolReport, replayer: Replayer) throws {
        var replayer = replayer
        var seen = Set<String>()
        for f in report.findings {
            guard case .internalError(let message) = f.violation else { continue }
            let shape = String(message.map { $0.isNumber ? "#" : $0 })
            guard seen.insert(shape).inserted, seen.count <= 10 else { continue }
            func reproduces(_ lines: [SentLine]) throws -> Bool {
                let r = try replayer.replay(lines)
                guard !r.died, let last = r.lastAnswers.last, let value = try? JSONParser.parse(last) else { return false }
                return value["error"]?["code"] == "internal"
            }
            let candidate = f.context + [f.request]
            guard try reproduces(candidate) else { continue }
            report.internalReproducers.append((message, try Minimizer.minimize(candidate, maximumProbes: 32, reproduces: reproduces).items))
        }
    }

    /// The signal of a trap the runtime started to report (`*** Signal 4: Backtracing from …`),
    /// whether or not the report got further.
    static func trapSignal(inStderrOf daemon: DaemonProcess) -> Int32? {
        let text = daemon.stderrText()
        guard let r = text.range(of: "*** Signal ") else { return nil }
        return Int32(text[r.upperBound...].prefix { $0.isNumber })
    }

    /// Runs every worker on its own thread until all end; the first that sees the daemon go
    /// (closed, hang, failed) stops the others. Prints progress every 10 s.
    static func runAll(_ workers: [ConnectionWorker], budget: LineBudget, progress: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        for worker in workers {
            group.enter()
            Thread.detachNewThread {
                worker.run()
                if worker.end != .done { budget.stop.store(true, ordering: .relaxed) }
                group.leave()
            }
        }
        while group.wait(timeout: .now() + 10) == .timedOut { progress() }
    }
}

/// Samples the daemon's RSS every 100 ms on a thread of its own.
final class RSSSampler: @unchecked Sendable {
    private let running = Atomic<Bool>(true)
    private let lock = NSLock()
    private var collected: [Int] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ daemon: DaemonProcess) {
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                if let kb = daemon.rssKB { lock.lock(); collected.append(kb); lock.unlock() }
                usleep(100_000)
            }
            done.signal()
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        done.wait()
    }

    var samples: [Int] { lock.lock(); defer { lock.unlock() }; return collected }
}
