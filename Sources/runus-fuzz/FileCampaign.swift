import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RunusCore
import Fuzzing

/// The track-file campaign (record 0540): `count` mutated files through the reader, metrics and
/// mission checks in a child `runus-fuzz files-worker`, which this parent restarts after the
/// file it crashed or hung on. A file with no result within `timeout` seconds is a hang (the
/// child gets SIGABRT, so its backtrace says where it was).
struct FileCampaign {
    struct Settings {
        var executable: String
        var datasets: String?
        var count: Int
        var seed: UInt64
        var out: String
        var timeout: Double
        var maximumBytes: Int
    }

    struct Problem {
        let index: Int
        let description: String
        let signature: CrashSignature
        let saved: String
    }

    let settings: Settings

    final class Report {
        var note = ""
        var done = 0, accepted = 0
        var refusedBy: [String: Int] = [:]
        var crashes: [Problem] = []
        var hangs: [Problem] = []
        var anomalies: [(index: Int, text: String)] = []
        var anomalyFiles = 0
        var slowestRefusal: (micros: Int, index: Int) = (-1, -1)
        var slowestAcceptance: (micros: Int, index: Int) = (-1, -1)
        var seconds = 0.0
        var points = 0
        /// Mission kinds left out after one crashed or hung, with the file that did it.
        var skippedKinds: [(kind: String, index: Int)] = []
    }

    func run() throws -> (Report, FileMutator) {
        try FileManager.default.createDirectory(atPath: "\(settings.out)/files", withIntermediateDirectories: true)
        let (seeds, note) = Corpus.load(datasets: settings.datasets, seed: settings.seed)
        let mutator = FileMutator(seeds: seeds, seed: settings.seed, maximumBytes: settings.maximumBytes)
        let report = Report()
        report.note = note
        say("file fuzzing: \(note)")
        let started = Date()
        var next = 0
        var children = 0
        while next < settings.count {
            children += 1
            next = try runChild(from: next, number: children, mutator: mutator, report: report)
        }
        report.seconds = -started.timeIntervalSinceNow
        return (report, mutator)
    }

    /// One child from file `from`; returns the index to go on from.
    func runChild(from: Int, number: Int, mutator: FileMutator, report: Report) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: settings.executable)
        process.arguments = ["files-worker", "--seed", "\(settings.seed)", "--from", "\(from)", "--count", "\(settings.count - from)",
                             "--skip-kinds", report.skippedKinds.map(\.kind).joined(separator: ","), "--max-file-bytes", "\(settings.maximumBytes)"]
            + (settings.datasets.map { ["--datasets", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,threads=all,registers=none,images=none"
        process.environment = environment
        let stderrPath = "\(settings.out)/files/worker-\(number).stderr"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let fd = pipe.fileHandleForReading.fileDescriptor
        var buffer: [UInt8] = []
        var current: Int?
        // The file after the last one the worker finished: a worker that dies between files
        // (making the next mutated file) is a crash on that one, not the end of the campaign.
        var nextToStart = from
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(settings.timeout * 1000))
            if ready == 0, let index = current {
                // SIGABRT for the backtrace; the runtime's backtracer has been seen to let the
                // process run on after printing it, so SIGKILL follows.
                kill(process.processIdentifier, SIGABRT)
                let deadline = Date().addingTimeInterval(10)
                while process.isRunning, Date() < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                let p = problem(index, mutator: mutator, stderrPath: stderrPath, kind: "hang")
                report.hangs.append(p)
                say("  hang on file \(index): \(p.signature.frames.first ?? "?")\n    \(p.description)")
                skipKind(p, report)
                return index + 1
            }
            if ready == 0 { continue }
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 {
                process.waitUntilExit()
                let died = process.terminationReason == .uncaughtSignal || process.terminationStatus != 0
                guard let index = current ?? (died || nextToStart < settings.count ? nextToStart : nil) else { return settings.count }
                if died || current == nil {
                    let p = problem(index, mutator: mutator, stderrPath: stderrPath, kind: "crash")
                    report.crashes.append(p)
                    say("  crash on file \(index): \(p.signature.message) at \(p.signature.location)\n    \(p.description)")
                    skipKind(p, report)
                }
                return index + 1
            }
            buffer += chunk[0..<n]
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[0..<newline], as: UTF8.self)
                buffer.removeSubrange(0...newline)
                current = take(line, report: report, current: current)
                if current == nil, line.hasPrefix("E ") { nextToStart = (Int(line.split(separator: " ")[1]) ?? nextToStart) + 1 }
            }
        }
    }

    /// Reads one worker line; returns the file in progress.
    func take(_ line: String, report: Report, current: Int?) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 6).map(String.init)
        guard parts.count >= 2, let index = Int(parts[1]) else { return current }
        switch parts[0] {
        case "B": return index
        case "E" where parts.count >= 7:
            report.done += 1
            let micros = Int(parts[4]) ?? 0
            report.points += Int(parts[5]) ?? 0
            if parts[2] == "accepted" {
                report.accepted += 1
                if micros > report.slowestAcceptance.micros { report.slowestAcceptance = (micros, index) }
            } else {
                report.refusedBy[parts[3], default: 0] += 1
                if micros > report.slowestRefusal.micros { report.slowestRefusal = (micros, index) }
            }
            if (Int(parts[6]) ?? 0) > 0 { report.anomalyFiles += 1 }
            if report.done % 1000 == 0 { say("  \(report.done) files") }
            return nil
        case "A":
            if report.anomalies.count < 200 { report.anomalies.append((index, String(line.dropFirst(2 + parts[1].count + 1)))) }
            return current
        default: return current
        }
    }

    /// A crash or hang in one mission kind's check: the rest of the campaign goes without that
    /// kind, so that the same bug is not met again on every other file.
    func skipKind(_ p: Problem, _ report: Report) {
        guard let kind = FilePipeline.kind(in: p.signature.frames), !report.skippedKinds.contains(where: { $0.kind == kind.rawValue }) else { return }
        report.skippedKinds.append((kind.rawValue, p.index))
        say("    mission kind \(kind.rawValue) left out of the check from now on")
    }

    func problem(_ index: Int, mutator: FileMutator, stderrPath: String, kind: String) -> Problem {
        let file = mutator.file(index)
        let base = (file.name as NSString).lastPathComponent
        let saved = "\(settings.out)/files/\(kind)-\(index)-\(base)"
        try? Data(file.bytes).write(to: URL(fileURLWithPath: saved))
        let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return Problem(index: index, description: file.description, signature: CrashSignature(stderr: text, signal: nil), saved: saved)
    }
}
